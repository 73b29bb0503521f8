"""Retreats, builds and removals by value (DumbBot's seventh step), from the legal orders.

- A dislodged unit retreats to the best-valued place it may, not one another of the
  power's retreating units has taken (two retreats to one place would both disband); with
  none left, it disbands.
- Builds go to the home centres with the best values; on each the unit type (and a fleet's
  coast) whose value there is highest. Builds that find no site are waived.
- Removals take the units standing on the worst-valued places.
"""

from __future__ import annotations

from ..engine import Board, Build, Disband, Order, Position, Remove, Retreat, Waive, province_of
from ..engine.adjustments import adjustment_counts
from ..engine.legal import adjustment_orders, retreat_orders
from .values import Values


def retreats(board: Board, position: Position, values: Values) -> list[Order]:
    """The power's retreat-phase orders."""
    power = values.power
    out: list[Order] = []
    taken: set[str] = set()
    mine = sorted((p for p, d in position.dislodged.items() if d.unit.power == power),
                  key=lambda p: -values.of(position.dislodged[p].unit.type, p))
    for prov in mine:
        options = retreat_orders(board, position, prov)
        moves = [o for o in options if isinstance(o, Retreat) and province_of(o.dest) not in taken]
        if moves:
            best = max(moves, key=lambda o: (values.of(o.unit.type, province_of(o.dest)), o.dest))
            taken.add(province_of(best.dest))
            out.append(best)
        else:
            out.extend(o for o in options if isinstance(o, Disband))
    return out


def adjustments(board: Board, position: Position, values: Values) -> list[Order]:
    """The power's builds (and waives) or removals."""
    power = values.power
    count = adjustment_counts(board, position).get(power, 0)
    legal = adjustment_orders(board, position, power)
    out: list[Order] = []
    if count > 0:
        builds = [o for o in legal if isinstance(o, Build)]
        lean = _army_lean(board, position, power)
        best_at: dict[str, Build] = {}
        for b in builds:
            here = best_at.get(b.unit.province)
            if here is None or _build_value(board, values, b, lean) > _build_value(board, values, here, lean):
                best_at[b.unit.province] = b
        ranked = sorted(best_at.values(), key=lambda b: (-_build_value(board, values, b, lean), b.unit.province))
        out.extend(ranked[:count])
        if len(out) < count and any(isinstance(o, Waive) for o in legal):
            out.extend(Waive(power) for _ in range(count - len(out)))
    elif count < 0:
        removals = [o for o in legal if isinstance(o, Remove)]
        removals.sort(key=lambda r: (values.of(r.unit.type, r.unit.province), r.unit.province))
        out.extend(removals[:-count])
    return out


def _army_lean(board: Board, position: Position, power: str) -> float:
    """How much more an army build counts than its value says: 1.5 while the power has fewer
    armies, for its share of units, than the centres it does not own that a fleet cannot
    reach (inland) call for (at least two in five), else 1."""
    m = board.map
    targets = [c for c in m.supply_centres if position.owners.get(c) != power]
    inland = sum(1 for c in targets if not m.fleet_locations(c)) / max(1, len(targets))
    units = position.units_of(power)
    armies = sum(1 for u in units if u.type == "A") / max(1, len(units))
    return 1.5 if armies < max(0.4, inland) else 1.0


def _build_value(board: Board, values: Values, build: Build, lean: float = 1.0) -> float:
    """A build's worth: the best value among the places the new unit could move to next (so
    that the type, and a fleet's coast, the place's neighbours favour wins)."""
    unit, m = build.unit, board.map
    reach = m.army_adj.get(unit.location, frozenset()) | m.army_hops.get(unit.location, frozenset()) \
        if unit.type == "A" else m.fleet_adj.get(unit.location, frozenset())
    best = max((values.of(unit.type, province_of(d)) for d in reach), default=0.0)
    return best * lean if unit.type == "A" else best
