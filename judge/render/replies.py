"""Replies to a player's mail: the order reply, the generic wrapper, and the short
sections a command contributes to a reply (signon, observe, preference, wait...).

A reply is the ``::`` header, then each section separated by a blank line, then the
count of errors, then (optionally) ``---- Original message follows:`` and the mail as
received (njudge, Bug91-10). Any error puts `` [Error Flag]`` at the end of the subject.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

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
    ctx: Context, subject: str, sections: Sequence[str], errors: int, *, original: str | None = None,
    acted: bool = False, refused: int | None = None,
) -> Rendered:
    """The reply to one incoming mail: ``sections`` (texts from the ``*_text`` functions)
    under the header, the error count when ``errors`` > 0, and ``original`` echoed. With
    ``acted`` the count says that the ``refused`` lines marked (by default all the errors)
    were not acted on and the rest was, and that lines with errors kept for a later phase
    were kept; without, that none of the mail was."""
    body = render(
        "all/reply.txt.j2",
        header=ctx.header,
        sections=[s.strip("\n") for s in sections if s.strip()],
        errors=errors,
        acted=acted,
        refused=errors if refused is None else refused,
        original=original.rstrip("\n") if original is not None else None,
    )
    return Rendered(reply_subject(ctx, subject, errors), body)


def orders_text(
    ctx: GameContext,
    power: str,
    orders_echo: Sequence[str],
    complete: bool,
    now: datetime,
    *,
    needed: bool = True,
    errors: int = 0,
    missing: int | None = None,
    grace: datetime | None = None,
    at_grace: str = "process",
) -> str:
    """The power's current order set (``Movement orders for Spring of 1901. (g.001)``),
    whether it is complete (and error-free: njudge needs an error-free mail), and the time
    to the deadline and to the end of grace (Bug91-13); past the deadline, that the orders
    are late and what happens when grace ends (``at_grace``: ``process`` or ``abandon``).
    ``needed`` is False for a power with nothing to order in this phase."""
    phase = ctx.phase
    if phase is None:
        raise ValueError("orders_text needs the game's current phase (GameContext.phase)")
    deadline = ctx.deadline
    late = deadline is not None and now >= deadline
    return render(
        "player/orders",
        kind=phase.kind,
        season=ctx.calendar.season_name(phase),
        game=ctx.game,
        seq=ctx.seq,
        power=power,
        echo=list(orders_echo),
        needed=needed,
        complete=complete,
        errors=errors,
        missing=missing,
        deadline=ctx.when(deadline) if deadline else None,
        left=time_left(deadline, now) if deadline else None,
        late=late,
        grace=ctx.when(grace) if grace else None,
        grace_left=time_left(grace, now) if grace and grace > now else None,
        at_grace=at_grace,
    )


def order_lines_text(lines: Sequence[tuple[str, Sequence[str], Sequence[str]]]) -> str:
    """Each order line of a mail (``> a par-bur``) with its errors and warnings under it."""
    return render("player/order_lines", lines=[(t, list(e), list(w)) for t, e, w in lines]).rstrip("\n")


def adjustments_text(power: str, allowed: int, kept: Sequence[str], dropped: Sequence[str]) -> str:
    """More adjustment orders than allowed: which were kept, which dropped."""
    return render("player/adjustments", power=power, allowed=allowed, kept=list(kept),
                  dropped=list(dropped)).rstrip("\n")


def refusal_text(reason: str, action: str, line: str | None, *, game: str = "", status: str = "",
                 allowed: Sequence[str] = (), power: str = "") -> str:
    """A command the table refuses; ``action`` is the command's phrase (``use SET WAIT``,
    ``give orders``); ``power`` the one a master's BECOME acts as; see
    ``templates/player/refused.txt.j2`` for the reasons."""
    return render("player/refused", reason=reason, action=action, line=line, game=game,
                  status=status, allowed=list(allowed), power=power).rstrip("\n")


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


def joined_text(ctx: GameContext, players: int, needed: int, *, again: bool = False) -> str:
    """``SIGNON ?game``: a place taken in a forming game; ``players`` signed on now,
    ``needed`` more to start (0: the game starts). ``again``: the sender had the place
    already (and gave its password)."""
    return render("player/joined.txt.j2", game=ctx.game, players=players, needed=needed, again=again)


def preference_text(preference: str) -> str:
    """``Preference list 'EFRIGAT' set.``"""
    return render("player/preference.txt.j2", preference=preference)


def wait_text(on: bool) -> str:
    """``SET WAIT`` / ``SET NOWAIT`` acknowledged."""
    return render("player/wait.txt.j2", on=on)


def error_text(message: str, line: str | None = None) -> str:
    """A refused command: the line as written (``> ...``) and why."""
    return render("player/error.txt.j2", line=line, message=message)
