"""The starting position of a map."""

from __future__ import annotations

from .map import Map
from .phase import Phase
from .position import Position, Unit


def initial_position(m: Map) -> Position:
    """The map's start: its starting units, and every home centre owned by its power."""
    units = []
    owners = {}
    for pw in m.powers:
        for text in pw.units:
            utype, loc = text.split()
            units.append(Unit(pw.name, utype.upper(), loc.lower()))
        for h in pw.home:
            owners[h] = pw.name
    return Position.build(Phase.parse(m.start), units, owners=owners)
