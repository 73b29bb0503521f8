"""Replies to a player's mail: the order reply, the generic wrapper, and the short
sections a command contributes to a reply (signon, observe, preference, wait...).

A reply is the ``::`` header, then each section separated by a blank line, then the
count of errors, then (optionally) ``---- Original message follows:`` and the mail as
received (njudge, Bug91-10). Any error puts `` [Error Flag]`` at the end of the subject.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..engine.phase import Phase
from .context import Context, GameContext, Rendered
from .environment import render
from .formats import time_left


def reply_subject(ctx: Context, subject: str = "", errors: int = 0) -> str:
    """``Re: PYJD:game - S1901M`` (or ``Re: PYJD``), then ``subject``, then the flag."""
    text = f"Re: {ctx.subject_prefix}"
    if subject:
        text += f" {subject}"
    if errors:
        text += " [Error Flag]"
    return text


def reply_mail(
    ctx: Context, subject: str, sections: Sequence[str], errors: int, *, original: str | None = None
) -> Rendered:
    """The reply to one incoming mail: ``sections`` (texts from the ``*_text`` functions)
    under the header, the error count when ``errors`` > 0, and ``original`` echoed."""
    body = render(
        "all/reply.txt.j2",
        header=ctx.header,
        sections=[s.strip("\n") for s in sections if s.strip()],
        errors=errors,
        original=original.rstrip("\n") if original is not None else None,
    )
    return Rendered(reply_subject(ctx, subject, errors), body)


def orders_text(
    ctx: GameContext,
    power: str,
    orders_echo: Sequence[str],
    complete: bool,
    deadline: datetime | None,
    now: datetime,
    *,
    missing: int | None = None,
    phase: Phase | None = None,
) -> str:
    """The power's current order set (``Movement orders for Spring of 1901. (g.001)``),
    whether it is complete, and the time left to the deadline."""
    phase = phase or ctx.phase
    if phase is None:
        raise ValueError("orders_text needs the game's current phase (GameContext.phase)")
    return render(
        "player/orders.txt.j2",
        kind=phase.kind,
        season=ctx.calendar.season_name(phase),
        game=ctx.game,
        seq=ctx.seq,
        power=power,
        echo=list(orders_echo),
        complete=complete,
        missing=missing,
        deadline=ctx.when(deadline) if deadline else None,
        left=time_left(deadline, now) if deadline else None,
    )


def order_reply(
    ctx: GameContext,
    power: str,
    lines: Sequence[tuple[str, str | None]],
    orders_echo: Sequence[str],
    complete: bool,
    deadline: datetime | None,
    now: datetime,
    *,
    missing: int | None = None,
    before: Sequence[str] = (),
    original: str | None = None,
) -> Rendered:
    """The reply to a mail with orders: each order line echoed (``> a par-bur``), each
    refused one followed by its message; then the power's whole order set
    (:func:`orders_text`). ``before`` are sections of other commands in the same mail
    (e.g. :func:`signon_text`), printed first."""
    errors = sum(1 for _, err in lines if err)
    echo = render("player/order_lines.txt.j2", lines=list(lines)) if lines else ""
    orders = orders_text(ctx, power, orders_echo, complete, deadline, now, missing=missing)
    return reply_mail(ctx, "", [*before, echo, orders], errors, original=original)


# -- short sections ------------------------------------------------------------------


def wrong_password_text() -> str:
    """``Invalid password or power ID specified.``"""
    return render("player/wrong_password.txt.j2")


def signon_text(ctx: GameContext, power: str) -> str:
    """Signed on as ``power`` (or ``Master``)."""
    return render("player/signon.txt.j2", power=power, game=ctx.game)


def observe_text(ctx: GameContext) -> str:
    """Now observing the game."""
    return render("player/observe.txt.j2", game=ctx.game)


def joined_text(ctx: GameContext, players: int, needed: int) -> str:
    """``SIGNON ?game``: a place taken in a forming game; ``players`` signed on now,
    ``needed`` more to start (0: the game starts)."""
    return render("player/joined.txt.j2", game=ctx.game, players=players, needed=needed)


def preference_text(preference: str) -> str:
    """``Preference list 'EFRIGAT' set.``"""
    return render("player/preference.txt.j2", preference=preference)


def wait_text(on: bool) -> str:
    """``SET WAIT`` / ``SET NOWAIT`` acknowledged."""
    return render("player/wait.txt.j2", on=on)


def error_text(message: str, line: str | None = None) -> str:
    """A refused command: the line as written (``> ...``) and why."""
    return render("player/error.txt.j2", line=line, message=message)
