"""One movement order set for a power: each unit toward valuable places (DumbBot's second
step, in our words), every order taken from the engine's legal orders.

Units are taken in a random order. Each ranks the places its legal moves reach, and its
own (to stay), by value (:mod:`judge.bots.values`) weighed by strength and competition, and
picks among the best few with a probability that falls with the gap to the best. Two units
never go to one place; a unit whose choice is taken picks again; a unit whose choice is
held by one of its own units not yet decided lets that unit choose first, and never moves
into a place one of its own units stays in, nor swaps places with one.

Beyond DumbBot, the variant routes are played as the rules allow them: an army is convoyed
only along a chain of its own fleets, which are then ordered to convoy it, and never to attack
a unit that could support an attack on one of those fleets (a convoy paradox voids it); a railway move is
made only when no foreign unit stands on the line between (else the move would be void), one
a turn; a fleet goes through a canal only when its own unit stands in the canal province,
and that unit then gives the permission the rules ask for (its support of the canal move).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..engine import ARMY, Board, Convoy, Hold, Move, Order, Position, Unit, province_of
from ..engine.legal import LegalOrders
from .values import Values, neighbours

#: how far below the best a choice may be and still be drawn, and how many are drawn among
NEAR_BEST, DRAWN = 0.8, 4
#: how much of a target's value a place next to it is worth for a unit that could then
#: support another's attack on it
STAGING = 0.5
#: what staying on an unthreatened home centre is worth while the power grows (it leaves
#: the centre free for a build)
CLEAR_HOME = 0.5


@dataclass
class Plan:
    """The orders chosen so far, by the province of each unit, and the places taken."""

    orders: dict[str, Order] = field(default_factory=dict)
    taken: dict[str, str] = field(default_factory=dict)  # destination province -> mover's province
    busy: set[str] = field(default_factory=set)  # units being decided (they count as staying)
    tsr_used: bool = False
    canal_used: bool = False

    def stays(self, province: str) -> bool:
        order = self.orders.get(province)
        return province in self.busy or (order is not None and not isinstance(order, Move))


def score(values: Values, unit: Unit, province: str) -> float:
    """A place's worth as the unit's destination: its value, more where the power is strong
    and less where another power can bring more units."""
    strength = values.strength.get(province, 0)
    competition = values.competition.get(province, 0)
    factor = max(0.3, 1.0 + 0.15 * (strength - competition))
    return values.of(unit.type, province) * factor


class Chooser:
    """Chooses one movement plan for ``power``; build one per position and draw plans."""

    def __init__(self, board: Board, position: Position, power: str, values: Values, legal: LegalOrders) -> None:
        self.board, self.map, self.position = board, board.map, position
        self.power, self.values, self.legal = power, values, legal
        self.units = sorted(position.units_of(power), key=lambda u: u.province)
        railway = self.map.rules.get("railway")
        self.stations: tuple[str, ...] = tuple(railway["stations"]) if isinstance(railway, Mapping) else ()
        canal = self.map.rules.get("canal")
        self.canal_province = str(canal["province"]).lower() if isinstance(canal, Mapping) else None
        self.targets = [c for c in self.map.supply_centres
                        if (u := position.units.get(c)) is not None and u.power != power]
        growing = len(position.centres_of(power)) >= len(self.units)
        self.homes = frozenset(self.map.power(power).home) if growing else frozenset()
        self.ranked = {u.province: self._rank(u) for u in self.units}

    def _staging(self, unit: Unit, dest: str) -> float:
        """Beyond DumbBot: the worth of ``dest`` as a place from which the unit could join
        another of its power's units in a supported attack on a foreign unit standing on a
        centre (one the unit cannot reach from where it is)."""
        near = neighbours(self.map)[unit.type]
        here, there = near.get(unit.province, frozenset()), near.get(dest, frozenset())
        best = 0.0
        for target in self.targets:
            if target in there and target not in here and self.values.strength.get(target, 0) >= 1:
                best = max(best, self.values.of(unit.type, target))
        return STAGING * best

    def _rank(self, unit: Unit) -> list[tuple[float, Move | None]]:
        stay = score(self.values, unit, unit.province)
        if unit.province in self.homes and self.values.competition.get(unit.province, 0) == 0:
            stay *= CLEAR_HOME
        options: list[tuple[float, Move | None]] = [(stay, None)]
        for mv in self.legal.moves(unit):
            if self._usable(mv):
                dest = province_of(mv.dest)
                options.append((score(self.values, unit, dest) + self._staging(unit, dest), mv))
        options.sort(key=lambda o: (-o[0], "" if o[1] is None else o[1].dest))
        return options

    def _usable(self, mv: Move) -> bool:
        """False for a move that could end void for want of what the power cannot give."""
        position = self.position
        if mv.via == "railway":
            i, j = self.stations.index(mv.unit.province), self.stations.index(province_of(mv.dest))
            between = self.stations[min(i, j) + 1:max(i, j)]
            return all((u := position.units.get(p)) is None or u.power == self.power for p in between) and \
                not any(d.unit.power != self.power for p in between if (d := position.dislodged.get(p)))
        if self.is_canal(mv):
            keeper = position.units.get(self.canal_province or "")
            return keeper is not None and keeper.power == self.power
        return True

    def is_canal(self, mv: Move) -> bool:
        return mv.unit.type != ARMY and mv.via is None and province_of(mv.dest) not in self.map.fleet_reach.get(
            mv.unit.location, ())

    def is_convoyed(self, mv: Move) -> bool:
        unit = mv.unit
        return unit.type == ARMY and mv.via is None and mv.dest not in self.map.army_adj.get(unit.location, ()) \
            and mv.dest not in self.map.army_hops.get(unit.location, ())

    def draw(self, rng: random.Random, *, bold: bool = False) -> Plan:
        """One plan: every unit decided, in a random order. A ``bold`` plan attacks a
        foreign unit with one support where the owner could bring more (it wins if they do
        not come: the adjudicator's check of the plans weighs the risk)."""
        plan = Plan()
        self._attacks(plan, rng, bold)
        order = list(self.units)
        rng.shuffle(order)
        order.sort(key=lambda u: u.type != ARMY)  # armies first: fleets are still free to convoy them
        for unit in order:
            self._decide(unit, plan, rng, 0)
        return plan

    def _attacks(self, plan: Plan, rng: random.Random, bold: bool) -> None:
        """Supported attacks on foreign units standing on centres (beyond DumbBot): where
        more of the power's units can move in than any other power could bring, one moves
        and as many as that power could bring support it. Targets are taken by value, the
        near ties in a random order."""
        m, position, power = self.map, self.position, self.power
        targets = [c for c in m.supply_centres if (u := position.units.get(c)) is not None and u.power != power]
        keyed = sorted(targets, key=lambda c: -self.values.of(position.units[c].type, c) * rng.uniform(0.85, 1.0))
        for target in keyed:
            attackers = [(u, mv) for u in self.units if u.province not in plan.orders
                         for mv in self.legal.moves(u)
                         if province_of(mv.dest) == target and mv.via is None and not self.is_convoyed(mv)]
            need = self.values.competition.get(target, 1)
            if bold:
                need = min(need, 1)
            if len(attackers) <= need or target in plan.taken:
                continue
            attackers.sort(key=lambda a: (-self.values.of(a[0].type, target), a[0].province))
            unit, mv = attackers[0]
            supports = []
            for helper, _ in attackers[1:]:
                found = [s for s in self.legal.supports(helper, [unit]) if s.dest == target]
                if found:
                    supports.append(found[0])
                if len(supports) == need:
                    break
            if len(supports) < need:
                continue
            plan.orders[unit.province] = mv
            plan.taken[target] = unit.province
            for s in supports:
                plan.orders[s.unit.province] = s
                plan.taken.setdefault(s.unit.province, s.unit.province)

    def _pick_order(self, unit: Unit, rng: random.Random) -> list[tuple[float, Move | None]]:
        """The unit's choices, the drawn one first, then the rest by rank."""
        ranked = self.ranked[unit.province]
        best = ranked[0][0]
        near = [o for o in ranked[:DRAWN] if o[0] >= NEAR_BEST * best] if best > 0 else ranked[:1]
        weights = [(o[0] / best) ** 6 if best > 0 else 1.0 for o in near]
        first = rng.choices(range(len(near)), weights=weights)[0]
        return [ranked[first], *ranked[:first], *ranked[first + 1:]]  # near is a prefix of ranked

    def _decide(self, unit: Unit, plan: Plan, rng: random.Random, depth: int) -> None:
        if unit.province in plan.orders or unit.province in plan.busy:
            return
        plan.busy.add(unit.province)
        for _, mv in self._pick_order(unit, rng):
            if mv is None:
                if unit.province not in plan.taken:
                    break
                continue
            if self._try(mv, plan, rng, depth):
                plan.busy.discard(unit.province)
                return
        plan.busy.discard(unit.province)
        plan.orders[unit.province] = Hold(unit)
        plan.taken.setdefault(unit.province, unit.province)

    def _try(self, mv: Move, plan: Plan, rng: random.Random, depth: int) -> bool:
        unit, dest = mv.unit, province_of(mv.dest)
        if dest in plan.taken:
            return False
        if mv.via == "railway" and plan.tsr_used:
            return False
        occupant = self.position.units.get(dest)
        if occupant is not None and occupant.power == self.power:
            if depth < 3:
                self._decide(occupant, plan, rng, depth + 1)
            there = plan.orders.get(dest)
            if plan.stays(dest) or (isinstance(there, Move) and province_of(there.dest) == unit.province):
                return False
            if dest in plan.taken:
                return False
        fleets: list[str] = []
        if self.is_convoyed(mv):
            found = self._own_chain(unit.province, dest, plan)
            if found is None or self._paradox_risk(dest, found):
                return False
            fleets = found
        keeper = None
        if self.is_canal(mv):
            keeper = self.position.units.get(self.canal_province or "")
            if plan.canal_used or keeper is None or keeper.power != self.power or (
                    keeper.province in plan.orders and not isinstance(plan.orders[keeper.province], Hold)):
                return False
        plan.orders[unit.province] = mv
        plan.taken[dest] = unit.province
        for f in fleets:
            plan.orders[f] = Convoy(self.position.units[f], unit.province, dest, self.power)
            plan.taken.setdefault(f, f)
        if keeper is not None:
            plan.canal_used = True
            plan.orders[keeper.province] = Hold(keeper)  # its permission is given with the supports
            plan.taken.setdefault(keeper.province, keeper.province)
        plan.tsr_used = plan.tsr_used or mv.via == "railway"
        return True

    def _paradox_risk(self, dest: str, chain: list[str]) -> bool:
        """True if the convoyed army would attack a foreign unit that could support an
        attack on a fleet of its own convoy (a convoy paradox: the convoy would be void)."""
        there = self.position.units.get(dest)
        return there is not None and there.power != self.power and any(
            self.map.reaches(there.type, there.location, f) for f in chain)

    def _own_chain(self, src: str, dest: str, plan: Plan) -> list[str] | None:
        """A shortest chain of the power's own undecided fleets at sea from ``src`` to
        ``dest`` (shortest, so that each fleet on it is needed), or None."""
        m = self.map
        free = {p: m.fleet_reach.get(u.location, frozenset()) for p, u in self.position.units.items()
                if u.power == self.power and u.type != ARMY and p in m.waters
                and p not in plan.orders and p not in plan.busy}
        frontier = [p for p, near in sorted(free.items()) if src in near]
        came: dict[str, str | None] = dict.fromkeys(frontier)
        while frontier:
            nxt: list[str] = []
            for f in frontier:
                if dest in free[f]:
                    chain = [f]
                    while (before := came[chain[-1]]) is not None:
                        chain.append(before)
                    return chain
                for g in sorted(free):
                    if g not in came and g in free[f]:
                        came[g] = f
                        nxt.append(g)
            frontier = nxt
        return None
