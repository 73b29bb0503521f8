"""The master's clock commands (njudge ``data/deadlines``): SET DEADLINE, SET GRACE,
SET START and SET MOVES / SET RETREATS / SET BUILDS.

Dates are read in the sender's zone (their ``SET ZONE``, else the game's, else the judge's).

- ``SET DEADLINE date`` moves the current phase's deadline (grace follows it later, see
  :mod:`judge.game.lateness`); without a time of day, the phase's clock time (23:30 when it
  has none), as njudge. Everyone is told.
- ``SET GRACE date`` or ``SET GRACE hours`` sets when the current phase's grace ends: at the
  date, or that many hours after the deadline (write the month to name a day, ``SET GRACE
  Jun 15``). It cannot end before the deadline. Everyone is told.
- ``SET MOVES [NEXT h] [CLOCK hh:mm] [MIN h] [GRACE h] [DELAY h] [DAYS -MTWTF-]`` (and
  ``RETREATS``, ``BUILDS``; a bare number is ``NEXT``) changes the clock of later phases of
  that kind, as njudge's ``SET MOVES NEXT 48 DELAY 1``; the current phase keeps its
  deadline. ``CLOCK -1`` (or ``CLOCK NONE``) drops the clock time. Everyone is told.
- ``SET START date``: no phase is processed before the date (njudge: "Prevents orders being
  processed before date"); a running phase whose deadline is earlier gets the date as its
  deadline, and a forming game's first deadline falls no sooner. Everyone is told.

A master sets a game's clocks before the start with these commands after ``CREATE`` in the
same mail (njudge's CREATE takes a variant and options only), or in any later mail.
"""

from __future__ import annotations

from datetime import time, timedelta

from .. import render
from ..game import lateness
from ..game.clocks import KIND_WORDS, MAX_HOURS, clocks_of, clocks_to_json, read_clock, read_hours
from ..game.deadlines import DEFAULT_TIME, DeadlineError, parse_deadline
from ..game.zones import game_zone
from ..render import time_left
from .outcome import Call, Outcome, said


def _clock_time(call: Call) -> time:
    """The time of day a date without one means: the current phase's clock time."""
    minutes = call.view.clock().clock
    return DEFAULT_TIME if minutes is None else time(minutes // 60 % 24, minutes % 60)


def set_deadline(call: Call) -> Outcome:
    view = call.view
    when = parse_deadline(call.cmd.text, call.now, call.zone(), default_time=_clock_time(call))
    lateness.move_deadline(view, when, game_zone(view.game, call.config))
    return _told(call)


def set_start(call: Call) -> Outcome:
    """``SET START date``: no processing before the date (module docstring)."""
    view = call.view
    game = view.game
    when = parse_deadline(call.cmd.text, call.now, call.zone(), default_time=_clock_time(call))
    moved = lateness.set_start(view, when, game_zone(game, call.config))
    ctx = call.context()
    text = render.section("all/start_set", game=game.name, start=ctx.when(when), forming=not view.started,
                          deadline=ctx.when(game.deadline) if moved and game.deadline else None)
    return said(text, changed=True, settings=(text,), deadline_moved=moved)


def set_grace(call: Call) -> Outcome:
    view = call.view
    game = view.game
    assert game.deadline is not None
    hours = read_hours(call.cmd.text)
    if hours is not None:
        if hours > MAX_HOURS:
            raise DeadlineError(render.refusal("grace_too_long", most=f"{MAX_HOURS:g}"))
        end = game.deadline + timedelta(hours=hours)
    else:
        end = parse_deadline(call.cmd.text, call.now, call.zone(), default_time=_clock_time(call))
    if end < game.deadline:
        return call.error(render.refusal("grace_before_deadline"))
    game.grace = end
    return _told(call)


def _told(call: Call) -> Outcome:
    view = call.view
    game = view.game
    assert game.deadline is not None
    ctx = call.context()
    end = game.grace_end
    text = render.section("master/deadline_set", game=game.name, deadline=ctx.when(game.deadline),
                          left=time_left(game.deadline, call.now), grace=ctx.when(end) if end else None,
                          grace_left=time_left(end, call.now) if end and end > call.now else None)
    return said(text, changed=True, deadline_moved=True)


def _set_clock(call: Call, kind: str) -> Outcome:
    view = call.view
    game = view.game
    clocks = clocks_of(game.clocks)
    clocks[kind] = read_clock(call.cmd.text, clocks[kind])
    game.clocks = clocks_to_json(clocks)
    clock = clocks[kind]
    text = render.section("all/lengths_set", game=game.name, kind=KIND_WORDS[kind], line=clock.describe(),
                          next=_hours(clock.next), grace=_hours(clock.grace), delay=_hours(clock.delay),
                          minimum=_hours(clock.min), days=clock.days,
                          at=None if clock.clock is None else f"{clock.clock // 60:02d}:{clock.clock % 60:02d}")
    return said(text, changed=True, settings=(text,))


def _hours(value: float) -> str:
    return f"{value:g} hour" + ("" if value == 1 else "s")


def set_moves(call: Call) -> Outcome:
    return _set_clock(call, "M")


def set_retreats(call: Call) -> Outcome:
    return _set_clock(call, "R")


def set_builds(call: Call) -> Outcome:
    return _set_clock(call, "B")
