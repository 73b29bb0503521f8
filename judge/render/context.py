"""What every text needs to know about the judge and the game, and what a render returns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo

from ..engine.calendar import STANDARD_CALENDAR, Calendar
from ..engine.map import Map
from ..engine.phase import Phase
from . import formats


@dataclass(frozen=True, slots=True)
class Rendered:
    """One mail's text: its subject line and its body."""

    subject: str
    body: str


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeContext:
    """The judge alone, for replies not tied to a game (``Re: PYJD``)."""

    judge_code: str
    judge_address: str

    @property
    def header(self) -> str:
        """The ``:: Judge:`` header line (no final newline)."""
        return f":: Judge: {self.judge_code}"

    @property
    def subject_prefix(self) -> str:
        return self.judge_code


@dataclass(frozen=True, slots=True, kw_only=True)
class GameContext:
    """One game as its mails describe it.

    ``phase``, ``deadline`` and ``seq`` are the game's current phase, that phase's deadline
    and its number (``dt.001``); replies print them in the ``:: Deadline:`` header and the
    "orders for" line. A result mail takes the next phase and deadline from its arguments.
    ``tz`` is the zone of the mail's readers (``judge.game.zones``).
    """

    judge_code: str
    judge_address: str
    game: str
    m: Map
    tz: tzinfo
    calendar: Calendar = STANDARD_CALENDAR
    variant_title: str | None = None
    options_text: str = ""
    phase: Phase | None = None
    deadline: datetime | None = None
    seq: int = 1

    @property
    def variant(self) -> str:
        """``Standard`` or ``Standard Gunboat``: the variant name first (mapper-compat 1)."""
        title = self.variant_title or self.m.title
        return f"{title} {self.options_text}".strip()

    def header_for(self, phase: Phase | None, deadline: datetime | None) -> str:
        """The ``:: Judge:`` and (with a deadline) ``:: Deadline:`` lines (no final newline).
        The deadline line ends in two spaces, as njudge writes it."""
        text = f":: Judge: {self.judge_code}  Game: {formats.title_game(self.game)}  Variant: {self.variant}"
        if phase is not None and deadline is not None:
            text += f"\n:: Deadline: {phase.code} {formats.format_deadline(deadline, self.tz)}  "
        return text

    @property
    def header(self) -> str:
        return self.header_for(self.phase, self.deadline)

    @property
    def subject_prefix(self) -> str:
        """``PYJD:game - S1901M`` (``PYJD:game`` before the game has a phase)."""
        base = f"{self.judge_code}:{self.game}"
        return f"{base} - {self.phase.code}" if self.phase is not None else base

    def when(self, dt: datetime) -> str:
        """A time in the reader's zone, in the classic form with the zone's name
        (:func:`judge.render.formats.format_when`); the ``:: Deadline:`` header keeps the
        classic form alone, for the mapping tools."""
        return formats.format_when(dt, self.tz)


Context = GameContext | JudgeContext
