"""The late notices of a phase (and the reminder before them), each sent once (njudge ``dip.c``, ``data/deadlines``).

- The reminder: ``Game.reminder`` hours before the deadline (njudge: 8; 0: none), to each
  player whose orders are not complete or whose last order mail had errors. It goes once
  per deadline (``Game.reminded_for``): again only if the deadline moves.
- The late notice: at the deadline, to each late player (``[You are late!]``, not in the
  archive) and to everyone else, players, observers and master (in the archive), naming
  the late powers and, in a NoNMR game, the abandoned powers the game waits for; again once
  a day during grace (njudge: "Another reminder will be sent to the late parties, and a
  notice to all other participants, every day"). A late player is marked late for the
  phase (its record counts the phase as late if the orders come in grace) and each notice
  counts against its dedication.
- At the end of grace in a NoNMR game: the late powers are abandoned (:func:`judge.game.lateness.abandon_late`)
  and everyone, the abandoned players too, is told that they are free for takeover; while
  the game waits for replacements the notice comes again every two days.

Which notice is due is counted in ``Game.late_notices`` (the schedule:
:func:`judge.game.lateness.notice_moment`), written in the same transaction as the mails under
the game's row lock: a notice is never sent twice, across a restart or by two judge
processes. A judge that was down skips the notices it missed and sends the current one.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from .. import render
from ..config import Config
from ..store.games import Player
from . import lateness, orders
from .mails import Mail, context, per_zone
from .view import GameView

log = logging.getLogger(__name__)


def reminder_due(view: GameView, now: datetime) -> bool:
    game = view.game
    return (game.reminder > 0 and game.deadline is not None and game.reminded_for != game.deadline
            and now >= game.deadline - timedelta(hours=game.reminder))


def remind(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """The reminders of this deadline (none once it has passed: the late notice follows)."""
    game = view.game
    deadline = game.deadline
    assert deadline is not None
    game.reminded_for = deadline
    if now >= deadline:
        return []
    hours = int((deadline - now) / timedelta(hours=1)) + 1  # njudge: "less than 9 hours" with 8 h 30 left
    mails = [Mail.of(p.email, _reminder(view, config, p, hours, now), "reminder", view)
             for p in lateness.late_players(view)]
    if mails:
        log.info("game %s: reminded %d player(s) of the %s deadline", game.name, len(mails), game.phase)
    return mails


def _reminder(view: GameView, config: Config, p: Player, hours: int, now: datetime) -> render.Rendered:
    ctx = context(config, view, p)
    power = p.power or ""
    board, position = view.board, view.position
    entries = view.entries(power)
    section = render.orders_text(ctx, power, orders.echo(board, position, power, entries),
                                 orders.is_complete(board, position, power, entries), now,
                                 errors=view.errors(power), grace=view.game.grace_end,
                                 at_grace="process" if view.game.nmr else "abandon")
    return render.reminder_mail(ctx, power, section, hours, errors=view.errors(power) > 0)


def notice_due(view: GameView, now: datetime) -> bool:
    """True when the phase's next lateness notice is due (the deadline has passed)."""
    game = view.game
    end = game.grace_end
    if game.deadline is None or end is None or now < game.deadline:
        return False
    return now >= lateness.notice_moment(game.deadline, end, game.late_notices)


def _count_sent(view: GameView, now: datetime) -> None:
    """Mark every notice due by ``now`` as sent (a judge that was down skips the missed ones)."""
    game = view.game
    assert game.deadline is not None and game.grace_end is not None
    while lateness.notice_moment(game.deadline, game.grace_end, game.late_notices) <= now:
        game.late_notices += 1
    game.late_notice_sent = True


def late_notices(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """The notice due now: the late notice during grace, or (NoNMR, grace over) the
    abandonment or the waiting notice."""
    game = view.game
    if not lateness.in_grace(game, now):
        return _waiting(view, config, now)
    late = lateness.late_players(view)
    waiting = lateness.waited_for(view)
    _count_sent(view, now)
    grace = game.grace_end
    assert grace is not None
    powers = [p.power or "" for p in late]
    mails = []
    for p in late:
        p.was_late = True
        p.late_notices += 1
        text = render.late_mail(context(config, view, p), powers, waiting, grace, nmr=game.nmr, you=p.power)
        mails.append(Mail.of(p.email, text, "late", view))
    others = [p for p in view.members() if p not in late]
    mails.extend(per_zone(view, config, others,
                          lambda ctx: render.late_mail(ctx, powers, waiting, grace, nmr=game.nmr), "notice"))
    log.info("game %s: late notice %d for %s (late: %s; waiting for: %s); grace ends %s", game.name,
             game.late_notices, game.phase, ", ".join(powers) or "-", ", ".join(waiting) or "-", grace)
    return mails


def _waiting(view: GameView, config: Config, now: datetime) -> list[Mail]:
    game = view.game
    abandoned = lateness.abandon_late(view)
    waiting = lateness.waited_for(view)
    _count_sent(view, now)
    names = [p.power or "" for p in abandoned]
    if abandoned:
        log.info("game %s: %s abandoned at the end of grace of %s", game.name, ", ".join(names), game.phase)
    readers = [*view.members(), *abandoned]
    return per_zone(view, config, readers, lambda ctx: render.waiting_mail(ctx, names, waiting), "notice")
