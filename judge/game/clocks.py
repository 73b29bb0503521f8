"""A game's deadline settings per phase kind, as njudge's ``data/deadlines`` names them.

``Move clock 1410 min 12 next 71 grace 167 delay 0.5 days -MTWTF-`` is one :class:`Clock`:

- ``next``: hours from the moment a phase starts to its deadline (before ``clock`` and
  ``days`` push it later);
- ``clock``: minutes past midnight (in the game's time zone) the deadline is set to, or
  ``None`` (njudge's ``-1``) to keep the exact ``next`` hours;
- ``min``: the fewest hours a phase lasts;
- ``grace``: hours after the deadline the judge waits for late orders;
- ``delay``: hours between the last required orders arriving and the phase being processed,
  so that a player can still change their mind;
- ``days``: the weekdays a deadline may fall on, Sunday first (``-MTWTF-``: a dash means
  never on that day, a lower-case letter means only after noon).

A game stores its three clocks as JSON (``Game.clocks``, keyed ``M``, ``R``, ``B``); the
defaults are njudge's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any

from .. import render
from .errors import GameError

KINDS = ("M", "R", "B")
KIND_WORDS = {"M": "Move", "R": "Retreat", "B": "Adjust"}
DAY_LETTERS = "SMTWTFS"
NOON = time(12, 0)


class ClockError(GameError):
    """A clock setting that cannot be read; the message is for the master."""


@dataclass(frozen=True, slots=True)
class Clock:
    """The deadline settings of one phase kind (see the module docstring)."""

    next: float
    clock: int | None
    min: float
    grace: float
    delay: float
    days: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], default: Clock) -> Clock:
        """The clock ``data`` stores; missing fields take ``default``'s values."""
        known = {k: data[k] for k in asdict(default) if k in data}
        return replace(default, **known)

    def describe(self) -> str:
        """njudge's line: ``clock 1410 min 12 next 71 grace 167 delay 0.5 days -MTWTF-``."""
        clock = -1 if self.clock is None else self.clock
        return (f"clock {clock:4d} min {self.min:5.2f} next {self.next:6.2f} grace {self.grace:6.2f} "
                f"delay {self.delay:4.2f} days {self.days}")


DEFAULT_CLOCKS: dict[str, Clock] = {
    "M": Clock(next=71.0, clock=1410, min=12.0, grace=167.0, delay=0.5, days="-MTWTF-"),
    "R": Clock(next=23.0, clock=None, min=0.0, grace=71.0, delay=0.5, days="-MTWTF-"),
    "B": Clock(next=23.0, clock=None, min=0.0, grace=71.0, delay=0.5, days="-MTWTF-"),
}


def clocks_of(data: Mapping[str, Any] | None, defaults: Mapping[str, Clock] = DEFAULT_CLOCKS) -> dict[str, Clock]:
    """The three clocks a game's ``clocks`` column stores, defaults filled in."""
    data = data or {}
    return {k: Clock.from_json(data.get(k) or {}, defaults[k]) for k in KINDS}


def clocks_to_json(clocks: Mapping[str, Clock]) -> dict[str, dict[str, Any]]:
    return {k: clocks[k].to_json() for k in KINDS}


_FIELDS = {"NEXT": "next", "MIN": "min", "GRACE": "grace", "DELAY": "delay", "CLOCK": "clock", "DAYS": "days"}
_HOURS = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)?\.?$", re.IGNORECASE)
_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")
MAX_HOURS = 2160.0  # 90 days


def read_hours(text: str) -> float | None:
    """``48``, ``48h``, ``1.5 hours`` -> hours; None if ``text`` is not such a number."""
    m = _HOURS.match(text.strip())
    return float(m.group(1)) if m else None


def read_clock(text: str, clock: Clock) -> Clock:
    """njudge's ``[NEXT] h [CLOCK hh:mm] [MIN h] [GRACE h] [DELAY h] [DAYS -MTWTF-]`` (a bare
    number is NEXT; ``CLOCK -1`` or ``NONE`` drops the clock time) applied to ``clock``;
    raises :class:`ClockError`."""
    words = text.replace("=", " ").split()
    if not words:
        raise ClockError(render.refusal("clock_settings_missing"))
    changes: dict[str, Any] = {}
    key = "next"
    for word in words:
        upper = word.upper()
        if upper in _FIELDS:
            key = _FIELDS[upper]
            continue
        if key == "days":
            changes["days"] = check_days(word)
        elif key == "clock":
            changes["clock"] = _clock_time(word)
        else:
            value = read_hours(word)
            if value is None:
                raise ClockError(render.refusal("clock_setting_unreadable", word=word))
            if value > MAX_HOURS or (key == "next" and value <= 0):
                most = f"{MAX_HOURS:g}"
                raise ClockError(render.refusal("clock_next_out_of_range", most=most) if key == "next"
                                 else render.refusal("clock_setting_too_long", setting=key.upper(), most=most))
            changes[key] = value
    return replace(clock, **changes)


