"""Processing a phase: at its deadline, when every order is in (after the clock's delay), or
when the master says so.

:func:`process_game` is what the scheduler calls when :func:`pending_deadlines` says a game
is due. It locks the game's row (``SELECT ... FOR UPDATE``; on SQLite the write transaction
already excludes others) and re-checks the clock under the lock, so two judge processes
sharing one database process a phase (or send its late notice) once. The rules of when are
in :mod:`.lateness`. :func:`advance` does the work: the engine adjudicates the stored orders,
the phase is recorded (with the options it was judged by), missed orders are counted, waits
and draw votes are cleared, the next phase and its deadline are stored, and the result mail
is returned (with the game's final mail after a victory, :func:`judge.game.ending.finish`),
all in the caller's transaction, followed by the mails of what was held for the phase's end
(its postal press, the orders entered in advance for the next phase:
:func:`judge.game.held.released`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from ..config import Config
from ..engine import adjudicate
from ..engine.adjustments import adjustment_counts
from ..render import game_over_text, results_mail
from ..render.links import phase_url
from ..store.games import ACTIVE, ELIMINATED, PLAYER, PhaseRecord, find_game, games_with_deadlines
from . import draws, ending, held, lateness, notices
from .deadlines import zone
from .mails import Mail, addresses, context, queue
from .pictures import picture_file, wants_pictures
from .view import GameView, entries_to_json, view_of

log = logging.getLogger(__name__)


def pending_deadlines(session: Session) -> list[tuple[str, datetime]]:
    """(game, moment) for every active game: when the judge must next look at it."""
    return games_with_deadlines(session)


def process_game(session: Session, config: Config, game: str, now: datetime) -> bool:
    """Act on ``game`` if it is due: process its phase (orders all in after the delay, or at
    the deadline, or grace over) or send the phase's late notices, queueing the mail. True if
    the game changed."""
    row = find_game(session, game, lock=True)
    if row is None or row.status != ACTIVE or row.deadline is None:
        return False
    view = view_of(session, row)
    mails = due_work(view, config, now)
    if mails is None:
        return False
    queue(session, mails, config=config)
    return True


def due_work(view: GameView, config: Config, now: datetime) -> list[Mail] | None:
    """What the judge must do for the game at ``now``: the mails of a processed phase or of
    the late notices, or None when nothing is due."""
    game = view.game
    if game.process_at is not None and game.process_at <= now:
        if lateness.all_in(view, now):
            return advance(view, config, now)
        game.process_at = None
    if game.deadline is None or game.deadline > now:
        return None
    late = lateness.late_players(view)
    if not late or not lateness.in_grace(game, now):
        return advance(view, config, now)
    if game.late_notice_sent:
        return None
    game.late_notice_sent = True
    log.info("game %s: %s late for %s; grace ends %s", game.name, ", ".join(p.power or "" for p in late),
             game.phase, game.grace_end)
    return notices.late(view, config, late)


def when_ready(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """After a change to the game's orders or waits: if every order is in, process at once
    when the clock's delay is 0, else set the moment to process (``process_at``); if they are
    no longer all in, cancel it. The mails of a phase processed now."""
    game = view.game
    if game.status != ACTIVE or game.deadline is None:
        return []
    if not lateness.all_in(view, now):
        game.process_at = None
        return []
    if lateness.past_deadline(game, now):
        return advance(view, config, now)
    if game.process_at is None:
        delay = view.clock().delay
        if delay <= 0:
            return advance(view, config, now)
        game.process_at = now + timedelta(hours=delay)
    return []


def advance(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """Adjudicate the current phase with the stored orders and move the game on; the result
    mails."""
    game = view.game
    board, position = view.board, view.position
    missed = lateness.count_missed(view, now)
    entries = view.all_entries()
    result = adjudicate(board, position, view.orders())
    seq = game.seq
    record = PhaseRecord(game_id=game.id, seq=seq, phase=position.phase.code, position=position.to_json(board.map),
                         orders=entries_to_json(entries), results="", options=dict(game.options or {}))
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
        lateness.start_clock(view, now, zone(config.timezone))
    view.session.flush()
    link = phase_url(config.web_base_url, game.name, position.phase.code)
    mail = results_mail(context(config, view), result, seq, game.deadline, game_over=game_over, link=link)
    record.results = mail.body
    log.info("game %s: processed %s (#%d) -> %s%s%s", game.name, position.phase.code, seq, result.next.phase.code,
             f", won by {', '.join(result.winners)}" if result.winners else "",
             f", missed by {', '.join(missed)}" if missed else "")
    readers = view.members()
    seeing = [p for p in readers if wants_pictures(view, p)]
    blind = addresses([p for p in readers if p not in seeing])
    mails = []
    if seeing:
        files = (picture_file(view, position, result),)
        mails.append(Mail.of(addresses(seeing), mail, "result", view, position.phase.code, files=files))
    if blind:
        mails.append(Mail.of(blind, mail, "result", view, position.phase.code, archive=not seeing))
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
