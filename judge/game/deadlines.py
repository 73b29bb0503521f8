"""Deadline dates: reading what a master writes after ``SET DEADLINE``, and default deadlines.

Two forms are read:

- ISO 8601: ``2026-12-01 18:00 UTC``, ``2026-12-01T18:00:00+01:00``, ``2026-12-01 18:00``
  (no zone: the writer's time zone), ``2026-12-01`` (at 23:30).
- njudge's words (``data/deadlines``): a weekday (``mon``), a month (``dec``), a day number,
  a four-digit year and a ``hh:mm`` time, in any order: ``Mon Dec 1 2026 18:00``, ``Jun 15``,
  ``15 Jun 23:30``, ``Tue``. A weekday alone means the next such day after today (beside a
  month or day it is only decoration, as in the judge's own date form); without a year the next occurrence is meant, and more than 120 days ahead is
  an error; a day without a month is the next date with that day number; a month without a
  day is its last day; no time means 23:30 (the caller may choose another time of day:
  SET DEADLINE takes the phase's clock time, an absence 0:00 and 23:59). A trailing zone (``UTC``, ``GMT``, ``+0100``)
  may be given.

A deadline must lie in the future, and no date is read from :data:`LATEST_YEAR` (2100) on:
no game runs that long, and so every date the judge computes from one (a grace period, an
absence's end in a zone west of UTC) stays a date Python can hold.

:func:`parse_past` reads the same forms for a moment in the past (HISTORY's ``FROM`` and
``TO``, njudge ``data/history``): without a year the latest such date up to today is meant,
a weekday alone is the latest such day (today included), no time means midnight, and there is
no 120-day limit.
"""

from __future__ import annotations

import calendar
import math
import re
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

from .. import render
from .errors import GameError

DEFAULT_TIME = time(23, 30)
LATEST_YEAR = 2100
LATEST = datetime(LATEST_YEAR, 1, 1, tzinfo=UTC)
MAX_AHEAD_DAYS = 120
_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_ISO = re.compile(
    r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ t](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(z|utc|gmt|[+-]\d{2}:?\d{2})?$",
    re.IGNORECASE,
)
_OFFSET = re.compile(r"^([+-])(\d{2}):?(\d{2})$")


class DeadlineError(GameError):
    """A date that cannot be read or is not acceptable; the message is for the player."""


def zone(name: str) -> tzinfo:
    """The time zone called ``name`` (``UTC`` if it is empty)."""
    return ZoneInfo(name) if name and name.upper() != "UTC" else UTC


def _zone_of(text: str | None, default: tzinfo) -> tzinfo:
    if not text:
        return default
    if text.lower() in ("z", "utc", "gmt"):
        return UTC
    m = _OFFSET.match(text)
    if m is None:
        raise DeadlineError(render.refusal("zone_offset_unknown", text=text))
    sign = -1 if m.group(1) == "-" else 1
    return timezone(sign * timedelta(hours=int(m.group(2)), minutes=int(m.group(3))))


def parse_deadline(text: str, now: datetime, tz: tzinfo = UTC, *, default_time: time = DEFAULT_TIME) -> datetime:
    """The aware UTC datetime ``text`` names (see the module docstring); it must lie in the
    future. ``default_time`` is the time of day when ``text`` gives none."""
    return _future(parse_date(text, now, tz, default_time=default_time), now)


def parse_date(text: str, now: datetime, tz: tzinfo = UTC, *, default_time: time = DEFAULT_TIME) -> datetime:
    """What :func:`parse_deadline` reads, without requiring a future date (an absence may
    start earlier today)."""
    words = text.strip().rstrip(".")
    if not words:
        raise DeadlineError(render.refusal("date_missing"))
    m = _ISO.match(words)
    if m:
        y, mo, d, hh, mm, ss, z = m.groups()
        hour, minute = (int(hh), int(mm)) if hh is not None else (default_time.hour, default_time.minute)
        _check_year(int(y))
        try:
            local = datetime(int(y), int(mo), int(d), hour, minute, int(ss or 0), tzinfo=_zone_of(z, tz))
        except ValueError as exc:
            raise DeadlineError(render.refusal("date_invalid", text=text.strip(), why=str(exc))) from None
        return _bounded(local.astimezone(UTC))
    return _bounded(_njudge(words, now, tz, default_time=default_time))


def _check_year(year: int) -> None:
    if year >= LATEST_YEAR:
        raise DeadlineError(render.refusal("date_too_late", year=LATEST_YEAR))


def _bounded(when: datetime) -> datetime:
    """``when``, if it is before :data:`LATEST` (a date in 2099 west of UTC may not be)."""
    if when >= LATEST:
        raise DeadlineError(render.refusal("date_too_late", year=LATEST_YEAR))
    return when


