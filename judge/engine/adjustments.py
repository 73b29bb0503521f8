"""Adjustments: builds, removals and waives after each Fall, and civil-disorder removals.

Each power may build one unit per owned centre beyond its units, in a vacant home centre it
owns, and must remove one unit per unit beyond its centres. Orders are taken one by one:
surplus or invalid ones fail (DATC 4.D.4-4.D.6). Builds left unordered are waived; removals
left unordered follow the 2023 civil-disorder rule (DATC 4.D.8), see :func:`disorder_order`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from .map import FLEET, Map, province_of
from .orders import Build, Remove, Waive
from .position import Position, Unit
from .results import VOID, OrderResult

#: How much a centre counts for its owner: ``(centre, power) -> 0 or 1`` (Colonial's Hong
#: Kong counts for nobody in China's hands); None counts every centre once.
CentreValue = Callable[[str, str], int]


def adjustment_counts(m: Map, position: Position, centre_value: CentreValue | None = None) -> dict[str, int]:
    """Per power: centres minus units (positive: builds allowed; negative: removals due)."""
    counts = {p.name: 0 for p in m.powers}
    for centre, power in position.owners.items():
        counts[power] = counts.get(power, 0) + (centre_value(centre, power) if centre_value else 1)
    for unit in position.units.values():
        counts[unit.power] = counts.get(unit.power, 0) - 1
    return counts


def build_sites(m: Map, position: Position, power: str) -> list[str]:
    """The vacant home centres ``power`` owns: where it may build."""
    pw = m.power(power)
    return [
        h for h in pw.home
        if position.owners.get(h) == power and h not in position.units
    ]


def adjustments_due(m: Map, position: Position, centre_value: CentreValue | None = None) -> dict[str, int]:
    """The adjustments that will actually happen: builds capped by the free sites, removals
    as due. Powers with nothing to do are left out."""
    due: dict[str, int] = {}
    for power, n in adjustment_counts(m, position, centre_value).items():
        if n > 0:
            n = min(n, len(build_sites(m, position, power)))
        if n:
            due[power] = n
    return due


def distances_to_owned_centres(m: Map, position: Position, power: str) -> dict[str, int]:
    """Moves from each province to the nearest centre ``power`` owns, over land and sea alike."""
    owned = [c for c, p in position.owners.items() if p == power]
    dist = {c: 0 for c in owned}
    queue = deque(owned)
    while queue:
        here = queue.popleft()
        for nxt in m.any_adj.get(here, ()):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def disorder_order(m: Map, position: Position, power: str) -> list[Unit]:
    """The power's units in the order civil disorder removes them: farthest from an owned
    centre first; at equal distance fleets before armies; then by the province's name."""
    dist = distances_to_owned_centres(m, position, power)
    far = 1 << 30
    return sorted(
        position.units_of(power),
        key=lambda u: (-dist.get(u.province, far), 0 if u.type == FLEET else 1,
                       m.provinces[u.province].name.lower()),
    )


def resolve_adjustments(
    m: Map, position: Position, orders: Iterable[Build | Remove | Waive],
    *, sites: Sequence[str] | None = None, centre_value: CentreValue | None = None,
) -> tuple[list[OrderResult], list[Unit]]:
    """Adjudicate an adjustment phase. Returns the results (given orders first, then the
    judge's defaults) and the units on the board afterwards. ``centre_value`` weighs the
    centres as the variant counts them (Hong Kong)."""
    counts = adjustment_counts(m, position, centre_value)
    left = dict(counts)
    units = dict(position.units)
    results: list[OrderResult] = []
    built: set[str] = set()
    for order in orders:
        power = order.power
        if isinstance(order, Waive):
            ok = left.get(power, 0) > 0
            if ok:
                left[power] -= 1
        elif isinstance(order, Build):
            prov = order.unit.province
            allowed = sites if sites is not None else build_sites(m, position, power)
            ok = (
                left.get(power, 0) > 0 and prov in allowed and prov not in built
                and prov not in units and m.can_hold(order.unit.type, order.unit.location)
            )
            if ok:
                left[power] -= 1
                built.add(prov)
                units[prov] = order.unit
        else:
            prov = order.unit.province
            current = units.get(prov)
            ok = (
                left.get(power, 0) < 0 and current is not None and current.power == power
                and prov in position.units and prov not in built
            )
            if ok:
                left[power] += 1
                del units[prov]
        results.append(OrderResult(order, () if ok else (VOID,)))
    for pw in m.powers:
        n = left.get(pw.name, 0)
        if n < 0:
            remaining = Position(position.phase, units, owners=position.owners)
            for unit in disorder_order(m, remaining, pw.name)[: -n]:
                del units[province_of(unit.location)]
                results.append(OrderResult(Remove(unit), (), default=True))
        elif n > 0 and counts.get(pw.name, 0) > 0:
            free = [s for s in build_sites(m, position, pw.name) if s not in built]
            for _ in range(min(n, len(free))):
                results.append(OrderResult(Waive(pw.name), (), default=True))
    return results, list(units.values())
