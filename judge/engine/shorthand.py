"""Orders as programs write them, read without the full grammar.

Bots, tools and the benchmark write orders in one plain form with canonical abbreviations
(``A par - bur``, ``A bel - hol via convoy``, ``F nth C A lon - nwy``, ``A mun S A ber - sil``,
``A mun - boh``, ``build F stp/nc``). These functions read exactly those forms and return the
order the full reader in ``parser.py`` would; for anything else, or anything doubtful, they
return None and the full reader takes over (a test pins that both agree). ``judge
adjudicate`` reads such orders by the million: through this path a phase's orders are read
about eleven times faster than through the grammar alone.
"""

from __future__ import annotations

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
    words = text.lower().split()
    n = len(words)
    if n < 3:
        return None
    utype, prov = _TYPES.get(words[0]), m.province_at.get(words[1])
    if utype is None or prov is None:
        return None
    loc = words[1]
    unit = position.units.get(prov)
    if unit is None or unit.power != power or unit.type != utype or ("/" in loc and loc != unit.location):
        return None
    verb = words[2]
    if n == 3 and verb in ("h", "hold"):
        return Hold(unit)
    via_convoy = n == 6 and words[4:] == ["via", "convoy"] and unit.type == ARMY
    at = m.province_at
    if (n == 4 or via_convoy) and verb == "-":
        dest = words[3]
        target = at.get(dest)
        if target is None:
            return None
        if unit.type == ARMY:
            if "/" in dest:
                return None
            return Move(unit, dest, True) if via_convoy else Move(unit, dest)
        if m.provinces[target].coasts and dest not in m.fleet_adj.get(unit.location, ()):
            return None
        return Move(unit, dest)
    if verb in ("s", "support", "c", "convoy") and n in (5, 7) and words[3] in ("a", "f"):
        where = at.get(words[4])
        other = position.units.get(where) if where is not None else None
        if other is None:
            return None
        if verb in ("s", "support"):
            if n == 5:
                return Support(unit, other.province, None, other.type, other.power)
            goal = at.get(words[6]) if words[5] == "-" else None
            if goal is None:
                return None
            return Support(unit, other.province, goal, other.type, other.power, words[6])
        if n == 7 and words[5] == "-" and words[3] == "a":
            dest = words[6]
            if dest not in at or "/" in dest:
                return None
            return Convoy(unit, other.province, dest, other.power)
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


