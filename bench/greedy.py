"""A simple greedy player for the bot bench (``bench/bots.py``), written for it.

Each unit moves one step toward the nearest supply centre its power does not own (by the
moves the engine says are legal); a unit whose step is already taken by another of its
power supports that move if it can, else holds. Retreats toward the nearest such centre,
else disband; builds on free home centres (a fleet where only a fleet can stand, or on a
coast every other build); removals of the units farthest from any such centre. Every
order comes from the engine's legal orders (``judge.engine.legal``).
"""

from __future__ import annotations

from collections import deque

from judge.engine import (
    Board,
    Build,
    Disband,
    Hold,
    Move,
    Order,
    Position,
    Remove,
    Retreat,
    Waive,
    province_of,
)
from judge.engine.adjustments import adjustment_counts
from judge.engine.legal import LegalOrders, adjustment_orders, retreat_orders


def _distances(board: Board, position: Position, power: str) -> dict[str, int]:
    """Steps (over every unit's moves) from each province to the nearest centre ``power``
    does not own."""
    m = board.map
    goals = [c for c in m.supply_centres if position.owners.get(c) != power]
    dist = dict.fromkeys(goals, 0)
    queue = deque(goals)
    while queue:
        here = queue.popleft()
        for near in m.any_adj.get(here, ()):
            if near not in dist:
                dist[near] = dist[here] + 1
                queue.append(near)
    return dist


def greedy_orders(board: Board, position: Position, power: str) -> list[Order]:
    """The greedy player's orders for ``power`` in ``position``."""
    dist = _distances(board, position, power)
    far = len(board.map.provinces)
    kind = position.phase.kind
    if kind == "R":
        out: list[Order] = []
        taken: set[str] = set()
        for prov, d in sorted(position.dislodged.items()):
            if d.unit.power != power:
                continue
            moves = [o for o in retreat_orders(board, position, prov)
                     if isinstance(o, Retreat) and province_of(o.dest) not in taken]
            if moves:
                best = min(moves, key=lambda o: (dist.get(province_of(o.dest), far), o.dest))
                taken.add(province_of(best.dest))
                out.append(best)
            else:
                out.append(Disband(d.unit))
        return out
    if kind == "B":
        legal = adjustment_orders(board, position, power)
        count = adjustment_counts(board, position).get(power, 0)
        if count > 0:
            picked: dict[str, Build] = {}
            for o in legal:
                if isinstance(o, Build) and o.unit.province not in picked:
                    picked[o.unit.province] = o
            builds: list[Order] = list(picked.values())[:count]
            return builds + [Waive(power)] * (count - len(builds))
        removals = sorted((o for o in legal if isinstance(o, Remove)),
                          key=lambda o: (-dist.get(o.unit.province, far), o.unit.province))
        return list(removals[:-count]) if count < 0 else []
    legal_orders = LegalOrders(board, position)
    chosen: dict[str, Order] = {}
    target: dict[str, str] = {}
    for unit in sorted(position.units_of(power), key=lambda u: u.province):
        here = dist.get(unit.province, far)
        steps = [mv for mv in legal_orders.moves(unit) if mv.via is None
                 and board.map.adjacent(unit.type, unit.location, mv.dest)
                 and dist.get(province_of(mv.dest), far) < here]
        steps.sort(key=lambda mv: (dist.get(province_of(mv.dest), far), mv.dest))
        step = next((mv for mv in steps if province_of(mv.dest) not in target), None)
        if step is not None:
            chosen[unit.province] = step
            target[province_of(step.dest)] = unit.province
            continue
        helped = None
        for mv in steps:
            mover = position.units[target[province_of(mv.dest)]]
            helped = next((s for s in legal_orders.supports(unit, [mover])
                           if s.dest == province_of(mv.dest)), None)
            if helped is not None:
                break
        chosen[unit.province] = helped if helped is not None else Hold(unit)
    return [o for o in chosen.values() if not isinstance(o, Move) or province_of(o.dest) in target]
