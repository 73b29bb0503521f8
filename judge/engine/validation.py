"""Legality of an order at entry (DATC 4.E.1): an order is legal if, not knowing the other
orders, it could be valid. An illegal order is refused when the player sends it; the unit
then has no order (and holds).

What "could be valid" means for convoys: the fleets a convoy needs must stand on the board
now, since that is known without the other orders. An army may move to a province it does
not border only along a chain of water provinces (sea or dual) each holding a fleet; a fleet
may convoy only if it is needed on such a chain (DATC 6.G.19); a unit may support a
convoyed move only if a chain exists without the supporter itself (DATC 6.D.31). The
chains are searched over the fleets present, once per army and position
(:class:`~judge.engine.convoys.ConvoyReach`): :class:`Legality` keeps that search for all
the orders of one position, and :func:`check_order` checks one order alone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .convoys import ConvoyReach
from .map import ARMY, FLEET, Map, province_of
from .notation import describe_unit
from .orders import Build, Convoy, Disband, Hold, Move, Order, OrderError, Remove, Retreat, Support, Waive
from .phase import ADJUSTMENT, MOVEMENT, RETREAT
from .position import Position, Unit

if TYPE_CHECKING:
    from .board import Board

__all__ = ["Legality", "check_order", "check_order_set"]

_PHASE_OF = {
    Hold: MOVEMENT, Move: MOVEMENT, Support: MOVEMENT, Convoy: MOVEMENT,
    Retreat: RETREAT, Disband: RETREAT,
    Build: ADJUSTMENT, Remove: ADJUSTMENT, Waive: ADJUSTMENT,
}
_PHASE_WORDS = {MOVEMENT: "movement", RETREAT: "retreat", ADJUSTMENT: "adjustment"}


def _place(m: Map, province: str) -> str:
    return m.location_name(province)


def _refusal(m: Map, unit: Unit, why: str) -> OrderError:
    """The refusal of an order of ``unit``: ``Army Munich cannot move to North Sea.``"""
    return OrderError(f"{describe_unit(m, unit)} {why}")


def _water(m: Map, province: str) -> bool:
    prov = m.provinces.get(province)
    return prov is not None and prov.is_water


def _check_unit(m: Map, position: Position, unit: Unit, *, dislodged: bool = False) -> None:
    if dislodged:
        entry = position.dislodged.get(unit.province)
        there = entry.unit if entry is not None else None
    else:
        there = position.units.get(unit.province)
    if there is unit or (there == unit and there.power == unit.power):
        return
    where = m.location_name(unit.province, article=True)
    if there is None:
        raise OrderError(f"No dislodged unit in {where}." if dislodged else f"No unit in {where}.")
    if there.power != unit.power:
        raise OrderError(f"The unit in {where} is not yours.")
    raise OrderError(f"The unit in {where} is {describe_unit(m, there)}, not {describe_unit(m, unit)}.")


def _check_retreat(m: Map, position: Position, order: Retreat) -> None:
    entry = position.dislodged[order.unit.province]
    if order.dest not in entry.retreats:
        me = describe_unit(m, order.unit)
        if not entry.retreats:
            raise OrderError(f"{me} cannot retreat anywhere; it can only disband.")
        options = " or ".join(m.location_name(r) for r in entry.retreats)
        raise OrderError(f"{me} cannot retreat to {m.location_name(order.dest)}; it can retreat to {options}.")


class Legality:
    """The legality at entry of orders in one position on one board. Build one per
    position to check many orders (the convoy chains are searched once per army); see
    :func:`check_order` for one order."""

    def __init__(self, board: Board, position: Position) -> None:
        self.board = board
        self.map = board.map
        self.position = position
        self.kind = position.phase.kind
        self._convoys: ConvoyReach | None = None

    @property
    def convoys(self) -> ConvoyReach:
        """The position's convoy chains, searched when first needed."""
        if self._convoys is None:
            self._convoys = ConvoyReach(self.map, self.position.units)
        return self._convoys

    def check(self, order: Order) -> None:
        """Raise :class:`OrderError` if ``order`` cannot be valid in the position."""
        m, position = self.map, self.position
        if type(order) is Move and self.kind == MOVEMENT and order.via is None and not order.route:
            # the commonest order, to a place the unit borders: settled without building anything
            unit = order.unit
            if position.units.get(unit.province) is unit and (
                order.dest in m.army_adj.get(unit.location, ()) if unit.type == ARMY
                else not order.via_convoy and order.dest in m.fleet_adj.get(unit.location, ())
            ):
                return
        kind = _PHASE_OF.get(type(order))
        if kind != self.kind:
            if kind is None:
                raise OrderError(f"Not an order: {order!r}.")
            word = _PHASE_WORDS[kind]
            article = "an" if word[0] in "aeiou" else "a"
            raise OrderError(
                f"That is {article} {word} order, but this is the {_PHASE_WORDS[self.kind]} phase."
            )
        if isinstance(order, Move):
            if position.units.get(order.unit.province) is not order.unit:  # else: the very unit
                _check_unit(m, position, order.unit)
            self._move(order)
        elif isinstance(order, (Hold, Support, Convoy)):
            if position.units.get(order.unit.province) is not order.unit:
                _check_unit(m, position, order.unit)
            if isinstance(order, Support):
                self._support(order)
            elif isinstance(order, Convoy):
                self._convoy(order)
        elif isinstance(order, (Retreat, Disband)):
            _check_unit(m, position, order.unit, dislodged=True)
            if isinstance(order, Retreat):
                _check_retreat(m, position, order)
        elif isinstance(order, Waive):
            if self._balance(order.power) <= 0:
                raise OrderError(f"{order.power} has no builds to waive.")
        elif isinstance(order, Build):
            self._build(order)
        else:
            _check_unit(m, position, order.unit)
            if self._balance(order.power) >= 0:
                raise OrderError(f"{order.power} has no units to remove.")

    def settled(self, order: Order) -> bool:
        """True if ``order``, found legal by :meth:`check`, is legal in every position of
        this board and phase kind in which the units it names stand as they stand now: its
        legality rests on the map and those units alone (a hold, a move or a support across
        a border), not on fleets elsewhere (a convoy, a convoyed move) or on a variant's
        reading of the position. ``judge adjudicate`` keeps such verdicts for the order
        lines a tool sends phase after phase."""
        if self.kind != MOVEMENT:
            return False
        m, t = self.map, type(order)
        if t is Hold:
            return True
        if t is Move:
            assert isinstance(order, Move)
            unit = order.unit
            return order.via is None and not order.route and (
                m.adjacent(ARMY, unit.location, order.dest) if unit.type == ARMY
                else not order.via_convoy and m.adjacent(FLEET, unit.location, order.dest))
        if t is Support and not self.board.rules.support_checks:
            assert isinstance(order, Support)
            if order.dest is None:
                return True
            other = self.position.units.get(order.target)
            return other is not None and (
                m.reaches(FLEET, other.location, order.dest) if other.type == FLEET
                else m.adjacent(ARMY, other.location, order.dest))
        return False

    # -- movement -----------------------------------------------------------------------
    def _army_can_reach(self, src: str, dest: str, without: str | None = None) -> bool:
        if self.map.adjacent(ARMY, src, dest):  # a drawn border, or a variant's hop (Oceania)
            return True
        return self.convoys.reaches(province_of(src), dest, without=without)

    def _move(self, order: Move) -> None:
        m = self.map
        unit, dest = order.unit, order.dest
        if unit.type == FLEET and order.via is None and not order.route and not order.via_convoy and (
            dest in m.fleet_adj.get(unit.location, ())
        ):
            return  # the common case, settled without building any message
        if unit.type == ARMY and order.via is None and not order.route and (
            dest in m.army_adj.get(unit.location, ())
        ):
            return
        if order.via is not None:
            # a variant route (Colonial's railway): its rule module says what is legal
            check = self.board.rules.move_checks.get(order.via)
            if check is None:
                raise OrderError(f"There is no {order.via} on this map.")
            check(m, self.position, order)
            return
        if province_of(dest) == unit.province:
            raise _refusal(m, unit, "cannot move to its own province.")
        if province_of(dest) not in m.provinces:
            raise OrderError(f"Unknown destination {dest!r}.")
        if unit.type == FLEET:
            if order.route or order.via_convoy:
                raise _refusal(m, unit, "is a fleet; only armies are convoyed.")
            if not m.adjacent(FLEET, unit.location, dest) and not self._variant_route(order):
                raise _refusal(m, unit, f"cannot move to {m.location_name(dest)}.")
            return
        target = m.provinces[province_of(dest)]
        if not target.holds_armies:
            raise _refusal(m, unit, f"cannot move to {target.name}.")
        for step in order.route:
            if not _water(m, step):
                raise _refusal(m, unit, f"cannot be convoyed through {_place(m, step)}: it is not a sea.")
        if not self._army_can_reach(unit.location, target.abbr) and not self._variant_route(order):
            raise _refusal(m, unit, f"cannot move to {_place(m, dest)}: it is not adjacent and no fleets stand "
                                    "ready to convoy it.")

    def _support(self, order: Support) -> None:
        m, position = self.map, self.position
        unit = order.unit
        goal = order.target if order.dest is None else order.dest
        if order.target not in m.provinces or goal not in m.provinces:
            raise _refusal(m, unit, "cannot support a unit that is not on the map.")
        if goal == unit.province:
            raise _refusal(m, unit, "cannot support a unit into its own province.")
        if order.target == unit.province:
            raise _refusal(m, unit, "cannot support itself.")
        checks = self.board.rules.support_checks
        if checks and any(accepts(m, position, order) for accepts in checks):
            return  # a variant's own use of a support order (the Suez Canal's permission)
        if not m.reaches(unit.type, unit.location, goal):
            raise _refusal(m, unit, f"cannot support into {_place(m, goal)}: it cannot move there.")
        other = position.units.get(order.target)
        if other is None:
            where = m.location_name(order.target, article=True)
            raise _refusal(m, unit, f"cannot support: there is no unit in {where}.")
        if order.dest is None:
            return
        if order.dest == order.target:
            raise _refusal(m, unit, f"cannot support {describe_unit(m, other)} to move to its own province.")
        if other.type == FLEET:
            ok = m.reaches(FLEET, other.location, order.dest)
        else:
            ok = self._army_can_reach(other.location, order.dest, without=unit.province)
        if not ok:
            ok = self._variant_route(Move(other, order.dest), quiet=True)
        if not ok:
            raise _refusal(m, unit, f"cannot support {describe_unit(m, other)} to {_place(m, order.dest)}: "
                                    "it cannot get there.")

    def _variant_route(self, order: Move, *, quiet: bool = False) -> bool:
        """True if a variant route (``Ruleset.alt_routes``) carries this plain move where the
        board has no border, and the move is legal along it. Its refusal is raised unless
        ``quiet`` (supports only ask whether the move could be valid)."""
        m, position, rules = self.map, self.position, self.board.rules
        for alt in rules.alt_routes:
            via = alt(m, position, order)
            check = rules.move_checks.get(via) if via else None
            if check is None:
                continue
            try:
                check(m, position, replace(order, via=via))
            except OrderError:
                if quiet:
                    continue
                raise
            return True
        return False

    def _convoy(self, order: Convoy) -> None:
        m = self.map
        unit = order.unit
        if unit.type != FLEET:
            raise _refusal(m, unit, "is an army; only fleets convoy.")
        if not _water(m, unit.province):
            raise _refusal(m, unit, "is not at sea, so it cannot convoy.")
        if order.target not in m.provinces or order.dest not in m.provinces:
            raise _refusal(m, unit, "cannot convoy a unit that is not on the map.")
        other = self.position.units.get(order.target)
        if other is None:
            where = m.location_name(order.target, article=True)
            raise _refusal(m, unit, f"cannot convoy: there is no unit in {where}.")
        if other.type != ARMY:
            raise _refusal(m, unit, f"cannot convoy {describe_unit(m, other)}: only armies are convoyed.")
        if order.dest == order.target:
            raise _refusal(m, unit, f"cannot convoy {describe_unit(m, other)} to its own province.")
        dest = m.provinces[order.dest]
        if not dest.holds_armies or order.dest not in m.shores:
            raise _refusal(m, unit, f"cannot convoy an army to {dest.name}.")
        if order.target not in m.shores:
            raise _refusal(m, unit, f"cannot convoy {describe_unit(m, other)}: it is not on a coast.")
        near = m.fleet_reach.get(unit.location, frozenset())
        alone = order.target in near and order.dest in near  # a chain of this fleet alone
        if not alone and unit.province not in self.convoys.route_fleets(order.target, order.dest):
            raise _refusal(m, unit, f"cannot convoy {describe_unit(m, other)} to {dest.name}: "
                                    "it is not on a convoy route there.")

    # -- adjustments --------------------------------------------------------------------
    def _balance(self, power: str) -> int:
        """Owned centres (as the variant counts them) minus units: positive means builds,
        negative removals."""
        value = self.board.rules.centre_value
        centres = self.position.centres_of(power)
        count = sum(value(c, power) for c in centres) if value else len(centres)
        return count - len(self.position.units_of(power))

    def _build(self, order: Build) -> None:
        m, position = self.map, self.position
        unit, power = order.unit, order.power
        prov = m.provinces.get(unit.province)
        if prov is None:
            raise OrderError(f"Unknown place {unit.location!r}.")
        where = m.location_name(unit.province, article=True)
        if self._balance(power) <= 0:
            raise OrderError(f"{power} has no builds to make.")
        if not prov.supply:
            raise OrderError(f"{m.location_name(unit.province)} is not a supply centre.")
        if m.home_of.get(unit.province) != power:
            raise OrderError(f"{m.location_name(unit.province)} is not a home supply centre of {power}.")
        if position.owners.get(unit.province) != power:
            raise OrderError(f"{power} does not own {m.location_name(unit.province)}.")
        if unit.province in position.units:
            raise OrderError(f"There is already a unit in {where}.")
        if unit.type == FLEET and prov.coasts and unit.location == unit.province:
            coasts = " or ".join(prov.coast_names.get(c, c).lower() for c in prov.coasts)
            raise OrderError(f"A fleet built in {prov.name} needs a coast: {coasts}.")
        if not m.can_hold(unit.type, unit.location):
            kind = "an army" if unit.type == ARMY else "a fleet"
            raise OrderError(f"{kind.capitalize()} cannot be built in {m.location_name(unit.province, article=True)}.")


def check_order(board: Board, position: Position, order: Order) -> None:
    """Raise :class:`OrderError` if ``order`` cannot be valid in ``position`` on ``board``."""
    Legality(board, position).check(order)


def check_order_set(board: Board, position: Position, orders: list[Order]) -> list[tuple[Order, str]]:
    """The orders of one power's set (each legal on its own, in the order given) that the
    set as a whole makes ineffective, each with the message for the player; the variant's
    ``Ruleset.order_set_checks`` decide (Colonial: one TSR order a turn, spec 2.3 rule 3).
    A warning only: the orders stay, and adjudication treats them as its rules say."""
    out: list[tuple[Order, str]] = []
    for check in board.rules.order_set_checks:
        out.extend(check(board.map, position, orders))
    return out
