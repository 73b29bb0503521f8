"""Mails the judge sends on its own: the game start, a power assigned, game created,
resignations, ejections, pause/resume/terminate, deadline changes, and press.

Every one carries the ``::`` header (design.md: every outgoing mail does), though njudge
left it off some notices.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..engine.map import UNIT_NAMES
from ..engine.position import Position
from .context import GameContext, Rendered
from .environment import render
from .results import unit_sort_key

#: Signon letters of the roles that are not powers.
ROLE_LETTERS = {"master": "M", "observer": "O"}


def position_groups(ctx: GameContext, position: Position) -> list[list[tuple[str, str, str]]]:
    """Per power in map order, its units as ``(power, "Army", "Vienna")``, armies first."""
    groups = []
    for pw in ctx.m.powers:
        units = sorted(position.units_of(pw.name), key=lambda u: unit_sort_key(ctx.m, u))
        if units:
            groups.append([(pw.name, UNIT_NAMES[u.type], ctx.m.location_name(u.location)) for u in units])
    return groups


def role_letter(ctx: GameContext, role: str) -> str:
    """``F`` for France, ``M`` for the Master: the letter of a signon (``SIGNON Fgame``)."""
    if role.lower() in ROLE_LETTERS:
        return ROLE_LETTERS[role.lower()]
    found = ctx.m.find_power(role)
    return found.letter if found is not None else role[:1].upper()


def game_start_mail(
    ctx: GameContext,
    position: Position,
    deadline: datetime | None,
    players: Sequence[tuple[str, str]],
    *,
    recipient: str | None = None,
) -> Rendered:
    """The game has its players and starts (njudge Bug91-06). ``players`` are
    ``(role, address)`` with role a power, ``Master`` or ``Observer``; ``recipient`` is the
    reader's role, which adds ``You have been selected as <role> in game 'g' of Diplomacy.``"""
    body = render(
        "all/game_start.txt.j2",
        header=ctx.header_for(position.phase, deadline),
        recipient=recipient,
        game=ctx.game,
        players=list(players),
        season=ctx.calendar.season_name(position.phase),
        groups=position_groups(ctx, position),
        deadline=ctx.when(deadline) if deadline else None,
    )
    return Rendered(f"{ctx.judge_code}:{ctx.game} - {position.phase.code} Game Starting", body)


def selected_mail(
    ctx: GameContext, power: str, password_hint: str | None, position: Position, deadline: datetime | None
) -> Rendered:
    """A power given to a player after the start (a replacement, a takeover): the power,
    how to sign on, the current position and the deadline."""
    body = render(
        "player/selected.txt.j2",
        header=ctx.header_for(position.phase, deadline),
        power=power,
        letter=role_letter(ctx, power),
        game=ctx.game,
        password_hint=password_hint,
        title=ctx.calendar.phase_title(position.phase),
        groups=position_groups(ctx, position),
        deadline=ctx.when(deadline) if deadline else None,
    )
    return Rendered(f"{ctx.judge_code}:{ctx.game} - {position.phase.code} Power Assignment: {power}", body)


def resign_mail(ctx: GameContext, address: str, powers: Sequence[str]) -> Rendered:
    """To everyone: ``address`` resigned the ``powers`` (njudge Bug91-13)."""
    body = render("all/resign.txt.j2", header=ctx.header, game=ctx.game, address=address, powers=list(powers))
    return Rendered(f"{ctx.subject_prefix} Resignation: {', '.join(powers)}", body)


def eject_mail(ctx: GameContext, address: str, powers: Sequence[str]) -> Rendered:
    """To everyone: the master removed ``address`` from the ``powers``."""
    body = render("all/eject.txt.j2", header=ctx.header, game=ctx.game, address=address, powers=list(powers))
    return Rendered(f"{ctx.subject_prefix} Ejection: {', '.join(powers)}", body)


GAME_STATES = ("paused", "resumed", "terminated")


