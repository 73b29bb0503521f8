"""HISTORY (njudge ``data/history``), in its two forms:

1. ``HISTORY [name] [FROM date] [TO date] [LINES n]``: what an observer would have read of
   the game between FROM and TO (real time): the game-start mail, results, broadcasts,
   notices and the final mail, not private replies, late reminders or partial press; every
   such mail once (the archive copy of each, see ``judge.store.mail.queue_mail``). FROM
   defaults to one week before now and TO to the present; a TO before FROM is ignored, as
   njudge does. Dates are read by :func:`judge.game.deadlines.parse_past` (``Jan 1 1990``,
   ``2026-12-01 18:00``).
2. ``HISTORY [name] EXCLSTART turnId [EXCLEND turnId] [BROAD]``: the whole game but the
   phases from EXCLSTART to EXCLEND (both included; without EXCLEND, to the end). A turn id
   is a phase code (``S1902M``, ``F1999B``); "No checking is done to determine whether the
   TurnIds given are actually found in the game" and an id that cannot be read gives the
   whole game. By default only the results, the start mail and the game's final mail (its
   draw notice) are returned; ``BROAD`` adds the notices and broadcasts.

LINES (default 1000 in the first form, no cap in the second unless given) caps the lines
returned at a mail boundary: whole mails are kept while they fit (the first one always),
never cut, and a note says what was left out. A history longer than a reply may be
(``[limits] reply_max_bytes``) goes out in numbered parts, split between mails. Dates are read by
:func:`judge.game.deadlines.parse_past` (``Jan 1 1990``, ``2026-12-01 18:00``).

A mail withdrawn by a ROLLBACK (or an UNSTART) is returned marked: its subject says it was
withdrawn and every line of it is quoted (``> ``), so that a mapping tool reading the
history takes it for no result (``mapper-compat.md`` item 2) and a reader sees why.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from sqlalchemy.orm import Session

from .. import render
from ..engine import Phase, PhaseError
from ..store.mail import archive_for
from .deadlines import DeadlineError, parse_past
from .mails import PUBLIC_KINDS

DEFAULT_DAYS = 7
DEFAULT_LINES = 1000
_KEYS = ("FROM", "TO", "LINES", "EXCLSTART", "EXCLEND", "BROAD")
#: What the EXCLSTART form returns without BROAD.
TURN_KINDS = ("start", "result", "ending")

#: (sent at, subject, body, withdrawn at)
Archived = tuple[datetime, str, str, datetime | None]


@dataclass(frozen=True, slots=True)
class Request:
    """A HISTORY command read: the game named (if any), the period, the line cap (None: no
    cap), and for the EXCLSTART form the phases left out and whether notices come too."""

    game: str | None
    start: datetime | None
    end: datetime | None
    lines: int | None
    exclude: tuple[Phase, Phase | None] | None = None
    broad: bool = True


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
        elif key is None or key == "BROAD":
            raise DeadlineError(render.refusal("history_word_unreadable", word=word))
        else:
            parts[key].append(word)
    lines: int | None = None
    if "LINES" in parts:
        if len(parts["LINES"]) != 1 or not parts["LINES"][0].isdigit() or int(parts["LINES"][0]) < 1:
            raise DeadlineError(render.refusal("history_lines_unreadable"))
        lines = int(parts["LINES"][0])
    if "EXCLSTART" in parts:
        if parts.keys() & {"FROM", "TO"}:
            raise DeadlineError(render.refusal("history_exclstart_with_dates"))
        return Request(game, None, None, lines, _excluded(parts), broad="BROAD" in parts)
    if parts.keys() & {"EXCLEND", "BROAD"}:
        raise DeadlineError(render.refusal("history_exclend_alone"))
    start = now - timedelta(days=DEFAULT_DAYS)
    if "FROM" in parts:
        start = parse_past(" ".join(parts["FROM"]), now, tz)
    end = None
    if "TO" in parts:
        to = parse_past(" ".join(parts["TO"]), now, tz)
        end = to if to >= start else None
    return Request(game, start, end, DEFAULT_LINES if lines is None else lines)


def _excluded(parts: dict[str, list[str]]) -> tuple[Phase, Phase | None] | None:
    """The phases EXCLSTART .. EXCLEND leave out; None (the whole game) when EXCLSTART
    cannot be read, or EXCLEND is given and cannot be read."""
    try:
        first = Phase.parse(" ".join(parts["EXCLSTART"]))
        last = Phase.parse(" ".join(parts["EXCLEND"])) if "EXCLEND" in parts else None
    except PhaseError:
        return None
    return first, last


def _left_out(req: Request, phase: str | None) -> bool:
    if req.exclude is None or phase is None:
        return False
    try:
        key = Phase.parse(phase).key
    except PhaseError:
        return False
    first, last = req.exclude
    return key >= first.key and (last is None or key <= last.key)


def archived(session: Session, game: str, req: Request) -> list[Archived]:
    """The game's public archive for the request, oldest first."""
    kinds = PUBLIC_KINDS if req.broad else TURN_KINDS
    out: list[Archived] = []
    for mail in archive_for(session, game):
        if mail.kind not in kinds:
            continue
        if req.start is not None and mail.created_at < req.start:
            continue
        if req.end is not None and mail.created_at > req.end:
            continue
        if _left_out(req, mail.phase):
            continue
        out.append((mail.created_at, mail.subject, mail.body, mail.withdrawn_at))
    return out


def size_in_lines(mail: Archived) -> int:
    """Lines an archived mail takes in the reply: a blank, ``Date:``, ``Subject:``, a blank,
    (a withdrawn mail's note and a blank,) the body."""
    return len(mail[2].splitlines()) + (6 if mail[3] is not None else 4)


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


def fit(mails: list[Archived], lines: int | None) -> tuple[list[Archived], int]:
    """The whole mails that fit in ``lines`` (the first always; None: all), and how many
    were left out."""
    if lines is None:
        return mails, 0
    kept: list[Archived] = []
    left = lines
    for mail in mails:
        size = size_in_lines(mail)
        if kept and size > left:
            break
        kept.append(mail)
        left -= size
    return kept, len(mails) - len(kept)
