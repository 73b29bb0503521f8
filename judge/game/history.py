"""HISTORY [name] [FROM date] [TO date] [LINES n] (njudge ``data/history``).

What an observer would have read of the game between FROM and TO (real time): the
game-start mail, results, broadcasts and notices, not private replies, late reminders or
partial press, each mail once. FROM defaults to one week before now and TO to the present;
a TO before FROM is ignored, as njudge does. LINES (default 1000) caps the lines returned: whole
mails are kept while they fit, the one that does not fit is cut, and a note says so. Dates
are read by :func:`judge.game.deadlines.parse_past` (``Jan 1 1990``, ``2026-12-01 18:00``).
njudge's EXCLSTART/EXCLEND form is not supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .. import render
from ..mail import commands as c
from ..mail.commands import Command
from ..render.environment import render as render_template
from ..store.games import find_game
from ..store.mail import archive_for
from . import notices
from .deadlines import DeadlineError, parse_past, zone
from .service import MailState, handles

PUBLIC_KINDS = ("start", "result", "press", "notice")
DEFAULT_DAYS = 7
DEFAULT_LINES = 1000
_KEYS = ("FROM", "TO", "LINES")


@dataclass(frozen=True, slots=True)
class Request:
    """A HISTORY command read: the game named (if any), the period and the line cap."""

    game: str | None
    start: datetime
    end: datetime | None
    lines: int


def read_request(words: tuple[str, ...], now: datetime, tz: object) -> Request:
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
        start = parse_past(" ".join(parts["FROM"]), now, tz)  # type: ignore[arg-type]
    end = None
    if "TO" in parts:
        to = parse_past(" ".join(parts["TO"]), now, tz)  # type: ignore[arg-type]
        end = to if to >= start else None
    lines = DEFAULT_LINES
    if "LINES" in parts:
        if len(parts["LINES"]) != 1 or not parts["LINES"][0].isdigit() or int(parts["LINES"][0]) < 1:
            raise DeadlineError("LINES takes one whole number, like LINES 5000.")
        lines = int(parts["LINES"][0])
    return Request(game, start, end, lines)


def cut(archived: list[tuple[datetime, str, str]], lines: int) -> tuple[list[tuple[datetime, str, str]], bool]:
    """Keep mails while their lines fit in ``lines`` (the first one that does not is cut)."""
    kept: list[tuple[datetime, str, str]] = []
    left = lines
    for date, subject, body in archived:
        size = len(body.splitlines()) + 4  # blank, Date:, Subject:, blank
        if size <= left:
            kept.append((date, subject, body))
            left -= size
            continue
        if left > 4:
            kept.append((date, subject, "\n".join(body.splitlines()[:left - 4])))
        return kept, True
    return kept, False


@handles(c.HISTORY)
def history(state: MailState, cmd: Command) -> None:
    tz = zone(state.config.timezone)
    try:
        req = read_request(cmd.args, state.now, tz)
    except DeadlineError as exc:
        state.error(cmd, str(exc))
        return
    if req.game is not None:
        game = find_game(state.session, req.game)
        if game is None:
            state.error(cmd, f"There is no game called '{req.game}'.")
            return
        if state.game is None:
            state.about = game
    elif state.game is not None:
        game = state.game
    else:
        state.error(cmd, "Name the game (HISTORY name), or SIGNON first.")
        return
    seen: set[tuple[str, str]] = set()
    archived = []
    for mail in archive_for(state.session, game.name):
        if mail.kind not in PUBLIC_KINDS or mail.created_at < req.start:
            continue
        if req.end is not None and mail.created_at > req.end:
            continue
        key = (mail.kind, mail.subject)
        if key not in seen:
            seen.add(key)
            archived.append((mail.created_at, mail.subject, mail.body))
    kept, was_cut = cut(archived, req.lines)
    ctx = notices.game_ctx(state.config, game)
    if kept:
        state.say(render.history_text(ctx, kept))
    if was_cut or not kept:
        state.say(render_template("game/history_note.txt.j2", game=game.name, shown=bool(kept), cut=was_cut,
                                  lines=req.lines, start=ctx.when(req.start),
                                  end=ctx.when(req.end) if req.end else "now").rstrip())
