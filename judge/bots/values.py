"""What every place on the board is worth to one power (DumbBot's first step, in our words).

1. Each power's size is a quadratic in its centre count (``n² + 4n + 16``): bigger powers
   count for more, as targets and as threats.
2. A centre the power owns is worth defending by the size of the strongest other power with
   a unit that could move into it; a centre it does not own is worth attacking by the size
   of its owner (an unowned centre by the size of an average power). Other places are worth
   nothing to begin with.
3. Attack and defence are weighed by the season (in the fall, before the centres are
   counted, defence weighs more) and the values are spread over ten rings of neighbours,
   per unit type: a ring's value of a place is its own value plus its neighbours', divided
   by five. A place's value for a type is the weighted sum of its rings, so that a unit far
   from any centre still feels the nearest ones. For an army a shore across one water
   province counts as a neighbour at a quarter (it needs a convoy).
4. Strength and competition: how many of the power's units could move into a place, and the
   most units any one other power could.

The neighbours are read from the board (armies along borders and hops, and at a quarter
across one water province where a convoy could carry them; fleets along their coasts), never from a
map's name, so every map plays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from ..engine import ARMY, FLEET, Board, Map, Position, province_of

RINGS = 10
DIVISOR = 5.0
RING_WEIGHTS = (100.0, 60.0, 30.0, 16.0, 8.0, 5.0, 3.0, 2.0, 1.0, 1.0)
#: (attack, defence) weights in spring and in fall (DumbBot's published figures)
SEASON_WEIGHTS = {"S": (700.0, 300.0), "F": (600.0, 400.0)}


def size(centres: int) -> float:
    """A power's size for its centre count."""
    return float(centres * centres + 4 * centres + 16)


#: how much a neighbour across one water province counts for an army (it needs a convoy)
ACROSS_WATER = 0.25


@cache
def neighbours(m: Map) -> dict[str, dict[str, frozenset[str]]]:
    """Per unit type, the provinces a unit of that type in each province could move to."""
    army: dict[str, set[str]] = {p: set() for p in m.provinces}
    fleet: dict[str, set[str]] = {p: set() for p in m.provinces}
    for src, dsts in m.army_adj.items():
        army[province_of(src)].update(province_of(d) for d in dsts)
    for src, hops in m.army_hops.items():
        army[province_of(src)].update(hops)
    for src, reach in m.fleet_reach.items():
        fleet[province_of(src)].update(reach)
    return {ARMY: {p: frozenset(v) for p, v in army.items()},
            FLEET: {p: frozenset(v) for p, v in fleet.items()}}


@cache
def across_water(m: Map) -> dict[str, frozenset[str]]:
    """The shores an army in each province could reach across one water province by a
    convoy, beyond its own moves."""
    near = neighbours(m)[ARMY]
    out: dict[str, set[str]] = {p: set() for p in m.provinces}
    for water in m.waters:
        shores = [p for p in m.fleet_reach.get(water, ()) if m.provinces[p].holds_armies]
        for p in shores:
            out[p].update(q for q in shores if q != p and q not in near[p])
    return {p: frozenset(v) for p, v in out.items()}


@dataclass(frozen=True)
class Values:
    """One power's values of the board in one position: per unit type, per province."""

    power: str
    by_type: Mapping[str, Mapping[str, float]]
    strength: Mapping[str, int]
    competition: Mapping[str, int]
    scale: float

    def of(self, unit_type: str, province: str) -> float:
        return self.by_type[unit_type].get(province, 0.0)


def _reach(m: Map, position: Position) -> dict[str, dict[str, int]]:
    """Per province, per power: how many of its units could move there (a unit's own
    province counted, as it may hold)."""
    near = neighbours(m)
    out: dict[str, dict[str, int]] = {}
    for prov, u in position.units.items():
        adj = m.army_adj.get(u.location, frozenset()) | m.army_hops.get(u.location, frozenset()) \
            if u.type == ARMY else m.fleet_reach.get(u.location, frozenset())
        for p in {prov, *(province_of(d) for d in adj)} & near[u.type].keys():
            per = out.setdefault(p, {})
            per[u.power] = per.get(u.power, 0) + 1
    return out


def values_of(board: Board, position: Position, power: str) -> Values:
    """The values of every province for ``power`` in ``position``."""
    m = board.map
    counts: dict[str, int] = {p.name: 0 for p in m.powers}
    for owner in position.owners.values():
        counts[owner] = counts.get(owner, 0) + 1
    sizes = {p: size(n) for p, n in counts.items()}
    unowned = size(round(sum(counts.values()) / max(1, len(counts))))
    reach = _reach(m, position)
    attack_w, defence_w = SEASON_WEIGHTS.get(position.phase.season, SEASON_WEIGHTS["S"])
    base: dict[str, float] = {}
    for centre in m.supply_centres:
        held_by = position.owners.get(centre)
        if held_by == power:
            threats = [sizes.get(q, 0.0) for q in reach.get(centre, {}) if q != power]
            base[centre] = defence_w * max(threats, default=0.0)
        else:
            base[centre] = attack_w * (sizes.get(held_by, unowned) if held_by else unowned)
    by_type: dict[str, dict[str, float]] = {}
    sea = across_water(m)
    for unit_type, adj in neighbours(m).items():
        ring = {p: base.get(p, 0.0) for p in m.provinces}
        total = {p: RING_WEIGHTS[0] * v for p, v in ring.items()}
        for k in range(1, RINGS):
            if unit_type == ARMY:
                ring = {p: (v + sum(ring[n] for n in adj[p]) + ACROSS_WATER * sum(ring[n] for n in sea[p])) / DIVISOR
                        for p, v in ring.items()}
            else:
                ring = {p: (v + sum(ring[n] for n in adj[p])) / DIVISOR for p, v in ring.items()}
            w = RING_WEIGHTS[k]
            for p, v in ring.items():
                total[p] += w * v
        by_type[unit_type] = {p: v for p, v in total.items() if m.can_hold(unit_type, p) or
                              (unit_type == FLEET and m.provinces[p].coasts)}
    strength = {p: per.get(power, 0) for p, per in reach.items()}
    competition = {p: max((n for q, n in per.items() if q != power), default=0) for p, per in reach.items()}
    scale = max((v for t in by_type.values() for v in t.values()), default=1.0) or 1.0
    return Values(power, by_type, strength, competition, scale)
