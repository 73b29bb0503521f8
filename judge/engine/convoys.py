"""Convoy chains: searches over the fleets present, shared by validation and the resolver.

A convoy carries an army from its province to a destination through a chain of fleets,
each bordering the one before (``Map.fleet_reach``), the first bordering the army's
province and the last the destination (DATC 4.A.1 on several routes, 4.A.6 on written
paths). The fleets are given by province, with the units standing there; ``alive`` says
whether a fleet carries (the resolver asks whether it is dislodged, through its
guess-and-check loop).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from .map import Map
from .position import Unit

#: Does the fleet in this province carry the army? (The resolver: it is not dislodged.)
Alive = Callable[[str], bool]


def _carries(province: str) -> bool:
    return True


def connected(
    m: Map, units: Mapping[str, Unit], src: str, dest: str, fleets: Collection[str], alive: Alive = _carries
) -> bool:
    """Is there a chain of ``fleets`` (provinces holding fleets in ``units``)
    from province ``src`` to province ``dest``? One breadth-first search; a fleet that is
    not ``alive`` carries nothing."""
    reach = m.fleet_reach
    frontier = [f for f in fleets if src in reach.get(units[f].location, ())]
    seen = set(frontier)
    while frontier:
        f = frontier.pop()
        if not alive(f):
            continue
        near = reach.get(units[f].location, ())
        if dest in near:
            return True
        for g in fleets:
            if g not in seen and g in near:
                seen.add(g)
                frontier.append(g)
    return False


def route_fleets(m: Map, units: Mapping[str, Unit], src: str, dest: str, fleets: Collection[str]) -> set[str]:
    """The fleets that lie on some route from ``src`` to ``dest``: chains that start at a
    fleet bordering the army and end at the first fleet bordering the destination, none
    but the first bordering the army. A fleet reachable only off every route is on none
    (DATC 6.F.12)."""
    near = {f: m.fleet_reach.get(units[f].location, frozenset()) for f in fleets}
    on_route: set[str] = set()

    def walk(path: list[str]) -> None:
        last = path[-1]
        if dest in near[last]:
            on_route.update(path)
            return
        for g in fleets:
            if g not in path and g in near[last] and src not in near[g]:
                walk([*path, g])

    for first in fleets:
        if src in near[first]:
            walk([first])
    return on_route


def follows_path(
    m: Map, units: Mapping[str, Unit], src: str, dest: str, path: tuple[str, ...], fleets: Collection[str]
) -> bool:
    """Does the written ``path`` (DATC 4.A.6) run through ``fleets`` from ``src`` to
    ``dest``: each step a fleet bordering the place before, the last bordering ``dest``?"""
    reach = m.fleet_reach
    here = src
    for step in path:
        if step not in fleets or here not in reach.get(units[step].location, ()):
            return False
        here = step
    return here != src and dest in reach.get(units[here].location, ())
