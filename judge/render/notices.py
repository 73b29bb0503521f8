"""Mails the judge sends on its own: the game start, a power assigned, game created,
resignations, ejections, pause/resume/terminate, deadline changes, and press.

Every one carries the ``::`` header (design.md: every outgoing mail does), though njudge
left it off some notices.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..engine.map import UNIT_NAMES
from ..engine.phase import KIND_NAMES, Phase
from ..engine.position import Position
from .context import GameContext, Rendered
from .environment import render
from .results import dislodged_list, unit_sort_key
from .summary import Summary, summary_values

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
    vacant: Sequence[str] = (),
) -> Rendered:
    """The game has its players and starts (njudge Bug91-06). ``players`` are
    ``(role, address)`` with role a power, ``Master`` or ``Observer``; ``recipient`` is the
    reader's role, which adds ``You have been selected as <role> in game 'g' of Diplomacy.``;
    ``vacant`` are the powers a FORCE BEGIN left without a player."""
    body = render(
        "all/game_start.txt.j2",
        header=ctx.header_for(position.phase, deadline),
        recipient=recipient,
        game=ctx.game,
        players=list(players),
        season=ctx.calendar.season_name(position.phase),
        groups=position_groups(ctx, position),
        deadline=ctx.when(deadline) if deadline else None,
        vacant=list(vacant),
        letters={p.name: p.letter for p in ctx.m.powers},
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


@dataclass(frozen=True, slots=True)
class PressHeader:
    """The line that heads press: ``author`` the sender's address (None: not shown, as in
    grey press or a gunboat game), ``role`` the sender's power, ``Master`` or ``Observer``
    (None: grey press, no sender named), ``recipients`` the roles it names (None: a
    broadcast)."""

    author: str | None
    role: str | None
    recipients: tuple[str, ...] | None = None

    def values(self) -> dict[str, object]:
        return {"author": self.author, "role": self.role,
                "recipients": list(self.recipients) if self.recipients is not None else None}


def _press_values(ctx: GameContext, body: str, author: str | None, role: str | None,
                  recipients: Sequence[str] | None, truth: PressHeader | None) -> dict[str, object]:
    return {
        "game": ctx.game,
        **PressHeader(author, role, tuple(recipients) if recipients is not None else None).values(),
        "truth": truth.values() if truth is not None else None,
        "text": body.strip("\n"),
    }


def _press_subject(ctx: GameContext, head: PressHeader, what: str = "") -> str:
    kind = what or ("Broadcast" if head.recipients is None else "Press")
    who = f" from {role_letter(ctx, head.role)}" if head.role is not None else ""
    return f"{ctx.subject_prefix} {kind}{who}"


def press_mail(
    ctx: GameContext,
    body: str,
    *,
    author: str | None,
    role: str | None,
    recipients: Sequence[str] | None = None,
    truth: PressHeader | None = None,
) -> Rendered:
    """Press as each reader gets it (Bug91-08). ``author`` is the sender's address, or None
    when it is not shown; ``role`` the sender's power, ``Master`` or ``Observer``, or None
    for grey press; ``recipients`` the roles it is shown as sent to (None: a broadcast).
    ``truth`` makes the master's copy: the real sender and readers head it, and what the
    readers were shown follows."""
    values = _press_values(ctx, body, author, role, recipients, truth)
    text = render("all/press.txt.j2", header=ctx.header, **values)
    shown = PressHeader(author, role, tuple(recipients) if recipients is not None else None)
    return Rendered(_press_subject(ctx, truth or shown), text)


def press_sent_text(
    ctx: GameContext, body: str, *, author: str | None, role: str | None, recipients: Sequence[str] | None = None
) -> str:
    """The reply section confirming press: the message as it went out."""
    return render("player/press_sent.txt.j2", **_press_values(ctx, body, author, role, recipients, None))


def postal_press_mail(ctx: GameContext, done: Phase, messages: Sequence[tuple[PressHeader, str]]) -> Rendered:
    """To everyone, after the results of ``done``: the postal press sent during it
    (njudge ``data/press``: "delayed until after the results ... have been processed")."""
    body = render("all/postal_press", header=ctx.header, game=ctx.game, title=ctx.calendar.phase_title(done),
                  messages=[{**head.values(), "text": text.strip("\n")} for head, text in messages])
    return Rendered(f"{ctx.judge_code}:{ctx.game} - {done.code} Postal Press", body)


def settings_mail(ctx: GameContext, changes: Sequence[str], deadlines: Sequence[str] = ()) -> Rendered:
    """To everyone: every setting and deadline the master changed in one mail (njudge's
    ``Deadline Changed`` when only deadlines moved)."""
    body = render("all/settings_changed", header=ctx.header, game=ctx.game,
                  changes=[c.strip("\n") for c in changes], deadlines=[d.strip("\n") for d in deadlines])
    return Rendered(f"{ctx.subject_prefix} {'Settings' if changes else 'Deadline'} Changed", body)


def notices_mail(ctx: GameContext, parts: Sequence[Rendered]) -> Rendered:
    """One mail for every notice one incoming mail caused a reader (``parts``, in order):
    the header as the game now stands, then each part's text without its own header; the
    subject names each part (``PYJD:game - S1901M Game Resumed, Settings Changed``)."""
    prefix = re.compile(re.escape(f"{ctx.judge_code}:{ctx.game}") + r"(?: - \S+)? ")
    titles = [prefix.sub("", p.subject, count=1) for p in parts]
    body = render("all/notices", header=ctx.header, parts=[_without_header(p.body) for p in parts])
    return Rendered(f"{ctx.subject_prefix} {', '.join(dict.fromkeys(titles))}", body)


def _without_header(body: str) -> str:
    """A mail's text without its ``::`` header lines and the blank lines after them."""
    lines = body.split("\n")
    start = 0
    while start < len(lines) and lines[start].startswith("::"):
        start += 1
    while start < len(lines) and not lines[start].strip():
        start += 1
    return "\n".join(lines[start:]).rstrip("\n")