def _clock_time(word: str) -> int | None:
    """``23:30`` or ``1410`` (minutes past midnight) -> minutes; ``-1``/``NONE`` -> None."""
    if word.upper() in ("-1", "NONE", "OFF"):
        return None
    m = _TIME.match(word)
    if m and int(m.group(1)) < 24 and int(m.group(2)) < 60:
        return int(m.group(1)) * 60 + int(m.group(2))
    if word.isdigit() and int(word) < 1440:
        return int(word)
    raise ClockError(render.refusal("clock_time_unreadable", word=word))


def default_clocks(settings: Mapping[str, str]) -> dict[str, Clock]:
    """njudge's defaults changed by the judgekeeper's settings (``{"M": "delay 0"}``: the
    ``[clocks]`` section of the configuration, keyed by phase kind)."""
    clocks = dict(DEFAULT_CLOCKS)
    for kind, text in settings.items():
        clocks[kind] = read_clock(text, clocks[kind])
    return clocks


def check_days(days: str) -> str:
    """``days`` if it is seven letters or dashes matching ``SMTWTFS`` (any case)."""
    if len(days) != 7 or any(c != "-" and c.upper() != DAY_LETTERS[i] for i, c in enumerate(days)):
        raise ClockError(render.refusal("clock_days_unreadable", days=days))
    if days == "-------":
        raise ClockError(render.refusal("clock_days_none"))
    return days


def _allowed(days: str, when: datetime) -> bool:
    """Whether ``days`` lets a deadline fall at the local time ``when``."""
    letter = days[(when.weekday() + 1) % 7]
    if letter == "-":
        return False
    return not (letter.islower() and when.time() < NOON)


def _fit(days: str, when: datetime, at: time | None) -> datetime:
    """The first local moment not before ``when`` that ``days`` allows: at ``at`` (or at
    ``when``'s time of day) on the first allowed day, after noon on a lower-case day."""
    tz = when.tzinfo
    assert tz is not None
    for step in range(15):
        day = when.date() + timedelta(days=step)
        wall = at or when.time().replace(microsecond=0)
        candidate = datetime.combine(day, wall, tz)
        if days[(day.weekday() + 1) % 7].islower() and candidate.time() < NOON:
            candidate = datetime.combine(day, NOON, tz)
        if candidate >= when and _allowed(days, candidate):
            return candidate
    raise ClockError(render.refusal("clock_no_day"))  # check_days refuses such settings


def deadline_after(clock: Clock, start: datetime, tz: tzinfo, *, not_before: datetime | None = None) -> datetime:
    """The deadline of a phase starting at ``start`` (aware), as njudge sets it: ``next``
    hours on, at least ``min`` hours, moved to the ``clock`` time and an allowed day in the
    game's zone ``tz`` (wall-clock time, so 23:30 stays 23:30 across a daylight-saving
    change), never before ``not_before``. Whole seconds, in UTC."""
    earliest = start + timedelta(hours=max(clock.next, clock.min))
    if not_before is not None and not_before > earliest:
        earliest = not_before
    return fit_deadline(clock, earliest, tz)


def fit_deadline(clock: Clock, when: datetime, tz: tzinfo) -> datetime:
    """The first moment not before ``when`` (rounded up to the minute) that the clock allows
    for a deadline: at its ``clock`` time (when it has one) on one of its ``days``, in
    ``tz``; in UTC."""
    local = _round_up(when).astimezone(tz)
    at = None if clock.clock is None else time(clock.clock // 60 % 24, clock.clock % 60)
    return _fit(clock.days, local, at).astimezone(UTC)


def fit_within(clock: Clock, deadline: datetime, days: int, tz: tzinfo) -> datetime:
    """The latest moment at most ``days`` days (in ``tz``'s wall-clock time) after
    ``deadline`` (one the clock allows) that the clock allows too: the same time of day on
    the last allowed day; in UTC."""
    local = deadline.astimezone(tz)
    for back in range(min(days, 7) + 1):
        day = (local + timedelta(days=days - back)).date()
        candidate = datetime.combine(day, local.timetz().replace(tzinfo=None), tz)
        if _allowed(clock.days, candidate):
            return candidate.astimezone(UTC)
    return deadline


def grace_after(clock: Clock, deadline: datetime, tz: tzinfo) -> datetime:
    """The end of grace for ``deadline``: ``grace`` hours later, moved to a day ``days``
    allows (njudge, without StrictGrace), in UTC."""
    local = (deadline + timedelta(hours=clock.grace)).astimezone(tz)
    return _fit(clock.days, local, None).astimezone(UTC)


def _round_up(when: datetime) -> datetime:
    """``when`` rounded up to the whole second (a clock time gives whole minutes anyway)."""
    if when.microsecond:
        when = when.replace(microsecond=0) + timedelta(seconds=1)
    return when