def game_state_mail(ctx: GameContext, change: str, reason: str = "") -> Rendered:
    """To everyone: the game was ``paused``, ``resumed`` or ``terminated``."""
    if change not in GAME_STATES:
        raise ValueError(f"change must be one of {GAME_STATES}, not {change!r}")
    body = render(
        "all/game_state.txt.j2",
        header=ctx.header,
        game=ctx.game,
        change=change,
        reason=reason.strip(),
        deadline=ctx.when(ctx.deadline) if ctx.deadline else None,
    )
    return Rendered(f"{ctx.subject_prefix} Game {change.capitalize()}", body)


def deadline_changed_mail(
    ctx: GameContext, deadline: datetime, grace: datetime | None = None, *, wait_set: bool = False
) -> Rendered:
    """To everyone: the deadline (and grace) of the current phase moved (Bug91-14)."""
    body = render(
        "all/deadline_changed.txt.j2",
        header=ctx.header_for(ctx.phase, deadline),
        game=ctx.game,
        deadline=ctx.when(deadline),
        grace=ctx.when(grace) if grace else None,
        wait_set=wait_set,
    )
    return Rendered(f"{ctx.subject_prefix} Deadline Changed", body)


def _press_values(
    ctx: GameContext, body: str, author: str | None, role: str, recipients: Sequence[str] | None
) -> dict[str, object]:
    return {
        "game": ctx.game,
        "author": author,
        "role": role,
        "recipients": list(recipients) if recipients is not None else None,
        "text": body.strip("\n"),
    }


def press_mail(
    ctx: GameContext,
    body: str,
    *,
    author: str | None,
    role: str,
    recipients: Sequence[str] | None = None,
) -> Rendered:
    """Press as each reader gets it (Bug91-08). ``author`` is the sender's address, or None
    when the press is anonymous; ``role`` the sender's power or ``Master``; ``recipients``
    the powers it goes to (None: a broadcast to everyone)."""
    text = render("all/press.txt.j2", header=ctx.header, **_press_values(ctx, body, author, role, recipients))
    kind = "Broadcast" if recipients is None else "Press"
    who = f" from {role_letter(ctx, role)}" if author is not None else ""
    return Rendered(f"{ctx.subject_prefix} {kind}{who}", text)


def press_sent_text(
    ctx: GameContext, body: str, *, author: str | None, role: str, recipients: Sequence[str] | None = None
) -> str:
    """The reply section confirming press: the message as it went out."""
    return render("player/press_sent.txt.j2", **_press_values(ctx, body, author, role, recipients))


def settings_mail(ctx: GameContext, changes: Sequence[str]) -> Rendered:
    """To everyone: the settings the master changed in one mail, all of them."""
    body = render("all/settings_changed", header=ctx.header, game=ctx.game,
                  changes=[c.strip("\n") for c in changes])
    return Rendered(f"{ctx.subject_prefix} Settings Changed", body)


def draw_mail(ctx: GameContext, powers: Sequence[str]) -> Rendered:
    """To everyone: the game ended in a draw of ``powers`` (every survivor voted for it)."""
    assert ctx.phase is not None
    body = render("all/draw_declared", header=ctx.header, powers=list(powers),
                  title=ctx.calendar.phase_title(ctx.phase))
    return Rendered(f"{ctx.subject_prefix} Draw Declared", body)


def takeover_mail(ctx: GameContext, power: str, address: str | None, *, returned: bool,
                  deadline: str | None, grace: str | None, wait_set: bool = False) -> Rendered:
    """To the others: ``power`` was taken over (by ``address`` when it may be shown) or its
    player returned; the deadline and grace when they were set again, and whether a wait was
    placed on every active player (njudge)."""
    body = render("all/takeover", header=ctx.header, game=ctx.game, power=power, address=address,
                  returned=returned, deadline=deadline, grace=grace, wait_set=wait_set)
    what = "player returned as" if returned else "Takeover of"
    return Rendered(f"{ctx.subject_prefix} {what} {power}", body)
