"""Orders as programs write them, read without the full grammar.

Bots, tools and the benchmark write orders in one plain form with canonical abbreviations
(``A par - bur``, ``F nth C A lon - nwy``, ``A mun S A ber - sil``, ``A mun - boh``, ``build
F stp/nc``). These functions read exactly those forms and return the order the full reader
in ``parser.py`` would; for anything else, or anything doubtful, they return None and the
full reader takes over (a test pins that both agree). This keeps a judge's per-phase work
small without a second set of rules.
"""

from __future__ import annotations

from .map import ARMY, Map, province_of
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


def canonical(m: Map, token: str) -> str | None:
    """``token`` if it is exactly a canonical location of the map, else None."""
    if token in m.provinces:
        return token
    if "/" in token and (token in m.fleet_adj):
        return token
    return None


def read_movement(m: Map, position: Position, power: str, text: str) -> Order | None:
    """The orders a program writes (``A par - bur``, ``F nth C A lon - nwy``, ``A mun S A
    ber - sil``, ``A par H``) in canonical abbreviations, read without the full reader.
    Anything else (or anything doubtful) returns None and takes the full path, which gives
    the same order or the player's error message."""
    words = text.lower().split()
    n = len(words)
    if n < 3 or words[0] not in ("a", "f"):
        return None
    loc = canonical(m, words[1])
    if loc is None:
        return None
    unit = position.units.get(province_of(loc))
    if unit is None or unit.power != power or unit.type != words[0].upper() or (
        "/" in loc and loc != unit.location
    ):
        return None
    verb = words[2]
    if n == 3 and verb in ("h", "hold"):
        return Hold(unit)
    if n == 4 and verb == "-":
        dest = canonical(m, words[3])
        if dest is None:
            return None
        target = m.provinces[province_of(dest)]
        if unit.type == ARMY:
            return Move(unit, dest) if "/" not in dest else None
        if target.coasts and (dest not in m.fleet_adj.get(unit.location, ())):
            return None
        return Move(unit, dest)
    if verb in ("s", "support", "c", "convoy") and n in (5, 7) and words[3] in ("a", "f"):
        other_loc = canonical(m, words[4])
        if other_loc is None:
            return None
        other = position.units.get(province_of(other_loc))
        if other is None:
            return None
        if verb in ("s", "support"):
            if n == 5:
                return Support(unit, other.province, None, other.type, other.power)
            dest = canonical(m, words[6]) if words[5] == "-" else None
            if dest is None:
                return None
            return Support(unit, other.province, province_of(dest), other.type, other.power, dest)
        if n == 7 and words[5] == "-" and words[3] == "a":
            dest = canonical(m, words[6])
            if dest is None or "/" in dest:
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


