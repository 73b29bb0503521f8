"""Answers to the asking commands: LIST, LIST game, SUMMARY, HISTORY, HELP and GET."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import format_datetime

from ..engine.phase import KIND_NAMES, Phase
from ..engine.position import Position
from ..engine.results import Tally
from .context import Context, GameContext, JudgeContext, Rendered
from .environment import render, templates_dir
from .notices import position_groups
from .replies import reply_mail
from .results import count_lines, dislodged_list, ownership


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game in the ``LIST`` of all games: with ``LIST FULL``, its ``people`` as
    ``(role, address)``; ``openings`` are its abandoned powers, open for takeover."""

    name: str
    variant: str
    phase: str | None
    status: str
    players: int
    needed: int = 0
    people: Sequence[tuple[str, str]] = ()
    openings: Sequence[str] = ()


@dataclass(frozen=True, slots=True)
class Member:
    """One member of a game for ``WHOGAME``: the role (a power, ``Master``, ``Observer``),
    the address as the reader may see it, when they joined, and the deadlines a player
    missed (None for others)."""

    role: str
    address: str
    joined: datetime
    missed: int | None = None


@dataclass(frozen=True, slots=True)
class Listing:
    """What ``LIST game`` shows besides the context (Bug91-11).

    ``parameters`` are ``(name, value)`` rows (``("Press", "White, Partial Allowed")``);
    ``players`` are ``(role, status, address)`` rows (status such as ``move``, ``open``,
    ``""``); ``missed`` how many deadlines each power's player has missed (njudge's late
    count, printed after the status); ``dedication`` each player's dedication on the judge
    (by address, njudge's column); ``ratings`` each player's skill rating as printed (by
    address; empty where the reader may not see who plays, a gunboat game); ``waiting`` the powers that still owe orders; ``vacant``
    the abandoned powers open for takeover; ``earliest`` when the phase may be processed at
    the earliest (njudge's "The earliest orders will be processed"); ``clocks`` the lines of
    the game's clock per phase kind (``Move    clock 1410 min 12.00 ...``); ``tally`` the
    engine's count of each power's centres and units (:func:`judge.engine.adjustments.tally`)
    for the count table. ``position`` is None while the game is forming."""

    position: Position | None
    deadline: datetime | None = None
    grace: datetime | None = None
    parameters: Sequence[tuple[str, str]] = ()
    players: Sequence[tuple[str, str, str]] = ()
    waiting: Sequence[str] = field(default_factory=tuple)
    missed: Mapping[str, int] = field(default_factory=dict)
    ended: str | None = None
    orders: Sequence[PowerOrders] | None = None
    at_grace: str = "process"
    dedication: Mapping[str, int] = field(default_factory=dict)
    ratings: Mapping[str, str] = field(default_factory=dict)
    vacant: Sequence[str] = ()
    earliest: datetime | None = None
    tally: Sequence[Tally] = ()
    clocks: Sequence[str] = ()


@dataclass(frozen=True, slots=True)
class PowerOrders:
    """One power's orders as the master sees them: complete or not, whether its last order
    mail had errors, and the order lines (``Army Paris -> Burgundy.``)."""

    power: str
    complete: bool
    errors: bool
    echo: Sequence[str]


def list_text(games: Sequence[GameLine], *, full: bool = False) -> str:
    """``LIST``: one line per game; ``LIST FULL``: each with its players."""
    return render("player/list.txt.j2", games=list(games), full=full)


def who_game_text(ctx: GameContext, members: Sequence[Member], *, full: bool = False) -> str:
    """``WHOGAME``: the game's masters and players (and observers with FULL)."""
    return render("player/whogame", game=ctx.game, full=full,
                  members=[(m.role, m.address, ctx.when(m.joined), m.missed) for m in members])


