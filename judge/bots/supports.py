"""Supports among one power's units, given its moves (DumbBot's sixth step, coordinated).

A unit left holding supports, from the engine's legal supports:

1. the canal move of its own fleet, if it stands in the canal province (the permission the
   rules ask of it);
2. a move of its own into a place another power could also bring units to, or holds, most
   valuable first, until the move has as many supports as the strongest rival could bring;
3. else a unit of its own that stays where another power could attack it.

Only orders that match what the supported unit does are written (a support of a move the
unit does not make, or of a hold by a unit that moves, would be void), and never a support
through the canal (its permission is not the power's to give).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..engine import ARMY, Board, Convoy, Hold, Move, Order, Position, Support, Unit, province_of
from ..engine.legal import LegalOrders
from .values import Values


def add_supports(
    board: Board, position: Position, values: Values, legal: LegalOrders, orders: dict[str, Order],
    canal_province: str | None,
) -> None:
    """Turn holds in ``orders`` (by province) into supports where they help."""
    m = board.map
    canal_seas = _canal_seas(m.rules)
    free = [p for p, o in sorted(orders.items()) if isinstance(o, Hold)]

    def support_of(holder: str, mover: Unit, dest: str | None) -> Support | None:
        unit = position.units[holder]
        for s in legal.supports(unit, [mover]):
            goal = s.dest if s.dest is not None else s.target
            if s.dest == dest and not (canal_seas and {unit.province, goal} == canal_seas):
                return s
        return None

    moves = [o for o in orders.values() if isinstance(o, Move)]
    for mv in moves:  # 1: the canal keeper's permission
        if canal_province in free and mv.unit.type != ARMY and \
                province_of(mv.dest) not in m.fleet_reach.get(mv.unit.location, ()):
            keeper = position.units[canal_province]
            permit = next((s for s in legal.supports(keeper, [mv.unit]) if s.dest == province_of(mv.dest)), None)
            if permit is not None:
                orders[canal_province] = permit
                free.remove(canal_province)
    moves.sort(key=lambda o: (-values.of(o.unit.type, province_of(o.dest)), o.unit.province))
    for mv in moves:  # 2: contested moves
        if not isinstance(orders.get(mv.unit.province), Move):
            continue  # turned into a supporter below
        dest = province_of(mv.dest)
        need = values.competition.get(dest, 0)  # the occupant counted: it may hold
        for holder in list(free):
            if need <= 0:
                break
            s = support_of(holder, mv.unit, dest)
            if s is not None:
                orders[holder] = s
                free.remove(holder)
                need -= 1
        occupant = position.units.get(dest)
        if need > 0 and occupant is not None and occupant.power != values.power:
            need -= _recruit(position, values, orders, mv, need, support_of)
    staying = sorted((p for p, o in orders.items() if not isinstance(o, Move) and values.competition.get(p, 0) > 0),
                     key=lambda p: -values.of(position.units[p].type, p))
    for target in staying:  # 3: threatened units that stay
        for holder in list(free):
            if holder == target:
                continue
            s = support_of(holder, position.units[target], None)
            if s is not None:
                orders[holder] = s
                free.remove(holder)
                break


def _recruit(
    position: Position, values: Values, orders: dict[str, Order], mv: Move, need: int,
    support_of: Callable[[str, Unit, str | None], Support | None],
) -> int:
    """An attack on a foreign unit still short of support takes it from the power's own
    movers bound for less valuable places (none another of its units is moving into)."""
    dest = province_of(mv.dest)
    worth = values.of(mv.unit.type, dest)
    entered = {province_of(o.dest) for o in orders.values() if isinstance(o, Move)}
    entered |= {o.target for o in orders.values() if isinstance(o, (Support, Convoy))}  # supported movers stay movers
    got = 0
    for prov, order in sorted(orders.items()):
        if got >= need:
            break
        if not isinstance(order, Move) or order is mv or prov in entered:
            continue
        if values.of(order.unit.type, province_of(order.dest)) >= worth:
            continue
        s = support_of(prov, mv.unit, dest)
        if s is not None:
            orders[prov] = s
            got += 1
    return got


def keep_consistent(orders: dict[str, Order]) -> None:
    """A support or convoy that no longer matches what its unit does (a guard: it would be
    void) becomes a hold."""
    for prov, order in list(orders.items()):
        if isinstance(order, Support):
            there = orders.get(order.target)
            ok = not isinstance(there, Move) if order.dest is None else (
                isinstance(there, Move) and province_of(there.dest) == order.dest)
        elif isinstance(order, Convoy):
            there = orders.get(order.target)
            ok = isinstance(there, Move) and there.dest == order.dest
        else:
            continue
        if not ok:
            orders[prov] = Hold(order.unit)


def _canal_seas(rules: Mapping[str, object]) -> set[str]:
    canal = rules.get("canal")
    if not isinstance(canal, Mapping):
        return set()
    return {str(s).lower() for s in canal.get("seas", ())}