#: How a game ends (``Game.ending``), and the subject of its final mail.
ENDINGS = {"victory": "Game Over", "draw": "Draw Declared", "concession": "Concession",
           "terminated": "Game Terminated"}


def game_end_mail(ctx: GameContext, how: str, powers: Sequence[str], summary: Summary, during: Phase, *,
                  dias: bool = True, unvoted: Sequence[str] = ()) -> Rendered:
    """To everyone: the game is over (``how`` is ``victory``, ``draw``, ``concession`` or
    ``terminated``; ``powers`` won or drew) ``during`` that phase, and its summary; ``unvoted``:
    the survivors the judge's bot played, which had no vote. The subject names that phase
    (``PYJD:game - F1907M Game Over``)."""
    if how not in ENDINGS:
        raise ValueError(f"how must be one of {tuple(ENDINGS)}, not {how!r}")
    body = render("all/game_end", header=ctx.header_for(None, None), how=how, winners=list(powers), dias=dias,
                  unvoted=list(unvoted),
                  title=ctx.calendar.long_name(during), **summary_values(ctx, summary))
    return Rendered(f"{ctx.judge_code}:{ctx.game} - {during.code} {ENDINGS[how]}", body)


def diaries_mail(ctx: GameContext, during: Phase, diaries: Sequence[tuple[str, Sequence[tuple[int, datetime, str]]]]
                 ) -> Rendered:
    """To everyone, after the final mail: the diaries the players kept (njudge ``DIARY``),
    each under its power's name: ``(power, [(number, written, text)])``."""
    shown = [(power, [(n, ctx.when(at), text) for n, at, text in entries]) for power, entries in diaries]
    body = render("all/diaries", header=ctx.header_for(None, None), game=ctx.game, diaries=shown)
    return Rendered(f"{ctx.judge_code}:{ctx.game} - {during.code} Diaries", body)