def parse_past(text: str, now: datetime, tz: tzinfo = UTC) -> datetime:
    """The aware UTC datetime ``text`` names, looking back from ``now`` (module docstring)."""
    words = text.strip().rstrip(".")
    m = _ISO.match(words)
    if m:
        y, mo, d, hh, mm, ss, z = m.groups()
        _check_year(int(y))
        try:
            local = datetime(int(y), int(mo), int(d), int(hh or 0), int(mm or 0), int(ss or 0),
                             tzinfo=_zone_of(z, tz))
        except ValueError as exc:
            raise DeadlineError(render.refusal("date_invalid", text=text.strip(), why=str(exc))) from None
        return _bounded(local.astimezone(UTC))
    if not words:
        raise DeadlineError(render.refusal("past_date_missing"))
    return _njudge(words, now, tz, past=True)


def _njudge(text: str, now: datetime, default_tz: tzinfo, *, past: bool = False,
            default_time: time = DEFAULT_TIME) -> datetime:
    weekday = month = day = year = None
    at: time | None = None
    tz = default_tz
    for token in re.split(r"[\s,]+", text.lower()):
        if not token:
            continue
        if token[:3] in _DAYS and token.isalpha():
            weekday = _DAYS.index(token[:3])
        elif token[:3] in _MONTHS and token.isalpha():
            month = _MONTHS.index(token[:3]) + 1
        elif re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", token):
            parts = [int(p) for p in token.split(":")]
            try:
                at = time(parts[0], parts[1], parts[2] if len(parts) > 2 else 0)
            except ValueError:
                raise DeadlineError(render.refusal("time_invalid", token=token)) from None
        elif re.fullmatch(r"\d{4}", token):
            year = int(token)
            _check_year(year)
        elif re.fullmatch(r"\d{1,2}", token):
            day = int(token)
        elif token in ("utc", "gmt", "z") or _OFFSET.match(token):
            tz = _zone_of(token, default_tz)
        else:
            raise DeadlineError(render.refusal("date_word_unreadable", token=token, text=text))
    today = now.astimezone(tz).date()
    at = at or (time(0, 0) if past else default_time)
    if weekday is not None and month is None and day is None:
        step = (weekday - today.weekday() - 1) % 7 + 1
        when = today + timedelta(days=step - 7 if past else step)
        return datetime.combine(when, at, tz).astimezone(UTC)
    when = _date(today, year, month, day)
    if past:
        return datetime.combine(_back(when, today, year, month, day), at, tz).astimezone(UTC)
    result = datetime.combine(when, at, tz).astimezone(UTC)
    if year is None and when - today > timedelta(days=MAX_AHEAD_DAYS):
        raise DeadlineError(render.refusal("date_too_far", days=MAX_AHEAD_DAYS))
    return result


def _date(today: date, year: int | None, month: int | None, day: int | None) -> date:
    try:
        if month is None and day is None:
            return today if year is None else date(year, today.month, today.day)
        if month is None:
            assert day is not None
            y, mo = year or today.year, today.month
            for _ in range(13):
                if day <= calendar.monthrange(y, mo)[1] and date(y, mo, day) >= today:
                    return date(y, mo, day)
                y, mo = (y + 1, 1) if mo == 12 else (y, mo + 1)
            raise DeadlineError(render.refusal("month_day_unknown", day=day))
        y = year or today.year
        d = day or calendar.monthrange(y, month)[1]
        found = date(y, month, d)
        if year is None and found < today:
            found = date(y + 1, month, day or calendar.monthrange(y + 1, month)[1])
        return found
    except DeadlineError:
        raise
    except ValueError as exc:  # date() refusing a day the month does not have
        raise DeadlineError(render.refusal("date_impossible", why=str(exc))) from None


def _back(found: date, today: date, year: int | None, month: int | None, day: int | None) -> date:
    """The latest date up to ``today`` with the parts given (``found`` is the next one)."""
    if year is not None or found <= today:
        return found
    for _ in range(13):
        if month is not None:
            y = found.year - 1
            found = date(y, month, min(day or 31, calendar.monthrange(y, month)[1]))
        else:
            y, mo = (found.year - 1, 12) if found.month == 1 else (found.year, found.month - 1)
            if day is None or day > calendar.monthrange(y, mo)[1]:
                found = date(y, mo, 1)
                continue
            found = date(y, mo, day)
        if found <= today:
            return found
    raise DeadlineError(render.refusal("date_none_in_past"))


def _future(when: datetime, now: datetime) -> datetime:
    if when <= now:
        raise DeadlineError(render.refusal("date_in_past"))
    return when


def default_deadline(now: datetime, hours: float) -> datetime:
    """``hours`` from ``now``, rounded up to the whole minute."""
    later = now + timedelta(hours=hours)
    seconds = later.second + later.microsecond / 1e6
    if seconds:
        later += timedelta(seconds=math.ceil(60 - seconds))
    return later.replace(second=0, microsecond=0).astimezone(UTC)
