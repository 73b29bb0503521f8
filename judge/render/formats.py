"""The small pieces of the classic judge layout: dates, padding, wrapping, result notes.

Everything here is plain text work, used by the templates as filters or by the code that
prepares their values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, tzinfo
from functools import lru_cache

#: Result notes jDip and the other mappers accept (mapper-compat item 5).
ALLOWED_NOTES = ("bounce", "cut", "dislodged", "destroyed", "no convoy", "void")
#: Engine notes written in the allowed words: a unit disbanded in a retreat phase is
#: "destroyed" for the mappers, an illegal order is "void".
NOTE_WORDS = {"disbanded": "destroyed", "illegal": "void"}
#: Width of wrapped text (ownership lists, dislodged entries, paragraphs).
WIDTH = 78

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@lru_cache(maxsize=4096)
def format_deadline(dt: datetime, tz: tzinfo) -> str:
    """``Mon Feb 25 2002 23:30:00 +0100``: ``dt`` shown in the game's time zone ``tz``.
    A naive ``dt`` is taken as UTC (the store keeps UTC). Kept: a game's deadline is shown
    in the header of every reply (equal aware datetimes are the same instant, shown alike)."""
    if dt.tzinfo is None:
        from datetime import UTC

        dt = dt.replace(tzinfo=UTC)
    local = dt.astimezone(tz)
    return (
        f"{_DAYS[local.weekday()]} {_MONTHS[local.month - 1]} {local.day:02d} {local.year:04d} "
        f"{local:%H:%M:%S} {local:%z}"
    )


def format_when(dt: datetime, tz: tzinfo) -> str:
    """A date as a person reads it: the classic form in their zone ``tz``, followed by the
    zone's name when it is not UTC, so that the reader sees which zone the time is in
    (``Sun Mar 29 2026 23:30:00 +0100 (Europe/London)``)."""
    name = getattr(tz, "key", None)
    text = format_deadline(dt, tz)
    return f"{text} ({name})" if name and name not in ("UTC", "Etc/UTC") else text


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 unit`` / ``2 units`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def time_left(deadline: datetime, now: datetime) -> str:
    """``5 days, 23 hours, 30 minutes, and 0 seconds`` (njudge's "Time to deadline");
    ``0 seconds`` once the deadline has passed."""
    left = deadline - now
    if left <= timedelta(0):
        return "0 seconds"
    secs = int(left.total_seconds())
    days, secs = divmod(secs, 86400)
    hours, secs = divmod(secs, 3600)
    minutes, secs = divmod(secs, 60)
    parts = [plural(hours, "hour"), plural(minutes, "minute")]
    if days:
        parts.insert(0, plural(days, "day"))
    return ", ".join(parts) + ", and " + plural(secs, "second")


def label(name: str, width: int = 11, gap: int = 2) -> str:
    """``Austria:`` padded to ``width`` columns, with at least ``gap`` spaces after the colon
    (``Austria:   ``, ``Russia:    ``; a long name such as ``Netherlands:  ``)."""
    text = name + ":"
    return text.ljust(max(width, len(text) + gap))


def column(names: Iterable[str], least: int, gap: int = 1) -> int:
    """The width of a column that holds each of ``names`` and ``gap`` spaces after the
    longest, at least ``least``: a long power name (``Marshall Islands``) widens its
    table's column instead of running into the next one."""
    return max([least, *(len(name) + gap for name in names)])


def quoted(text: str) -> str:
    """``text`` in quotes as Python's ``repr`` writes it (``'xyz'``, ``"it's"``): how a
    refusal shows the word it could not read."""
    return repr(str(text))


def and_list(items: Iterable[str]) -> str:
    """``Austria, England and France`` (one item alone; ``""`` for none)."""
    names = list(items)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def title_game(game: str) -> str:
    """The game name as the ``:: Judge:`` header prints it: first letter upper case."""
    return game[:1].upper() + game[1:]


def notes_suffix(notes: Iterable[str]) -> str:
    """``  (*bounce, dislodged*)`` from result notes, in the allowed words only; ``""``
    when there are none."""
    words: list[str] = []
    for note in notes:
        word = NOTE_WORDS.get(note, note)
        if word in ALLOWED_NOTES and word not in words:
            words.append(word)
    return f"  (*{', '.join(words)}*)" if words else ""


def wrap_list(items: Sequence[str], first: str, width: int = WIDTH) -> str:
    """``first`` then ``items`` joined by ``, `` and ended by ``.``, wrapped after a comma;
    continuation lines are indented to the width of ``first`` (the ownership block)."""
    indent = " " * len(first)
    lines: list[str] = []
    line = first
    for i, item in enumerate(items):
        piece = item + ("." if i == len(items) - 1 else ",")
        if line.strip() and line != first and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = indent + piece
        else:
            line = line + piece if line == first else line + " " + piece
    lines.append(line)
    return "\n".join(lines)


def wrap_entry(text: str, width: int = WIDTH, avoid: str = "The") -> str:
    """Wrap ``text`` at spaces, unindented, so that no continuation line starts with the
    word ``avoid`` (mappers read a line starting with "The" as a new dislodged entry):
    the word before it goes down with it."""
    words = text.split(" ")
    lines: list[list[str]] = [[]]
    for word in words:
        cur = lines[-1]
        if cur and len(" ".join([*cur, word])) > width:
            lines.append([word])
        else:
            cur.append(word)
    for i in range(1, len(lines)):
        while lines[i] and lines[i][0] == avoid and len(lines[i - 1]) > 1:
            lines[i].insert(0, lines[i - 1].pop())
    return "\n".join(" ".join(line) for line in lines if line)
