"""Processing a phase: at its deadline, when every order is in, or when the master says so.

:func:`process_game` is what the scheduler calls when :func:`pending_deadlines` says a game
is due (its deadline, or the end of its grace once the late notice went out; see
:mod:`judge.game.grace`). It locks the game's row (``SELECT ... FOR UPDATE``; on SQLite the
write transaction already excludes others) and re-checks the clock under the lock, so two
judge processes sharing one database process a phase (or send its late notice) once. At the
deadline it processes if every order is in, otherwise it sends the late notice; at the end
of grace it processes whatever is in. :func:`advance` does the work: the engine adjudicates
the stored orders, the phase is recorded, missed orders are counted, draw votes are cleared,
the next phase and its deadline are stored and the result mail is queued, all in the
caller's transaction.
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
from . import announce, grace, notices, orders
from .board import board_of, store_position

log = logging.getLogger(__name__)


def pending_deadlines(session: Session) -> list[tuple[str, datetime]]:
    """(game, moment) for every active game: when the judge must next look at it (its
    deadline, or the end of grace once the phase's late notice has gone out)."""
    return games_with_deadlines(session)


def process_game(session: Session, config: Any, game: str, now: datetime) -> bool:
    """Act on ``game`` if it is due: process its phase (all orders in, or grace over) or
    send the phase's late notice. True if either happened (mail was queued)."""
    row = find_game(session, game, lock=True)
    if row is None or row.status != ACTIVE or row.deadline is None or row.deadline > now:
        return False
    late = grace.late_players(session, row)
    if not late or not grace.in_grace(row, now):
        advance(session, config, row, now)
        return True
    if row.late_notice_sent:
        return False
    row.late_notice_sent = True
    announce.late(session, config, row, late)
    log.info("game %s: %s late for %s; grace ends %s", row.name, ", ".join(p.power or "" for p in late),
             row.phase, row.grace_end)
    return True


def is_ready(session: Session, game: Game, now: datetime) -> bool:
    """True when every power with a player has complete orders and, before the deadline,
    nobody has SET WAIT."""
    if game.status != ACTIVE or game.phase is None:
        return False
    if not grace.past_deadline(game, now) and any(p.wait for p in members(game)):
        return False
    return not grace.late_players(session, game)


def process_ready(session: Session, config: Any, game: Game, now: datetime) -> bool:
    """Process at once if :func:`is_ready`; True if a phase was processed."""
    if not is_ready(session, game, now):
        return False
    advance(session, config, game, now)
    return True


def advance(session: Session, config: Any, game: Game, now: datetime) -> None:
    """Adjudicate the current phase with the stored orders and move the game on."""
    b = board_of(game)
    assert game.phase is not None
    missed = grace.count_missed(session, game, now)
    stored = order_sets(session, game, game.phase)
    lines = {power: list(o.lines) for power, o in stored.items()}
    result = adjudicate(b.engine, b.position, orders.orders_of(b.engine, b.position, lines))
    seq = game.seq
    record = PhaseRecord(game_id=game.id, seq=seq, phase=game.phase, position=b.position.to_json(b.m),
                         orders=lines, results="")
    session.add(record)
    nxt = result.next
    store_position(game, b.m, nxt)
    game.seq = seq + 1
    for p in members(game):
        p.wait = False
        p.draw_vote = False
    _eliminate(game, b.engine, nxt)
    game_over = None
    if result.winners:
        game.status = FINISHED
        game.winners = list(result.winners)
        grace.stop_clock(game)
        game_over = notices.game_over_text(game, result.winners)
    else:
        grace.start_clock(game, now, nxt.phase.kind)
    session.flush()
    record.results = notices.results(session, config, game, result, seq, game.deadline, game_over)
    log.info("game %s: processed %s (#%d) -> %s%s%s", game.name, b.phase.code, seq, nxt.phase.code,
             f", won by {', '.join(result.winners)}" if result.winners else "",
             f", missed by {', '.join(missed)}" if missed else "")


def _eliminate(game: Game, board: Any, position: Any) -> None:
    """Mark players whose power has neither units nor centres left."""
    alive = {u.power for u in position.units.values()} | set(position.owners.values())
    alive |= {d.unit.power for d in position.dislodged.values()}
    counts = adjustment_counts(board, position)
    for p in game.players:
        if p.role == PLAYER and p.power and p.active and p.power not in alive and counts.get(p.power, 0) <= 0:
            p.status = ELIMINATED