def game_list_text(ctx: GameContext, listing: Listing) -> str:
    """``LIST game``: deadlines, parameters, players, the phase's units, centres; for the
    master, every power's orders."""
    pos = listing.position
    owned, unowned = ownership(ctx.m, pos) if pos is not None else ([], [])
    text = render(
        "player/game_list.txt.j2",
        game=ctx.game,
        seq=ctx.seq,
        phase=pos.phase.code if pos is not None else None,
        title=ctx.calendar.phase_title(pos.phase) if pos is not None else None,
        kind_name=KIND_NAMES[pos.phase.kind] if pos is not None else None,
        season=ctx.calendar.season_name(pos.phase) if pos is not None else None,
        deadline=ctx.when(listing.deadline) if listing.deadline else None,
        grace=ctx.when(listing.grace) if listing.grace else None,
        variant=ctx.variant,
        parameters=list(listing.parameters),
        players=list(listing.players),
        missed=dict(listing.missed),
        waiting=list(listing.waiting),
        groups=position_groups(ctx, pos) if pos is not None else [],
        dislodged=dislodged_list(ctx.m, pos.dislodged.values()) if pos is not None else [],
        ownership=owned,
        unowned=unowned,
        counts=count_lines(listing.tally) if pos is not None else [],
        ended=listing.ended,
        at_grace=listing.at_grace,
        dedication=dict(listing.dedication),
        ratings=dict(listing.ratings),
        vacant=list(listing.vacant),
        earliest=ctx.when(listing.earliest) if listing.earliest else None,
        clocks=list(listing.clocks),
    )
    if listing.orders is not None and pos is not None:
        text = text.rstrip("\n") + "\n\n" + power_orders_text(ctx, pos.phase, listing.orders) + "\n"
    return text


def power_orders_text(ctx: GameContext, phase: Phase, powers: Sequence[PowerOrders]) -> str:
    """Every power's orders and their state, for the master (Bug91-08)."""
    return render("master/power_orders", kind=phase.kind, kind_name=KIND_NAMES[phase.kind],
                  season=ctx.calendar.season_name(phase), game=ctx.game, seq=ctx.seq, powers=list(powers),
                  required={"M": "Move", "R": "Retreat"}.get(phase.kind, "Adjustment")).rstrip("\n")


_DATE_LINE = re.compile(r"^Date:", re.MULTILINE)


def history_text(ctx: GameContext,
                 archived: Sequence[tuple[datetime | str, str, str] | tuple[datetime | str, str, str, datetime | None]]
                 ) -> str:
    """``HISTORY``: each archived mail as a ``Date:`` line, at once the ``Subject:`` line,
    a blank line and the body (mapper-compat item 2). A body line starting with ``Date:``
    (press quoting a mail) gets a ``>`` in front, as mbox quotes ``From``: a mapper would
    read it, with a ``Subject: ... Results`` line after it, as another archived result. A
    mail withdrawn by a rollback (a fourth item: when) says so in its subject and has every
    line quoted, so that no mapper takes it for a result."""
    entries = []
    for item in archived:
        date, subject, body = item[0], item[1], item[2]
        withdrawn = item[3] if len(item) > 3 else None
        when = format_datetime(date.astimezone(ctx.tz)) if isinstance(date, datetime) else date
        body = _DATE_LINE.sub(">Date:", body.strip("\n"))
        if withdrawn is not None:
            subject = subject.removesuffix(" Results") + " (withdrawn)"
            body = "\n".join(f"> {line}".rstrip() for line in body.splitlines())
        entries.append((when, subject, body, ctx.when(withdrawn) if withdrawn is not None else None))
    return render("player/history.txt.j2", game=ctx.game, entries=entries)


class HelpTopicError(LookupError):
    """``GET`` of a file the judge does not have; the message lists the files."""

    def __init__(self, topic: str) -> None:
        self.topic = topic
        super().__init__(
            f"There is no help file called '{topic}'.  The files are: {', '.join(help_topics())}.\n"
            "Send 'GET index' for the list of commands."
        )


_TOPIC = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
#: Names njudge gives files that this judge keeps in another one (njudge ``data/index``
#: sends a Colonial player to 'info.colonial').
ALIASES = {"info.colonial": "variants", "info.oceania": "variants", "help": "index", "set": "index"}


def help_topics() -> list[str]:
    """The names ``GET`` accepts (the files of ``templates/help/``)."""
    return sorted(p.name.removesuffix(".txt") for p in (templates_dir() / "help").glob("*.txt"))


def help_text(topic: str | None = None) -> str:
    """The help file ``topic`` (``HELP`` alone: ``index``). Raises :class:`HelpTopicError`."""
    name = (topic or "index").strip().lower()
    name = ALIASES.get(name, name)
    path = templates_dir() / "help" / f"{name}.txt"
    if not _TOPIC.match(name) or not path.is_file():
        raise HelpTopicError(name)
    return path.read_text(encoding="utf-8")


# -- whole replies ------------------------------------------------------------------


def help_mail(judge: Context | JudgeContext, topic: str | None = None) -> Rendered:
    """The help file as a reply; an unknown topic gives an ``[Error Flag]`` reply."""
    try:
        return reply_mail(judge, "", [help_text(topic)], 0)
    except HelpTopicError as exc:
        return reply_mail(judge, "", [str(exc)], 1)
