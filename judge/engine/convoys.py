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

from .map import FLEET, Map
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
    """The fleets that lie on some route from ``src`` to ``dest`` with no shortcut: a chain
    that starts at a fleet bordering the army, ends at the first fleet bordering the
    destination, has no fleet but the first bordering the army and no fleet bordering
    another but its neighbours. A fleet reachable only off every such route is on none
    (DATC 6.F.12, 6.G.19)."""
    return _route_fleets({f: m.fleet_reach.get(units[f].location, frozenset()) for f in fleets}, src, dest, fleets)


def _route_fleets(near: Mapping[str, frozenset[str]], src: str, dest: str, fleets: Collection[str]) -> set[str]:
    """:func:`route_fleets` given what each fleet borders (``near``)."""
    on_route: set[str] = set()
    # each chain with the fleets that may not lengthen it: its own, and those bordering any of
    # its fleets but the last (a shortcut)
    paths: list[tuple[tuple[str, ...], frozenset[str]]] = [
        ((first,), frozenset((first,))) for first in fleets if src in near[first]
    ]
    while paths:  # every chain with no shortcut, one fleet longer at a time
        path, barred = paths.pop()
        here = near[path[-1]]
        if dest in here:
            on_route.update(path)
            continue
        for g in here.intersection(fleets) - barred:
            if src not in near[g]:
                paths.append(((*path, g), barred | here))
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


class ConvoyReach:
    """The convoy chains one position allows, before any order is known (legality at entry,
    DATC 4.E.1): the fleets standing on water (seas, island chains) in ``units``.

    One breadth-first search per army province gives the fleets a chain from it reaches, and
    with them every destination (:meth:`reaches`). Whether a fleet may convoy an army to a
    destination asks more: the fleet must be needed on some chain there (DATC 6.G.19), that
    is lie on a chain with no shortcut (no fleet but the first borders the army's province,
    no fleet but the last borders the destination, no fleet borders another but its
    neighbours). :meth:`route_fleets` finds those once per army and destination, searching
    only the fleets the army's search reached.
    """

    def __init__(self, m: Map, units: Mapping[str, Unit]) -> None:
        self.map = m
        self.units = units
        reach, waters = m.fleet_reach, m.waters
        # the fleets standing on water, each with the provinces it borders (read once for all searches)
        self.near: dict[str, frozenset[str]] = {
            p: reach.get(u.location, frozenset()) for p, u in units.items() if u.type == FLEET and p in waters
        }
        self.fleets = frozenset(self.near)
        self._reached: dict[str, frozenset[str]] = {}
        self._routes: dict[tuple[str, str], frozenset[str]] = {}

    def _search(self, src: str, fleets: frozenset[str]) -> frozenset[str]:
        """Breadth-first over ``fleets`` from the fleets bordering ``src``."""
        near = self.near
        seen = set(self.map.water_near.get(src, frozenset()) & fleets)
        frontier = list(seen)
        while frontier:
            for g in near[frontier.pop()] & fleets:
                if g not in seen:
                    seen.add(g)
                    frontier.append(g)
        return frozenset(seen)

    def reached(self, src: str) -> frozenset[str]:
        """The fleets a chain from the army's province ``src`` reaches."""
        found = self._reached.get(src)
        if found is None:
            found = self._reached[src] = self._search(src, self.fleets)
        return found

    def reaches(self, src: str, dest: str, *, without: str | None = None) -> bool:
        """Could a convoy carry an army from ``src`` to ``dest``? ``without``: a province
        whose fleet may not be used (a supporter, DATC 6.D.31)."""
        reached = self.reached(src)
        if without in reached:
            reached = self._search(src, self.fleets - {without})
        return not reached.isdisjoint(self.map.water_near.get(dest, ()))

    def route_fleets(self, src: str, dest: str) -> frozenset[str]:
        """The fleets needed on some chain from ``src`` to ``dest`` (see the class text)."""
        key = (src, dest)
        found = self._routes.get(key)
        if found is None:
            candidates = self.reached(src) if src != dest else frozenset()
            found = self._routes[key] = frozenset(_route_fleets(self.near, src, dest, candidates))
        return found
