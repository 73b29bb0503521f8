"""The master's clock commands (njudge ``deadlines``): SET DEADLINE, SET GRACE and
SET MOVES / SET RETREATS / SET BUILDS.

- ``SET DEADLINE date`` moves the current phase's deadline (see :mod:`.grace` for how grace
  follows it); everyone is told.
- ``SET GRACE date`` or ``SET GRACE hours`` sets when the current phase's grace ends: at the
  date, or that many hours after the deadline (a bare number is hours here; write the month
  to name a day, ``SET GRACE Jun 15``). It cannot end before the deadline. Everyone is told.
- ``SET MOVES [NEXT] hours [GRACE hours]`` (and ``RETREATS``, ``BUILDS``) sets the length of
  later phases of that kind and of their grace, as njudge's ``SET MOVES NEXT 48 GRACE 72``;
  the current phase keeps its clock. njudge's ``CLOCK``, ``MIN``, ``DELAY`` and ``DAYS`` are
  not supported. Everyone is told.
"""

from __future__ import annotations

import re
from datetime import timedelta

from ..mail import commands as c
from ..mail.commands import Command
from ..store.games import ACTIVE, PAUSED, Game
from . import announce, grace, notices
from .deadlines import DeadlineError, parse_deadline, zone
from .service import MailState, handles, need_master

MAX_HOURS = 2160.0  # 90 days
_HOURS = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)?\.?$", re.IGNORECASE)
_KINDS = {c.SET_MOVES: ("M", "moves", "movement"), c.SET_RETREATS: ("R", "retreats", "retreat"),
          c.SET_BUILDS: ("B", "builds", "adjustment")}


def read_hours(text: str) -> float | None:
    """``48``, ``48h``, ``1.5 hours`` -> hours; None if ``text`` is not such a number."""
    m = _HOURS.match(text.strip())
    return float(m.group(1)) if m else None


def _running(state: MailState, cmd: Command) -> Game | None:
    if need_master(state, cmd):
        return None
    game = state.game
    assert game is not None
    if game.status not in (ACTIVE, PAUSED) or game.deadline is None:
        state.error(cmd, "The game has no deadline to set: it has not started or is over.")
        return None
    return game


@handles(c.SET_DEADLINE)
def set_deadline(state: MailState, cmd: Command) -> None:
    game = _running(state, cmd)
    if game is None:
        return
    try:
        when = parse_deadline(cmd.text, state.now, zone(state.config.timezone))
    except DeadlineError as exc:
        state.error(cmd, str(exc))
        return
    grace.move_deadline(game, when)
    _told(state, game)


@handles(c.SET_GRACE)
def set_grace(state: MailState, cmd: Command) -> None:
    game = _running(state, cmd)
    if game is None:
        return
    assert game.deadline is not None
    hours = read_hours(cmd.text)
    try:
        if hours is not None:
            if hours > MAX_HOURS:
                raise DeadlineError(f"A grace period is at most {MAX_HOURS:g} hours.")
            end = game.deadline + timedelta(hours=hours)
        else:
            end = parse_deadline(cmd.text, state.now, zone(state.config.timezone))
    except DeadlineError as exc:
        state.error(cmd, str(exc))
        return
    if end < game.deadline:
        state.error(cmd, "The grace period cannot end before the deadline; move the deadline first.")
        return
    game.grace = end
    _told(state, game)


def _told(state: MailState, game: Game) -> None:
    state.touched = True
    notices.deadline_changed(state.session, state.config, game)
    state.say(notices.deadline_text(state.config, game, state.now))


def read_lengths(text: str) -> tuple[float | None, float | None]:
    """``[NEXT] hours [GRACE hours]`` -> (next, grace); raises ``DeadlineError``."""
    words = text.replace("=", " ").split()
    found: dict[str, float] = {}
    key = "next"
    for word in words:
        upper = word.upper()
        if upper in ("NEXT", "GRACE"):
            key = upper.lower()
            continue
        value = read_hours(word)
        if value is None:
            raise DeadlineError(f"Cannot read {word!r}: write SET MOVES [NEXT] hours [GRACE hours] "
                                "(CLOCK, MIN, DELAY and DAYS are not supported).")
        if value > MAX_HOURS or (key == "next" and value <= 0):
            raise DeadlineError(f"{key.capitalize()} must be more than 0 and at most {MAX_HOURS:g} hours."
                                if key == "next" else f"Grace must be at most {MAX_HOURS:g} hours.")
        found[key] = value
    if not found:
        raise DeadlineError("Give the hours: SET MOVES [NEXT] hours [GRACE hours].")
    return found.get("next"), found.get("grace")


@handles(c.SET_MOVES, c.SET_RETREATS, c.SET_BUILDS)
def set_lengths(state: MailState, cmd: Command) -> None:
    if need_master(state, cmd):
        return
    game = state.game
    assert game is not None
    kind, column, name = _KINDS[cmd.verb]
    try:
        nxt, after = read_lengths(cmd.text)
    except DeadlineError as exc:
        state.error(cmd, str(exc))
        return
    if nxt is not None:
        setattr(game, f"{column}_hours", nxt)
    if after is not None:
        setattr(game, f"{column}_grace", after)
    state.touched = True
    text = announce.lengths_text(game, name, game.hours_for(kind), game.grace_for(kind))
    announce.setting(state.session, state.config, game, text)
    state.say(text)
