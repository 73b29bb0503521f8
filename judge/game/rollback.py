"""ROLLBACK (njudge ``data/master``): the game returns to its state just before a processed
turn, and plays on from there.

``ROLLBACK`` alone goes back one turn (before the last one processed); ``ROLLBACK 3`` goes
back to before turn 3 (turn numbers are the ``game.003`` of the reports: ``ROLLBACK 1`` is
the very start, before Spring 1901 was processed); ``ROLLBACK F1901M`` (or ``fall 1901
movement``) names the turn by its phase.

- The position is the one stored with that turn (:class:`~judge.store.games.PhaseRecord`),
  and the orders stored then for it are restored as they were (njudge: "Any pending orders
  that existed will also be reprocessed"); orders given for the later turns and for the
  current one are dropped, as they were for positions that no longer stand. The orders the
  judge's bot wrote are not restored: it writes them again when the turn is played (the same
  ones, by its seed, unless a person has taken the power over since). The options in
  force now stay (a master who corrected an option replays the turn by it).
- The records of that turn and of every later one are withdrawn (``withdrawn`` is the
  rollback's number): they no longer count, but stay for the archive, and their result mails
  are marked withdrawn there (HISTORY and the web archive show them as withdrawn). A game
  that had ended goes on: its end (final mail) is withdrawn too, and it is no longer rated
  (irregular: :func:`judge.game.ratings.rolled_back`).
- Draw votes and waits are cleared, a power alive again gets its eliminated player back,
  deadlines restart from now, and everyone is told. Missed deadlines stay counted: they
  were missed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete

from .. import render
from ..config import Config
from ..engine import Phase, PhaseError, Position
from ..store.games import ACTIVE, ELIMINATED, FINISHED, OrderSet, PhaseRecord, PlayerStatus, phase_records
from ..store.mail import withdraw_mails
from . import draws, lateness, ratings
from .ending import ENDING_KIND
from .errors import GameError
from .mails import Mail, per_zone
from .takeover import alive_powers
from .view import GameView, entries_from_json
from .zones import game_zone

log = logging.getLogger(__name__)


class RollbackError(GameError):
    """A rollback that cannot be done; the message is for the master."""


@dataclass(frozen=True, slots=True)
class RolledBack:
    """What a rollback did: the turn gone back to, the phases withdrawn, and the mails."""

    record: PhaseRecord
    withdrawn: list[str]
    resumed: bool
    mails: list[Mail]


def target(view: GameView, text: str) -> PhaseRecord:
    """The processed turn ``text`` names (empty: the last one); raises :class:`RollbackError`."""
    records = phase_records(view.session, view.game)
    if not records:
        raise RollbackError(render.refusal("rollback_nothing_processed", game=view.name))
    text = text.strip()
    if not text:
        return records[-1]
    if text.isdigit():
        found = next((r for r in records if r.seq == int(text)), None)
    else:
        try:
            code = Phase.parse(text).code
        except PhaseError:
            raise RollbackError(render.refusal("rollback_unreadable", text=text)) from None
        found = next((r for r in records if r.phase == code), None)
    if found is None:
        first, last = records[0], records[-1]
        raise RollbackError(render.refusal("rollback_no_such_turn", game=view.name, turn=text, first=first.seq,
                                            first_phase=first.phase, last=last.seq, last_phase=last.phase))
    return found


def rollback(view: GameView, config: Config, record: PhaseRecord, now: datetime) -> RolledBack:
    """Take the game back to before ``record`` (see the module docstring)."""
    game, session = view.game, view.session
    later = [r for r in phase_records(session, game) if r.seq >= record.seq]
    game.rollbacks += 1
    for r in later:
        r.withdrawn = game.rollbacks
    phases = [r.phase for r in later]
    withdraw_mails(session, game.name, ["result"], phases, now)
    resumed = game.status == FINISHED
    if resumed:
        withdraw_mails(session, game.name, [ENDING_KIND], None, now)
        game.status, game.winners, game.ending = ACTIVE, [], None
        ratings.rolled_back(view, now)
    session.execute(delete(OrderSet).where(OrderSet.game_id == game.id,
                                           OrderSet.phase.in_([*phases, game.phase or ""])))
    session.flush()
    view.set_position(Position.from_json(view.map, record.position))
    game.seq = record.seq
    by_bot = set(record.bot_powers or ())
    for power, entries in entries_from_json(record.orders or {}).items():
        if power not in by_bot:  # the bot writes its orders again when the turn is played (the same, by its seed)
            view.store_orders(power, entries, 0)
    alive = set(alive_powers(view))
    for p in view.members():
        p.wait = False
        if p.status == ELIMINATED and p.power in alive:
            p.status = PlayerStatus.ACTIVE
    draws.clear_votes(view)
    game.deadline = game.grace = None  # the clock restarts from now: no floor from the withdrawn phases
    lateness.start_clock(view, now, game_zone(view.game, config))
    session.flush()
    log.info("game %s rolled back to before %s (#%d); withdrawn: %s", game.name, record.phase, record.seq,
             ", ".join(phases))
    restored = sorted((p for p in record.orders or {} if p not in by_bot), key=view.power_rank)
    mails = per_zone(view, config, view.members(),
                     lambda ctx: render.rolled_back_mail(ctx, record.seq, phases, view.position, resumed=resumed,
                                                         restored=restored), "notice")
    return RolledBack(record, phases, resumed, mails)
