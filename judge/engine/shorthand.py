"""Orders as programs write them, read without the full grammar.

Bots, tools and the benchmark write orders in one plain form with canonical abbreviations
(``A par - bur``, ``A bel - hol via convoy``, ``F nth C A lon - nwy``, ``A mun S A ber - sil``,
``A mun - boh``, ``build F stp/nc``). These functions read exactly those forms and return the
order the full reader in ``parser.py`` would; for anything else, or anything doubtful, they
return None and the full reader takes over (a test pins that both agree). ``judge
adjudicate`` reads such orders by the million: through this path a phase's orders are read
about fifteen times faster than through the grammar alone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .map import ARMY, FLEET, Map, province_of
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    Support,
)
from .phase import RETREAT
from .position import Position, Unit

_TYPES = {"a": ARMY, "f": FLEET}


def canonical(m: Map, token: str) -> str | None:
    """``token`` if it is exactly a canonical location of the map, else None."""
    return token if token in m.province_at else None


def read_movement(m: Map, position: Position, power: str, text: str) -> Order | None:
    """The orders a program writes (``A par - bur``, ``A bel - hol via convoy``, ``F nth C A
    lon - nwy``, ``A mun S A ber - sil``, ``A par H``) in canonical abbreviations, read without
    the full reader. Anything else (or anything doubtful) returns None and takes the full
    path, which gives the same order or the player's error message."""
    form = _movement_form(m, text)
    if form is None:
        return None
    shape, utype, prov, loc, where, dest, written, via_convoy, coast_check = form
    units = position.units
    unit = units.get(prov)
    if unit is None or unit.power != power or unit.type != utype or (loc is not None and loc != unit.location):
        return None
    if shape == _HOLD:
        return Hold(unit)
    if shape == _MOVE:
        if coast_check and dest not in m.fleet_adj.get(unit.location, ()):
            return None  # a fleet to a coast it does not reach, or to no coast of a split province
        return Move(unit, dest, via_convoy)
    other = units.get(where)
    if other is None:
        return None
    if shape == _SUPPORT:
        return Support(unit, other.province, dest, other.type, other.power, written)
    if shape == _SUPPORT_HOLD:
        return Support(unit, other.province, None, other.type, other.power)
    return Convoy(unit, other.province, dest, other.power)


_HOLD, _MOVE, _SUPPORT_HOLD, _SUPPORT, _CONVOY = "hold", "move", "support to hold", "support", "convoy"


class MovementForm(NamedTuple):
    """What a movement order's text says, without the position: read once per map and text."""

    shape: str              # _HOLD, _MOVE, _SUPPORT_HOLD, _SUPPORT or _CONVOY
    utype: str
    province: str           # of the ordered unit
    location: str | None    # the ordered unit's location if a coast is written
    other: str = ""         # the supported or convoyed unit's province
    dest: str = ""          # where the move, supported move or convoy goes
    written: str | None = None  # a supported move's destination as written (its coast)
    via_convoy: bool = False
    coast_check: bool = False  # a fleet move to a split province: the coast must border the fleet


@lru_cache(maxsize=1 << 16)
def _movement_form(m: Map, text: str) -> MovementForm | None:
    """The part of reading a movement order that needs no position (the same texts come in
    line after line from a program); None if the text is not one of the plain forms."""
    words = text.lower().split()
    n = len(words)
    if n < 3:
        return None
    at = m.province_at
    utype, prov = _TYPES.get(words[0]), at.get(words[1])
    if utype is None or prov is None:
        return None
    loc = words[1] if "/" in words[1] else None
    verb = words[2]
    if n == 3 and verb in ("h", "hold"):
        return MovementForm(_HOLD, utype, prov, loc)
    via_convoy = n == 6 and words[4:] == ["via", "convoy"] and utype == ARMY
    if (n == 4 or via_convoy) and verb == "-":
        dest = words[3]
        target = at.get(dest)
        if target is None or (utype == ARMY and "/" in dest):
            return None
        coast_check = utype == FLEET and bool(m.provinces[target].coasts)
        return MovementForm(_MOVE, utype, prov, loc, "", dest, None, via_convoy, coast_check)
    if verb in ("s", "support", "c", "convoy") and n in (5, 7) and words[3] in ("a", "f"):
        where = at.get(words[4])
        if where is None:
            return None
        if verb in ("s", "support"):
            if n == 5:
                return MovementForm(_SUPPORT_HOLD, utype, prov, loc, where)
            goal = at.get(words[6]) if words[5] == "-" else None
            if goal is None:
                return None
            return MovementForm(_SUPPORT, utype, prov, loc, where, goal, words[6])
        if n == 7 and words[5] == "-" and words[3] == "a":
            dest = words[6]
            if dest not in at or "/" in dest:
                return None
            return MovementForm(_CONVOY, utype, prov, loc, where, dest)
    return None


def read_retreat_or_adjustment(m: Map, position: Position, power: str, text: str) -> Order | None:
    """Retreats (``A mun - boh``, ``A mun disband``) and adjustments (``build A ber``,
    ``build F stp/nc``, ``remove A ber``) in canonical form; None means: take the full path."""
    words = text.lower().split()
    if len(words) < 3:
        return None
    if position.phase.kind == RETREAT:
        if words[0] not in ("a", "f"):
            return None
        loc = canonical(m, words[1])
        entry = position.dislodged.get(province_of(loc)) if loc else None
        if entry is None or entry.unit.power != power or entry.unit.type != words[0].upper():
            return None
        if len(words) == 3 and words[2] in ("d", "disband"):
            return Disband(entry.unit)
        if len(words) == 4 and words[2] in ("-", "r") and words[3] in entry.retreats:
            return Retreat(entry.unit, words[3])
        return None
    if len(words) != 3 or words[1] not in ("a", "f"):
        return None
    loc = canonical(m, words[2])
    if loc is None:
        return None
    if words[0] == "build":
        prov = m.provinces[province_of(loc)]
        if (words[1] == "a" and "/" in loc) or (words[1] == "f" and prov.coasts and "/" not in loc):
            return None
        return Build(Unit(power, words[1].upper(), loc))
    if words[0] == "remove":
        there = position.units.get(province_of(loc))
        if there is None or there.power != power or there.type != words[1].upper():
            return None
        return Remove(there)
    return None


