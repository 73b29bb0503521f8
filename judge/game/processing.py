"""Processing a phase: at its deadline, when every order is in, or when the master says so.

:func:`process_game` is what the scheduler calls at a deadline. It locks the game's row
(``SELECT ... FOR UPDATE``; on SQLite the write transaction already excludes others) and
re-checks the deadline under the lock, so two judge processes sharing one database process
a phase once. :func:`advance` does the work: the engine adjudicates the stored orders, the
phase is recorded, the next phase and its deadline are stored and the result mail is queued,
all in the caller's transaction.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..engine import adjudicate
from ..engine.adjustments import adjustment_counts
from ..store.games import (
    ACTIVE,
    ELIMINATED,
    FINISHED,
    PLAYER,
    Game,
    PhaseRecord,
    find_game,
    games_with_deadlines,
    members,
    order_sets,
)
from . import notices, orders
from .board import board_of, store_position
from .deadlines import default_deadline

log = logging.getLogger(__name__)


def pending_deadlines(session: Session) -> list[tuple[str, datetime]]:
    """(game, deadline) for every active game waiting for a deadline."""
    return games_with_deadlines(session)


def process_game(session: Session, config: Any, game: str, now: datetime) -> bool:
    """Process ``game`` if its deadline has come; True if a phase was processed."""
    row = find_game(session, game, lock=True)
    if row is None or row.status != ACTIVE or row.deadline is None or row.deadline > now:
        return False
    advance(session, config, row, now)
    return True


def is_ready(session: Session, game: Game) -> bool:
    """True when every power with a player has complete orders and nobody waits."""
    if game.status != ACTIVE or game.phase is None:
        return False
    people = members(game)
    if any(p.wait for p in people):
        return False
    b = board_of(game)
    need = orders.required(b.m, b.position)
    stored = order_sets(session, game, game.phase)
    played = {p.power for p in people if p.role == PLAYER and p.power}
    for power in need:
        if power not in played:
            continue
        lines = stored[power].lines if power in stored else []
        if not orders.is_complete(b.m, b.position, power, lines):
            return False
    return True


def process_ready(session: Session, config: Any, game: Game, now: datetime) -> bool:
    """Process at once if :func:`is_ready`; True if a phase was processed."""
    if not is_ready(session, game):
        return False
    advance(session, config, game, now)
    return True


def advance(session: Session, config: Any, game: Game, now: datetime) -> None:
    """Adjudicate the current phase with the stored orders and move the game on."""
    b = board_of(game)
    assert game.phase is not None
    stored = order_sets(session, game, game.phase)
    lines = {power: list(o.lines) for power, o in stored.items()}
    result = adjudicate(b.m, b.position, orders.orders_of(b.m, b.position, lines), b.options, b.rules)
    seq = game.seq
    record = PhaseRecord(game_id=game.id, seq=seq, phase=game.phase, position=b.position.to_json(b.m),
                         orders=lines, results="")
    session.add(record)
    nxt = result.next
    store_position(game, b.m, nxt)
    game.seq = seq + 1
    for p in members(game):
        p.wait = False
    _eliminate(game, b.m, nxt)
    game_over = None
    if result.winners:
        game.status = FINISHED
        game.winners = list(result.winners)
        game.deadline = None
        game_over = notices.game_over_text(game, result.winners)
    else:
        game.deadline = default_deadline(now, game.hours_for(nxt.phase.kind))
    session.flush()
    record.results = notices.results(session, config, game, result, seq, game.deadline, game_over)
    log.info("game %s: processed %s (#%d) -> %s%s", game.name, b.phase.code, seq, nxt.phase.code,
             f", won by {', '.join(result.winners)}" if result.winners else "")


def _eliminate(game: Game, m: Any, position: Any) -> None:
    """Mark players whose power has neither units nor centres left."""
    alive = {u.power for u in position.units.values()} | set(position.owners.values())
    alive |= {d.unit.power for d in position.dislodged.values()}
    counts = adjustment_counts(m, position)
    for p in game.players:
        if p.role == PLAYER and p.power and p.active and p.power not in alive and counts.get(p.power, 0) <= 0:
            p.status = ELIMINATED
