"""Legality of an order at entry (DATC 4.E.1): an order is legal if, not knowing the other
orders, it could be valid. An illegal order is refused when the player sends it; the unit
then has no order (and holds).

What "could be valid" means for convoys: the fleets a convoy needs must stand on the board
now, since that is known without the other orders. An army may move to a province it does
not border only along a chain of water provinces (sea or dual) each holding a fleet; a fleet
may convoy only if it lies on such a chain; a unit may support a convoyed move only if a
chain exists without the supporter itself (DATC 6.D.31). A chain counts only if every fleet
in it is needed, that is if it has no shortcut: no fleet but the last borders the
destination, none but the first borders the army's province, and no fleet borders another
but its neighbours in the chain (DATC 6.G.19).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from .map import ARMY, FLEET, UNIT_NAMES, Map, province_of
from .orders import Build, Convoy, Disband, Hold, Move, Order, OrderError, Remove, Retreat, Support, Waive
from .phase import ADJUSTMENT, MOVEMENT, RETREAT
from .position import Position, Unit

if TYPE_CHECKING:
    from .board import Board

__all__ = ["check_order", "check_order_set", "convoy_routes"]

_PHASE_OF = {
    Hold: MOVEMENT, Move: MOVEMENT, Support: MOVEMENT, Convoy: MOVEMENT,
    Retreat: RETREAT, Disband: RETREAT,
    Build: ADJUSTMENT, Remove: ADJUSTMENT, Waive: ADJUSTMENT,
}
_PHASE_WORDS = {MOVEMENT: "movement", RETREAT: "retreat", ADJUSTMENT: "adjustment"}


def _name(m: Map, unit: Unit) -> str:
    return f"{UNIT_NAMES[unit.type]} {m.location_name(unit.location)}"


def _place(m: Map, province: str) -> str:
    return m.location_name(province)


def _water(m: Map, province: str) -> bool:
    prov = m.provinces.get(province)
    return prov is not None and prov.is_water


def _borders_water(m: Map, province: str) -> bool:
    return any(_water(m, p) and province in m.fleet_reach.get(p, ()) for p in m.any_adj.get(province, ()))


def convoy_routes(
    m: Map, position: Position, src: str, dest: str, *, without: Iterable[str] = ()
) -> list[tuple[str, ...]]:
    """Every chain of fleet-held water provinces that could carry an army from province
    ``src`` to province ``dest``, each fleet needed (see the module text). ``without``:
    provinces whose fleets may not be used."""
    banned = set(without)

    def usable(p: str) -> bool:
        u = position.units.get(p)
        return p not in banned and _water(m, p) and u is not None and u.type == FLEET

    def touches(w: str, p: str) -> bool:
        return p in m.fleet_reach.get(w, ())

    routes: list[tuple[str, ...]] = []
    if src == dest:
        return routes

    def walk(path: list[str]) -> None:
        last = path[-1]
        if touches(last, dest):
            routes.append(tuple(path))
            return  # a fleet bordering the destination ends every needed chain
        for nxt in sorted(m.fleet_reach.get(last, ())):
            if nxt in path or not usable(nxt) or touches(nxt, src):
                continue
            if any(touches(nxt, earlier) for earlier in path[:-1]):
                continue  # a shortcut exists, so this fleet would not be needed
            walk([*path, nxt])

    for first in sorted(m.fleet_reach):
        if usable(first) and touches(first, src):
            walk([first])
    return routes


def _army_can_reach(m: Map, position: Position, src: str, dest: str, without: Iterable[str] = ()) -> bool:
    if m.adjacent(ARMY, src, dest):  # a drawn border, or a variant's hop (Oceania)
        return True
    return bool(convoy_routes(m, position, src, dest, without=without))


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
    raise OrderError(f"The unit in {where} is {_name(m, there)}, not {_name(m, unit)}.")


def _check_move(board: Board, position: Position, order: Move) -> None:
    m = board.map
    unit, dest = order.unit, order.dest
    if unit.type == FLEET and order.via is None and not order.route and not order.via_convoy and (
        dest in m.fleet_adj.get(unit.location, ())
    ):
        return  # the common case, settled without building any message
    if unit.type == ARMY and order.via is None and not order.route and (
        dest in m.army_adj.get(unit.location, ())
    ):
        return
    me = _name(m, unit)
    if order.via is not None:
        # a variant route (Colonial's railway): its rule module says what is legal
        check = board.rules.move_checks.get(order.via)
        if check is None:
            raise OrderError(f"There is no {order.via} on this map.")
        check(m, position, order)
        return
    if province_of(dest) == unit.province:
        raise OrderError(f"{me} cannot move to its own province.")
    if province_of(dest) not in m.provinces:
        raise OrderError(f"Unknown destination {dest!r}.")
    if unit.type == FLEET:
        if order.route or order.via_convoy:
            raise OrderError(f"{me} is a fleet; only armies are convoyed.")
        if not m.adjacent(FLEET, unit.location, dest) and not _variant_route(board, position, order):
            raise OrderError(f"{me} cannot move to {m.location_name(dest)}.")
        return
    target = m.provinces[province_of(dest)]
    if not target.holds_armies:
        raise OrderError(f"{me} cannot move to {target.name}.")
    for step in order.route:
        if not _water(m, step):
            raise OrderError(f"{me} cannot be convoyed through {_place(m, step)}: it is not a sea.")
    if not _army_can_reach(m, position, unit.location, target.abbr) and not _variant_route(board, position, order):
        raise OrderError(
            f"{me} cannot move to {_place(m, dest)}: it is not adjacent and no fleets stand ready to convoy it."
        )


def _check_support(board: Board, position: Position, order: Support) -> None:
    m = board.map
    unit = order.unit
    me = _name(m, unit)
    goal = order.target if order.dest is None else order.dest
    if order.target not in m.provinces or goal not in m.provinces:
        raise OrderError(f"{me} cannot support a unit that is not on the map.")
    if goal == unit.province:
        raise OrderError(f"{me} cannot support a unit into its own province.")
    if order.target == unit.province:
        raise OrderError(f"{me} cannot support itself.")
    if any(accepts(m, position, order) for accepts in board.rules.support_checks):
        return  # a variant's own use of a support order (the Suez Canal's permission)
    if not m.reaches(unit.type, unit.location, goal):
        raise OrderError(f"{me} cannot support into {_place(m, goal)}: it cannot move there.")
    other = position.units.get(order.target)
    if other is None:
        raise OrderError(f"{me} cannot support: there is no unit in {m.location_name(order.target, article=True)}.")
    if order.dest is None:
        return
    if order.dest == order.target:
        raise OrderError(f"{me} cannot support {_name(m, other)} to move to its own province.")
    if other.type == FLEET:
        ok = m.reaches(FLEET, other.location, order.dest)
    else:
        ok = _army_can_reach(m, position, other.location, order.dest, without=[unit.province])
    if not ok:
        ok = _variant_route(board, position, Move(other, order.dest), quiet=True)
    if not ok:
        raise OrderError(f"{me} cannot support {_name(m, other)} to {_place(m, order.dest)}: it cannot get there.")


def _variant_route(board: Board, position: Position, order: Move, *, quiet: bool = False) -> bool:
    """True if a variant route (``Ruleset.alt_routes``) carries this plain move where the
    board has no border, and the move is legal along it. Its refusal is raised unless
    ``quiet`` (supports only ask whether the move could be valid)."""
    m, rules = board.map, board.rules
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


def _check_convoy(m: Map, position: Position, order: Convoy) -> None:
    unit = order.unit
    me = _name(m, unit)
    if unit.type != FLEET:
        raise OrderError(f"{me} is an army; only fleets convoy.")
    if not _water(m, unit.province):
        raise OrderError(f"{me} is not at sea, so it cannot convoy.")
    if order.target not in m.provinces or order.dest not in m.provinces:
        raise OrderError(f"{me} cannot convoy a unit that is not on the map.")
    other = position.units.get(order.target)
    if other is None:
        raise OrderError(f"{me} cannot convoy: there is no unit in {m.location_name(order.target, article=True)}.")
    if other.type != ARMY:
        raise OrderError(f"{me} cannot convoy {_name(m, other)}: only armies are convoyed.")
    if order.dest == order.target:
        raise OrderError(f"{me} cannot convoy {_name(m, other)} to its own province.")
    dest = m.provinces[order.dest]
    if not dest.holds_armies or not _borders_water(m, order.dest):
        raise OrderError(f"{me} cannot convoy an army to {dest.name}.")
    if not _borders_water(m, order.target):
        raise OrderError(f"{me} cannot convoy {_name(m, other)}: it is not on a coast.")
    routes = convoy_routes(m, position, order.target, order.dest)
    if not any(unit.province in r for r in routes):
        raise OrderError(
            f"{me} cannot convoy {_name(m, other)} to {dest.name}: it is not on a convoy route there."
        )


def _check_retreat(m: Map, position: Position, order: Retreat) -> None:
    entry = position.dislodged[order.unit.province]
    if order.dest not in entry.retreats:
        me = _name(m, order.unit)
        if not entry.retreats:
            raise OrderError(f"{me} cannot retreat anywhere; it can only disband.")
        options = " or ".join(m.location_name(r) for r in entry.retreats)
        raise OrderError(f"{me} cannot retreat to {m.location_name(order.dest)}; it can retreat to {options}.")


def _balance(board: Board, position: Position, power: str) -> int:
    """Owned centres (as the variant counts them) minus units: positive means builds,
    negative removals."""
    value = board.rules.centre_value
    centres = position.centres_of(power)
    count = sum(value(c, power) for c in centres) if value else len(centres)
    return count - len(position.units_of(power))


def _check_build(board: Board, position: Position, order: Build) -> None:
    m = board.map
    unit, power = order.unit, order.power
    prov = m.provinces.get(unit.province)
    if prov is None:
        raise OrderError(f"Unknown place {unit.location!r}.")
    where = m.location_name(unit.province, article=True)
    if _balance(board, position, power) <= 0:
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


def _check_remove(board: Board, position: Position, order: Remove) -> None:
    _check_unit(board.map, position, order.unit)
    if _balance(board, position, order.power) >= 0:
        raise OrderError(f"{order.power} has no units to remove.")


def check_order(board: Board, position: Position, order: Order) -> None:
    """Raise :class:`OrderError` if ``order`` cannot be valid in ``position`` on ``board``."""
    m = board.map
    kind = _PHASE_OF.get(type(order))
    if kind is None:
        raise OrderError(f"Not an order: {order!r}.")
    if kind != position.phase.kind:
        word = _PHASE_WORDS[kind]
        article = "an" if word[0] in "aeiou" else "a"
        raise OrderError(
            f"That is {article} {word} order, but this is the {_PHASE_WORDS[position.phase.kind]} phase."
        )
    if isinstance(order, Waive):
        if _balance(board, position, order.power) <= 0:
            raise OrderError(f"{order.power} has no builds to waive.")
        return
    if isinstance(order, Build):
        _check_build(board, position, order)
        return
    if isinstance(order, Remove):
        _check_remove(board, position, order)
        return
    if isinstance(order, (Retreat, Disband)):
        _check_unit(m, position, order.unit, dislodged=True)
        if isinstance(order, Retreat):
            _check_retreat(m, position, order)
        return
    _check_unit(m, position, order.unit)
    if isinstance(order, Move):
        _check_move(board, position, order)
    elif isinstance(order, Support):
        _check_support(board, position, order)
    elif isinstance(order, Convoy):
        _check_convoy(m, position, order)


def check_order_set(board: Board, position: Position, orders: list[Order]) -> list[tuple[Order, str]]:
    """The orders of one power's set (each legal on its own, in the order given) that the
    set as a whole makes ineffective, each with the message for the player; the variant's
    ``Ruleset.order_set_checks`` decide (Colonial: one TSR order a turn, spec 2.3 rule 3).
    A warning only: the orders stay, and adjudication treats them as its rules say."""
    out: list[tuple[Order, str]] = []
    for check in board.rules.order_set_checks:
        out.extend(check(board.map, position, orders))
    return out
