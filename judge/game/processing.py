"""Processing a phase: at its deadline, when every order is in (after the clock's delay), or
when the master says so.

:func:`act` is what the deadline queue (:mod:`.due`) runs on a game it claimed (its row
locked: ``FOR UPDATE SKIP LOCKED``; on SQLite the write transaction already excludes others);
:func:`process_game` locks a game by name and does the same. Either re-checks the clock
under the lock, so two judge processes sharing one database process a phase (or send one of
its lateness notices) once: what was sent is recorded in the game's row in the same
transaction as the mails. The rules of when
are in :mod:`.lateness` and :mod:`.late_notices`; :func:`due_work` is the state machine.
:func:`advance` does the work: the engine adjudicates the stored orders, the phase is
recorded (with the options it was judged by; first the bot writes the orders of the
powers it plays, :mod:`.botseats`, and the results say whose orders it wrote), each player's record counts it
(:mod:`.records`), waits and draw votes are cleared, the next phase and its deadline are
stored, and the result mail (one per zone of its readers, with the picture for those who
want it) is returned (with the game's final mail after a victory,
:func:`judge.game.ending.finish`), all in the caller's transaction, followed by the mails of
what was held for the phase's end (its postal press, the orders entered in advance for the
next phase: :func:`judge.game.held.released`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from ..config import Config
from ..engine import adjudicate
from ..engine.adjustments import adjustment_counts
from ..render import GameContext, Rendered, game_over_text, results_mail
from ..render.links import phase_url
from ..store.games import ACTIVE, ELIMINATED, PLAYER, Game, PhaseRecord, find_game
from . import botseats, draws, ending, held, late_notices, lateness, records
from .mails import Mail, context, per_zone, queue
from .pictures import picture_file, wants_pictures
from .view import GameView, entries_to_json, view_of
from .zones import game_zone

log = logging.getLogger(__name__)


def process_game(session: Session, config: Config, game: str, now: datetime) -> bool:
    """Lock ``game``'s row and :func:`act` on it."""
    row = find_game(session, game, lock=True)
    return row is not None and act(session, config, row, now)


def act(session: Session, config: Config, row: Game, now: datetime) -> bool:
    """Act on the game of ``row`` (locked) if it is due: process its phase (orders all in
    after the delay, or at the deadline, or grace over) or send the phase's late notices,
    queueing the mail. True if the game changed."""
    if row.status != ACTIVE or row.deadline is None:
        return False
    view = view_of(session, row)
    mails = due_work(view, config, now)
    if mails is None:
        return False
    queue(session, mails, config=config)
    return True


def due_work(view: GameView, config: Config, now: datetime) -> list[Mail] | None:
    """What the judge must do for the game at ``now``, the lateness state machine: the
    reminders before the deadline (:mod:`.late_notices`); the phase processed when its orders
    are all in (after the delay, or at the deadline), or at the end of grace in an NMR game;
    otherwise the lateness notice due (late notice, abandonment, waiting for replacements).
    The mails, ``[]`` when only the game's state moved on, None when nothing was due."""
    game = view.game
    mails: list[Mail] = []
    acted = False
    if late_notices.reminder_due(view, now):
        mails.extend(late_notices.remind(view, config, now))
        acted = True
    if lateness.past_deadline(game, now):
        if game.process_at is not None:  # past the deadline the phase goes at once or waits for grace
            game.process_at = None
            acted = True
        if lateness.all_in(view, now) or (game.nmr and not lateness.in_grace(game, now)):
            return mails + advance(view, config, now)
        if late_notices.notice_due(view, now):
            mails.extend(late_notices.late_notices(view, config, now))
            acted = True
    elif game.process_at is not None and game.process_at <= now:
        if lateness.all_in(view, now) and lateness.may_start(game, now):
            return mails + advance(view, config, now)
        game.process_at = None
        acted = True
    return mails if acted else None


def when_ready(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """After a change to the game's orders or waits: if every order is in, process at once
    when the clock's delay is 0 (and ``min``/``SET START`` allow it), else set the moment to
    process (``process_at``); if they are no longer all in, cancel it. The mails of a phase
    processed now."""
    game = view.game
    if game.status != ACTIVE or game.deadline is None:
        return []
    if not lateness.all_in(view, now):
        if game.process_at is not None:  # not set when unchanged: a dirty game costs a flush
            game.process_at = None
        return []
    if lateness.past_deadline(game, now):
        return advance(view, config, now)
    if game.process_at is None:
        at = now + timedelta(hours=view.clock().delay)
        if game.start_at is not None and game.start_at > at:
            at = game.start_at
        if at <= now:
            return advance(view, config, now)
        game.process_at = at
    return []


def advance(view: GameView, config: Config, now: datetime, *, forced: bool = False) -> list[Mail]:
    """Adjudicate the current phase with the stored orders and move the game on; the result
    mails. ``forced``: the master's PROCESS, which ends the phase now
    (:func:`.lateness.end_now`: the next phase takes its own clock)."""
    game = view.game
    board, position = view.board, view.position
    missed = records.count_phase(view, now)
    by_bot = botseats.write_orders(view)
    entries = view.all_entries()
    result = adjudicate(board, position, view.orders())
    seq = game.seq
    record = PhaseRecord(game_id=game.id, seq=seq, phase=position.phase.code, position=position.to_json(board.map),
                         orders=entries_to_json(entries), results="", options=dict(game.options or {}), bot_powers=by_bot)
    view.session.add(record)
    view.set_position(result.next)
    game.seq = seq + 1
    for p in view.members():
        p.wait = False
    draws.clear_votes(view)
    _eliminate(view)
    game_over = None
    ended: list[Mail] = []
    if result.winners:
        game_over = game_over_text(board.map, result.winners)
        ended = ending.finish(view, config, ending.VICTORY, list(result.winners), during=position.phase)
    else:
        if forced:
            lateness.end_now(game, now)
        lateness.start_clock(view, now, game_zone(game, config))
    view.session.flush()
    link = phase_url(config.web_base_url, game.name, position.phase.code)

    def build(ctx: GameContext) -> Rendered:
        return results_mail(ctx, result, seq, game.deadline, game_over=game_over, link=link, bot_powers=by_bot)

    home = build(context(config, view))
    record.results = home.body
    log.info("game %s: processed %s (#%d) -> %s%s%s", game.name, position.phase.code, seq, result.next.phase.code,
             f", won by {', '.join(result.winners)}" if result.winners else "",
             f", missed by {', '.join(missed)}" if missed else "")
    readers = view.members()
    seeing = [p for p in readers if wants_pictures(view, p)]
    blind = [p for p in readers if p not in seeing]
    phase = position.phase.code
    mails = []
    if seeing:
        files = (picture_file(view, position, result),)
        mails.extend(per_zone(view, config, seeing, build, "result", phase, home=home, files=files))
    if blind:
        mails.extend(per_zone(view, config, blind, build, "result", phase, home=home, archive=not seeing))
    return [*mails, *ended, *held.released(view, config, now, position.phase)]


def _eliminate(view: GameView) -> None:
    """Mark players whose power has neither units nor centres left."""
    position = view.position
    alive = {u.power for u in position.units.values()} | set(position.owners.values())
    alive |= {d.unit.power for d in position.dislodged.values()}
    counts = adjustment_counts(view.board, position)
    for p in view.game.players:
        if p.role == PLAYER and p.power and p.active and p.power not in alive and counts.get(p.power, 0) <= 0:
            p.status = ELIMINATED
