"""Every legal order of a unit or a power, enumerated through the validation.

A bot (``judge.bots``) or a tool that must never write an illegal order takes its
candidates from here: each function proposes what the map, the variant's routes (the
railway, the canal, island hops) and the convoy chains on the board make possible, and
keeps only what :class:`~judge.engine.validation.Legality` accepts. The orders are the
values the parser gives for their plain text (:mod:`judge.engine.plain`), so that an order
written out and read back is the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from .adjustments import adjustment_counts, build_sites
from .map import ARMY, FLEET, province_of
from .orders import Build, Convoy, Disband, Hold, Move, Order, OrderError, Remove, Retreat, Support, Waive
from .position import Position, Unit, unit_of
from .validation import Legality

if TYPE_CHECKING:
    from .board import Board

__all__ = ["LegalOrders", "adjustment_orders", "retreat_orders"]


def _legal(legality: Legality, orders: Iterable[Order]) -> Iterator[Order]:
    for order in orders:
        try:
            legality.check(order)
        except OrderError:
            continue
        yield order


class LegalOrders:
    """The legal movement orders of the units of one position, each kind asked for apart
    (a unit's moves, its supports, its convoys), computed when first asked and kept."""

    def __init__(self, board: Board, position: Position) -> None:
        self.board = board
        self.map = board.map
        self.position = position
        self.legality = Legality(board, position)
        self._moves: dict[str, tuple[Move, ...]] = {}
        rules = self.map.rules
        railway = rules.get("railway")
        self._stations: tuple[str, ...] = tuple(railway["stations"]) if isinstance(railway, Mapping) else ()
        canal = rules.get("canal")
        self._canal: tuple[str, ...] = tuple(str(s).lower() for s in canal["seas"]) \
            if isinstance(canal, Mapping) else ()

    def moves(self, unit: Unit) -> tuple[Move, ...]:
        """The unit's legal moves: across a border or hop, by convoy, by a variant route."""
        known = self._moves.get(unit.province)
        if known is not None:
            return known
        m, loc = self.map, unit.location
        candidates: list[Move] = []
        if unit.type == ARMY:
            near = m.army_adj.get(loc, frozenset()) | m.army_hops.get(loc, frozenset())
            candidates.extend(Move(unit, d) for d in sorted(near))
            if unit.province in m.shores:
                far = self.landings(unit.province) - near
                candidates.extend(Move(unit, d) for d in sorted(far) if d != unit.province)
            if unit.province in self._stations:
                candidates.extend(Move(unit, s, via="railway") for s in self._stations
                                  if s != unit.province and s not in near)
        else:
            candidates.extend(Move(unit, d) for d in sorted(m.fleet_adj.get(loc, ())))
            if unit.province in self._canal:
                other = next(s for s in self._canal if s != unit.province)
                if other not in m.fleet_reach.get(loc, ()):
                    candidates.append(Move(unit, other))
        found = tuple(o for o in _legal(self.legality, candidates) if isinstance(o, Move))
        self._moves[unit.province] = found
        return found

    def landings(self, province: str) -> frozenset[str]:
        """Where the fleets on the board could carry an army from ``province``: the
        shores holding armies that the fleets its convoy chains reach border."""
        convoys, m = self.legality.convoys, self.map
        shores = {p for f in convoys.reached(province) for p in convoys.near[f]}
        return frozenset(p for p in shores if p in m.shores and m.provinces[p].holds_armies)

    def orders(self, unit: Unit) -> list[Order]:
        """Every legal order of the unit: hold, moves, supports of every unit, convoys."""
        out: list[Order] = [Hold(unit), *self.moves(unit)]
        out.extend(self.supports(unit, self.position.units.values()))
        if unit.type == FLEET and self.map.provinces[unit.province].is_water:
            out.extend(self.convoys(unit, self.position.units.values()))
        return out

    def supports(self, unit: Unit, others: Iterable[Unit]) -> list[Support]:
        """The unit's legal supports of ``others``: to hold, and of each of their legal moves
        into a province it could move to itself."""
        m = self.map
        candidates: list[Support] = []
        for other in others:
            if other.province == unit.province:
                continue
            candidates.append(Support(unit, other.province, None, other.type, other.power))
            for mv in self.moves(other):
                dest = province_of(mv.dest)
                if dest != unit.province and (m.reaches(unit.type, unit.location, dest) or bool(self._canal)):
                    candidates.append(Support(unit, other.province, dest, other.type, other.power, dest))
        seen: set[Support] = set()
        out: list[Support] = []
        for order in _legal(self.legality, candidates):
            if isinstance(order, Support) and order not in seen:
                seen.add(order)
                out.append(order)
        return out

    def convoys(self, fleet: Unit, armies: Iterable[Unit]) -> list[Convoy]:
        """The fleet's legal convoys of ``armies`` (those on coasts) to where a chain of the
        fleets on the board could carry them."""
        m = self.map
        candidates: list[Convoy] = []
        for army in armies:
            if army.type != ARMY or army.province not in m.shores:
                continue
            for dest in sorted(self.landings(army.province)):
                if dest != army.province:
                    candidates.append(Convoy(fleet, army.province, dest, army.power))
        return [o for o in _legal(self.legality, candidates) if isinstance(o, Convoy)]


def retreat_orders(board: Board, position: Position, province: str) -> list[Order]:
    """The legal orders of the unit dislodged from ``province``: each retreat, and disband."""
    entry = position.dislodged[province]
    candidates: list[Order] = [Retreat(entry.unit, r) for r in entry.retreats]
    candidates.append(Disband(entry.unit))
    return list(_legal(Legality(board, position), candidates))


def adjustment_orders(board: Board, position: Position, power: str) -> list[Order]:
    """The legal adjustment orders of ``power``: builds of each type on each site (and a
    waive) when it has builds, removals of each unit when it must remove; else none."""
    count = adjustment_counts(board, position).get(power, 0)
    m = board.map
    candidates: list[Order] = []
    if count > 0:
        for site in build_sites(m, position, power):
            if m.provinces[site].holds_armies:
                candidates.append(Build(unit_of(power, ARMY, site)))
            candidates.extend(Build(unit_of(power, FLEET, loc)) for loc in m.fleet_locations(site))
        candidates.append(Waive(power))
    elif count < 0:
        candidates.extend(Remove(u) for u in sorted(position.units_of(power), key=lambda u: u.province))
    return list(_legal(Legality(board, position), candidates))
