"""The master's game policies on lateness, absences and who may join (njudge ``data/index``,
``data/deadlines``, ``data/dedsystems``).

- ``SET NMR`` / ``SET NONMR`` (also ``SET CD`` / ``SET NOCD``): at the end of grace, process
  with civil-disorder defaults, or abandon the late powers and wait for a takeover (njudge's
  default, see :mod:`judge.game.lateness`).
- ``SET REMINDER hours``: how long before the deadline players without complete orders are
  reminded (0: never; njudge reminds 8 hours before).
- ``SET MAX ABSENCE days``: the longest absence a player may declare, 0 to 31 (0 forbids
  them; njudge's default 15). A master's absences are not bound by it.
- ``SET DEDICATION n``, ``SET ONTIMERAT r``, ``SET RESRAT r``: the minimum dedication, the
  minimum on-time ratio and the maximum CD ratio of anyone joining the game or taking over
  a power (``NONE`` clears one; see :mod:`judge.game.records`). Unlike njudge, a master may
  set them above their own record.
- ``SET MINRATING n``: the least skill rating (its display value, mu - 3 sigma, on the
  overall ladder: :mod:`judge.game.ratings`) of anyone joining or taking over a power, as
  ``SET DEDICATION`` gates by reliability (``NONE`` clears it).

Each change goes to everyone in one notice (njudge: "Any SET command ... will generate a
message that will be sent to all people involved in the game").
"""

from __future__ import annotations

from collections.abc import Callable

from .. import render
from ..game.clocks import MAX_HOURS, read_hours
from .outcome import Call, Outcome, said

MAX_ABSENCE_DAYS = 31
_CLEAR = ("NONE", "OFF", "NO")


def _told(call: Call, what: str, value: str = "") -> Outcome:
    game = call.view.game
    text = render.section("all/policy_set", game=game.name, what=what, value=value, nmr=game.nmr)
    return said(text, changed=True, settings=(text,))


def set_nmr(call: Call) -> Outcome:
    call.view.game.nmr = True
    return _told(call, "nmr")


def set_nonmr(call: Call) -> Outcome:
    call.view.game.nmr = False
    return _told(call, "nonmr")


def set_reminder(call: Call) -> Outcome:
    hours = read_hours(call.cmd.text) if call.cmd.text.strip().upper() not in _CLEAR else 0.0
    if hours is None or hours > MAX_HOURS:
        return call.error(render.refusal("reminder_syntax", most=f"{MAX_HOURS:g}"))
    call.view.game.reminder = hours
    return _told(call, "reminder", f"{hours:g}")


def set_max_absence(call: Call) -> Outcome:
    text = call.cmd.text.strip()
    if not text.isdigit() or int(text) > MAX_ABSENCE_DAYS:
        return call.error(render.refusal("max_absence_syntax", most=MAX_ABSENCE_DAYS))
    call.view.game.max_absence = int(text)
    return _told(call, "max_absence", text)


def _minimum(call: Call, field: str, what: str, read: Callable[[str], float], shown: Callable[[float], str],
             syntax: Callable[[], str]) -> Outcome:
    """A minimum of those who join (``field`` of the game), read from the command's text by
    ``read`` (a ValueError: the ``syntax`` refusal), or cleared by NONE."""
    text = call.cmd.text.strip()
    game = call.view.game
    if text.upper() in _CLEAR:
        setattr(game, field, None)
        return _told(call, what)
    try:
        value = read(text)
    except ValueError:
        return call.error(syntax())
    setattr(game, field, value)
    return _told(call, what, shown(value))


def set_dedication(call: Call) -> Outcome:
    return _minimum(call, "min_dedication", "dedication", int, lambda v: str(v),
                    lambda: render.refusal("dedication_syntax"))


def set_minrating(call: Call) -> Outcome:
    return _minimum(call, "min_rating", "minrating", float, lambda v: f"{v:.2f}",
                    lambda: render.refusal("minrating_syntax"))


def _ratio(call: Call, field: str, what: str) -> Outcome:
    text = call.cmd.text.strip()
    game = call.view.game
    if text.upper() in _CLEAR:
        setattr(game, field, None)
        return _told(call, what)
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        return call.error(render.refusal("ratio_syntax", setting=what.upper()))
    setattr(game, field, value)
    return _told(call, what, f"{value:.3f}")


def set_ontimerat(call: Call) -> Outcome:
    return _ratio(call, "min_ontime", "ontimerat")


def set_resrat(call: Call) -> Outcome:
    return _ratio(call, "max_cd_ratio", "resrat")