def rolled_back_mail(ctx: GameContext, seq: int, withdrawn: Sequence[str], position: Position, *,
                     resumed: bool, restored: Sequence[str]) -> Rendered:
    """To everyone: the master rolled the game back to before turn ``seq``; the results of
    the ``withdrawn`` phases no longer count (``resumed``: the game had ended and goes on);
    the orders of the ``restored`` powers stand again; the position and the new deadline."""
    assert ctx.phase is not None
    body = render("all/rolled_back", header=ctx.header, game=ctx.game, seq=seq, withdrawn=list(withdrawn),
                  resumed=resumed, restored=list(restored), kind_name=KIND_NAMES[ctx.phase.kind],
                  season=ctx.calendar.season_name(ctx.phase),
                  groups=position_groups(ctx, position), dislodged=dislodged_list(ctx.m, position.dislodged.values()),
                  deadline=ctx.when(ctx.deadline) if ctx.deadline else None)
    return Rendered(f"{ctx.subject_prefix} Rollback", body)


def unstarted_mail(ctx: GameContext, players: int, powers: int) -> Rendered:
    """To everyone: the master returned the game to forming (UNSTART); ``players`` of the
    ``powers`` places are taken."""
    body = render("all/unstarted", header=ctx.header, game=ctx.game, players=players, powers=powers)
    return Rendered(f"{ctx.subject_prefix} Game Unstarted", body)


def promoted_mail(ctx: GameContext, address: str, by: str) -> Rendered:
    """To the masters and the one promoted: an observer became a master of the game."""
    body = render("master/promoted", header=ctx.header, game=ctx.game, address=address, by=by)
    return Rendered(f"{ctx.subject_prefix} Master Promoted", body)


def takeover_mail(ctx: GameContext, power: str, address: str | None, *, returned: bool,
                  deadline: str | None, grace: str | None, wait_set: bool = False) -> Rendered:
    """To the others: ``power`` was taken over (by ``address`` when it may be shown) or its
    player returned; the deadline and grace when they were set again, and whether a wait was
    placed on every active player (njudge)."""
    body = render("all/takeover", header=ctx.header, game=ctx.game, power=power, address=address,
                  returned=returned, deadline=deadline, grace=grace, wait_set=wait_set)
    what = "player returned as" if returned else "Takeover of"
    return Rendered(f"{ctx.subject_prefix} {what} {power}", body)


def future_orders_mail(ctx: GameContext, power: str, *, applied: bool, sections: Sequence[str],
                       dropped: Sequence[str], errors: int) -> Rendered:
    """To a player when a phase starts: the orders they entered in advance for it, as they
    read now (``sections``: the order lines with their errors, the power's whole set), and
    the phases whose orders were dropped because those phases did not come (njudge
    ``data/syntax``: "That error list will be mailed to you")."""
    body = render("player/future_applied", header=ctx.header, game=ctx.game, power=power, applied=applied,
                  title=ctx.calendar.phase_title(ctx.phase) if ctx.phase else "", sections=list(sections),
                  dropped=list(dropped), errors=errors)
    flag = " [Error Flag]" if errors else ""
    return Rendered(f"{ctx.subject_prefix} Orders Entered in Advance: {power}{flag}", body)


def absence_mail(ctx: GameContext, who: str, address: str, starts: datetime, ends: datetime, *,
                 cancelled: bool, refused: str | None = None) -> Rendered:
    """To the master: ``who`` (a power) at ``address`` declared, cancelled or asked for (over
    the game's limit: ``refused`` says why) an absence."""
    body = render("master/absence", header=ctx.header, game=ctx.game, who=who, address=address,
                  starts=ctx.when(starts), ends=ctx.when(ends), cancelled=cancelled, refused=refused)
    what = "Absence Cancelled" if cancelled else "Absence Request" if refused else "Absence"
    return Rendered(f"{ctx.subject_prefix} {what}: {who}", body)


def member_changed_mail(ctx: GameContext, who: str, address: str, old: str) -> Rendered:
    """To the master: a member's mail for the game now goes to ``address`` (SET ADDRESS)."""
    body = render("master/member_changed", header=ctx.header, game=ctx.game, who=who, address=address, old=old)
    return Rendered(f"{ctx.subject_prefix} Address Changed: {who}", body)
