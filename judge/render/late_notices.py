"""The late notices (njudge ``dip.c``, ``data/deadlines``): the reminder before the deadline,
the late notices at the deadline and each day of grace, the abandonment at the end of grace
and the "waiting for replacements" notices after it. When each is due and to whom:
:mod:`judge.game.late_notices`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .context import GameContext, Rendered
from .environment import render
from .notices import role_letter


def _letters(ctx: GameContext, powers: Sequence[str]) -> str:
    return "".join(role_letter(ctx, p) for p in powers)


def reminder_mail(ctx: GameContext, power: str, orders: str, hours: int, *, errors: bool) -> Rendered:
    """To a player whose orders are not complete (or whose last order mail had errors)
    ``hours`` or fewer hours before the deadline; ``orders`` is the power's order section."""
    body = render("player/reminder", header=ctx.header, orders=orders.strip("\n"), hours=hours, errors=errors)
    return Rendered(f"{ctx.subject_prefix} Reminder", body)


def late_mail(ctx: GameContext, late: Sequence[str], waiting: Sequence[str], grace: datetime, *, nmr: bool,
              you: str | None = None) -> Rendered:
    """At the deadline and each day of grace: the game waits for the ``late`` powers' orders
    and for someone to take over the ``waiting`` (abandoned) ones. ``you`` is the reader's
    power when it is late (the subject then starts ``[You are late!]``, as njudge's)."""
    assert ctx.deadline is not None
    body = render("all/late", header=ctx.header, game=ctx.game, late=list(late), waiting=list(waiting),
                  signons=[(p, role_letter(ctx, p)) for p in waiting], grace=ctx.when(grace), nmr=nmr,
                  you=you, deadline=ctx.when(ctx.deadline))
    flag = "[You are late!] " if you else ""
    return Rendered(f"{flag}{ctx.subject_prefix} Late Notice: {_letters(ctx, [*late, *waiting])}", body)


def waiting_mail(ctx: GameContext, abandoned: Sequence[str], waiting: Sequence[str]) -> Rendered:
    """At the end of grace in a NoNMR game and every two days after: the ``abandoned`` powers
    (just now) and every power the game ``waiting`` for a takeover."""
    body = render("all/waiting", header=ctx.header, game=ctx.game, abandoned=list(abandoned),
                  waiting=list(waiting), signons=[(p, role_letter(ctx, p)) for p in waiting])
    return Rendered(f"{ctx.subject_prefix} Waiting for Replacements: {_letters(ctx, waiting)}", body)
