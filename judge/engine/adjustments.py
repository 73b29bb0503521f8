"""Adjustments: builds, removals and waives after each Fall, and civil-disorder removals.

Each power may build one unit per owned centre beyond its units, in a vacant home centre it
owns, and must remove one unit per unit beyond its centres. Orders are taken one by one:
surplus or invalid ones fail (DATC 4.D.4-4.D.6; the board's ``adjustment_surplus`` choice
may count the last ones instead, or void them all). Builds left unordered are waived;
removals left unordered follow the civil-disorder rule (DATC 4.D.8, the board's
``civil_disorder`` choice), see :func:`disorder_order`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from .choices import DISORDER_2000, LAST, VOID_ALL
from .map import ARMY, FLEET, Map, province_of
from .orders import Build, Remove, Waive
from .position import Position, Unit
from .results import VOID, OrderResult, Tally

if TYPE_CHECKING:
    from .board import Board

#: How much a centre counts for its owner: ``(centre, power) -> 0 or 1`` (Colonial's Hong
#: Kong counts for nobody in China's hands); None counts every centre once.
CentreValue = Callable[[str, str], int]
AdjustmentOrder = Build | Remove | Waive


def centre_counts(board: Board, owners: Mapping[str, str]) -> dict[str, int]:
    """Centres per power, as they count for builds and victory (variants may weigh them:
    Colonial's Hong Kong counts for nobody in China's hands). Every count of centres a
    person reads comes from here."""
    counts = {p.name: 0 for p in board.map.powers}
    value = board.rules.centre_value
    for centre, power in owners.items():
        counts[power] = counts.get(power, 0) + (value(centre, power) if value else 1)
    return counts


def adjustment_counts(board: Board, position: Position) -> dict[str, int]:
    """Per power: centres (as the board's rules count them) minus units; positive: builds
    allowed, negative: removals due."""
    counts = centre_counts(board, position.owners)
    for unit in position.units.values():
        counts[unit.power] = counts.get(unit.power, 0) - 1
    return counts


def tally(board: Board, position: Position) -> tuple[Tally, ...]:
    """Every power's :class:`Tally` in ``position``, in map order."""
    centres = centre_counts(board, position.owners)
    units = dict.fromkeys(centres, 0)
    for unit in position.units.values():
        units[unit.power] = units.get(unit.power, 0) + 1
    return tuple(Tally(p.name, centres[p.name], units[p.name]) for p in board.map.powers)


def build_sites(m: Map, position: Position, power: str) -> list[str]:
    """The vacant home centres ``power`` owns: where it may build."""
    pw = m.power(power)
    return [
        h for h in pw.home
        if position.owners.get(h) == power and h not in position.units
    ]


def adjustments_due(board: Board, position: Position) -> dict[str, int]:
    """The adjustments that will actually happen: builds capped by the free sites, removals
    as due. Powers with nothing to do are left out."""
    due: dict[str, int] = {}
    for power, n in adjustment_counts(board, position).items():
        if n > 0:
            n = min(n, len(build_sites(board.map, position, power)))
        if n:
            due[power] = n
    return due


def _distances(adjacent: Callable[[str], Iterable[str]], sources: Iterable[str]) -> dict[str, int]:
    """Moves from every place to the nearest of ``sources`` (breadth-first)."""
    dist = dict.fromkeys(sources, 0)
    queue = deque(dist)
    while queue:
        here = queue.popleft()
        for nxt in adjacent(here):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def distances_to_owned_centres(m: Map, position: Position, power: str) -> dict[str, int]:
    """Moves from each province to the nearest centre ``power`` owns, over land and sea
    alike, for armies and fleets (the 2023 rule)."""
    owned = [c for c, p in position.owners.items() if p == power]
    return _distances(lambda p: m.any_adj.get(p, ()), owned)


def _distances_to_home(m: Map, power: str, unit_type: str) -> dict[str, int]:
    """The rule before 2023 (DATC 2): moves to the nearest home centre, owned or not; an
    army counts moves over land and sea (by province), a fleet only fleet moves (by
    location, so that both coasts of a home centre count)."""
    home = m.power(power).home
    if unit_type == ARMY:
        return _distances(lambda p: m.any_adj.get(p, ()), home)
    return _distances(lambda loc: m.fleet_adj.get(loc, ()), [loc for h in home for loc in m.fleet_locations(h)])


def disorder_order(board: Board, position: Position, power: str) -> list[Unit]:
    """The power's units in the order civil disorder removes them: farthest first (2023:
    from an owned centre; 2000: from a home centre, fleets by sea); at equal distance fleets
    before armies; then by the province's English name."""
    m = board.map
    far = 1 << 30
    if board.datc.civil_disorder == DISORDER_2000:
        by_type = {t: _distances_to_home(m, power, t) for t in (ARMY, FLEET)}

        def distance(u: Unit) -> int:
            return by_type[u.type].get(u.province if u.type == ARMY else u.location, far)
    else:
        owned = distances_to_owned_centres(m, position, power)

        def distance(u: Unit) -> int:
            return owned.get(u.province, far)

    return sorted(
        position.units_of(power),
        key=lambda u: (-distance(u), 0 if u.type == FLEET else 1, m.provinces[u.province].name.lower()),
    )


class _Taking:
    """Adjustment orders taken one at a time against what each power may still do."""

    def __init__(self, board: Board, position: Position) -> None:
        self.map = board.map
        self.position = position
        self.start = adjustment_counts(board, position)
        self.left = dict(self.start)
        self.units = dict(position.units)
        self.built: set[str] = set()
        self.surplus: set[str] = set()  # powers with a legal order beyond what they may do

    def take(self, order: AdjustmentOrder) -> bool:
        """Carry the order out if it is legal and the power may still do it."""
        power = order.power
        due, left = self.start.get(power, 0), self.left.get(power, 0)
        if isinstance(order, Waive):
            legal, room = due > 0, left > 0
        elif isinstance(order, Build):
            prov = order.unit.province
            legal = due > 0 and prov in build_sites(self.map, self.position, power) and (
                self.map.can_hold(order.unit.type, order.unit.location)
            )
            room = left > 0 and prov not in self.built  # 4.D.5: a second build in one province
        else:
            there = self.position.units.get(order.unit.province)
            legal = due < 0 and there is not None and there.power == power
            if legal and order.unit.province not in self.units:
                return False  # removed already (DATC 6.J.2): no surplus, simply nothing there
            room = left < 0
        if legal and not room:
            self.surplus.add(power)
        if not (legal and room):
            return False
        if isinstance(order, Build):
            self.left[power] -= 1
            self.built.add(order.unit.province)
            self.units[order.unit.province] = order.unit
        elif isinstance(order, Remove):
            self.left[power] += 1
            del self.units[order.unit.province]
        else:
            self.left[power] -= 1
        return True


def resolve_adjustments(
    board: Board, position: Position, orders: Iterable[AdjustmentOrder]
) -> tuple[list[OrderResult], list[Unit]]:
    """Adjudicate an adjustment phase. Returns the results (given orders first, in the order
    given, then the judge's defaults) and the units on the board afterwards."""
    given = list(orders)
    surplus = board.datc.adjustment_surplus
    turn = list(reversed(given)) if surplus == LAST else given
    taking = _Taking(board, position)
    ok = [taking.take(o) for o in turn]
    if surplus == VOID_ALL and taking.surplus:  # DATC 4.D.4-4.D.6 choice a: all fail
        voided = taking.surplus
        taking = _Taking(board, position)
        ok = [o.power not in voided and taking.take(o) for o in turn]
    if surplus == LAST:
        ok.reverse()
    results = [OrderResult(o, () if fine else (VOID,)) for o, fine in zip(given, ok, strict=True)]
    units = taking.units
    for pw in board.map.powers:
        n = taking.left.get(pw.name, 0)
        if n < 0:
            remaining = Position(position.phase, units, owners=position.owners)
            for unit in disorder_order(board, remaining, pw.name)[: -n]:
                del units[province_of(unit.location)]
                results.append(OrderResult(Remove(unit), (), default=True))
        elif n > 0:
            free = [s for s in build_sites(board.map, position, pw.name) if s not in taking.built]
            for _ in range(min(n, len(free))):
                results.append(OrderResult(Waive(pw.name), (), default=True))
    return results, list(units.values())
