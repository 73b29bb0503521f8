"""HISTORY [name] [FROM date] [TO date] [LINES n] (njudge ``data/history``).

What an observer would have read of the game between FROM and TO (real time): the
game-start mail, results, broadcasts and notices, not private replies, late reminders or
partial press; every such mail, once (the archive copy of each, see
``judge.store.mail.queue_mail``). FROM defaults to one week before now and TO to the
present; a TO before FROM is ignored, as njudge does. LINES (default 1000) caps the lines
returned at a mail boundary: whole mails are kept while they fit (the first one always),
never cut, and a note says what was left out. A history longer than a reply may be
(``[limits] reply_max_bytes``) goes out in numbered parts, split between mails. Dates are read by
:func:`judge.game.deadlines.parse_past` (``Jan 1 1990``, ``2026-12-01 18:00``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from sqlalchemy.orm import Session

from ..store.mail import archive_for
from .deadlines import DeadlineError, parse_past
from .mails import PUBLIC_KINDS

DEFAULT_DAYS = 7
DEFAULT_LINES = 1000
_KEYS = ("FROM", "TO", "LINES")

Archived = tuple[datetime, str, str]


@dataclass(frozen=True, slots=True)
class Request:
    """A HISTORY command read: the game named (if any), the period and the line cap."""

    game: str | None
    start: datetime
    end: datetime | None
    lines: int


def read_request(words: tuple[str, ...], now: datetime, tz: tzinfo) -> Request:
    """Read HISTORY's words; raises ``DeadlineError`` with a message for the sender."""
    parts: dict[str, list[str]] = {}
    game: str | None = None
    key: str | None = None
    for word in words:
        if word.upper() in _KEYS:
            key = word.upper()
            parts[key] = []
        elif key is None and game is None:
            game = word
        elif key is None:
            raise DeadlineError(f"Cannot read {word!r}: write HISTORY name [FROM date] [TO date] [LINES n].")
        else:
            parts[key].append(word)
    start = now - timedelta(days=DEFAULT_DAYS)
    if "FROM" in parts:
        start = parse_past(" ".join(parts["FROM"]), now, tz)
    end = None
    if "TO" in parts:
        to = parse_past(" ".join(parts["TO"]), now, tz)
        end = to if to >= start else None
    lines = DEFAULT_LINES
    if "LINES" in parts:
        if len(parts["LINES"]) != 1 or not parts["LINES"][0].isdigit() or int(parts["LINES"][0]) < 1:
            raise DeadlineError("LINES takes one whole number, like LINES 5000.")
        lines = int(parts["LINES"][0])
    return Request(game, start, end, lines)


def archived(session: Session, game: str, req: Request) -> list[Archived]:
    """The game's public archive in the request's period, oldest first."""
    out: list[Archived] = []
    for mail in archive_for(session, game):
        if mail.kind not in PUBLIC_KINDS or mail.created_at < req.start:
            continue
        if req.end is not None and mail.created_at > req.end:
            continue
        out.append((mail.created_at, mail.subject, mail.body))
    return out


def size_in_lines(mail: Archived) -> int:
    """Lines an archived mail takes in the reply: a blank, ``Date:``, ``Subject:``, a blank, the body."""
    return len(mail[2].splitlines()) + 4


def parts(mails: list[Archived], size: int) -> list[list[Archived]]:
    """The mails in numbered parts of about ``size`` bytes each, split only between mails (a
    mail longer than ``size`` is a part of its own: mapping tools reject a cut one)."""
    out: list[list[Archived]] = []
    current: list[Archived] = []
    used = 0
    for mail in mails:
        weight = len(mail[2].encode("utf-8")) + len(mail[1]) + 80
        if current and used + weight > size:
            out.append(current)
            current, used = [], 0
        current.append(mail)
        used += weight
    if current:
        out.append(current)
    return out


def fit(mails: list[Archived], lines: int) -> tuple[list[Archived], int]:
    """The whole mails that fit in ``lines`` (the first always), and how many were left out."""
    kept: list[Archived] = []
    left = lines
    for mail in mails:
        size = size_in_lines(mail)
        if kept and size > left:
            break
        kept.append(mail)
        left -= size
    return kept, len(mails) - len(kept)
