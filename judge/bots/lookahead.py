"""The best of a few whole order sets, checked against the adjudicator.

Each candidate set of one power's orders is adjudicated against two simple guesses of what
the others do: every other unit holds; and every other unit next to one of the power's units
or centres attacks the most valuable of them it legally can (the others holding). A set is
worth, on average over the two, the value of the places its units end in, plus the centres
the power would hold if the year closed then, less the units it would lose. The best set is
chosen; a tie goes to the set drawn first, so the choice stays a function of the seed.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine import Board, Move, Order, Position, adjudicate, province_of
from ..engine.legal import LegalOrders
from .values import Values

CENTRE, LOST = 1.0, 0.6


def replies(board: Board, position: Position, values: Values, legal: LegalOrders) -> list[list[Order]]:
    """The guesses of the other powers' orders: none (all hold), and attacks."""
    power = values.power
    mine = {p for p, u in position.units.items() if u.power == power}
    mine |= {c for c, owner in position.owners.items() if owner == power}
    attacks: list[Order] = []
    aimed: set[str] = set()
    for _, unit in sorted(position.units.items()):
        if unit.power == power:
            continue
        targets = [mv for mv in legal.moves(unit) if province_of(mv.dest) in mine and mv.via is None
                   and province_of(mv.dest) not in aimed and _bordering(board, mv)]
        if targets:
            best = max(targets, key=lambda mv: (values.of(unit.type, province_of(mv.dest)), mv.dest))
            aimed.add(province_of(best.dest))
            attacks.append(best)
    return [[], attacks]


def _bordering(board: Board, mv: Move) -> bool:
    m, unit = board.map, mv.unit
    return m.adjacent(unit.type, unit.location, mv.dest)


def worth(board: Board, position: Position, values: Values, orders: Iterable[Order],
          others: list[list[Order]]) -> float:
    """The mean worth of ``orders`` over the guesses ``others``."""
    power, m = values.power, board.map
    own = list(orders)
    total = 0.0
    for guess in others:
        nxt = adjudicate(board, position, [*own, *guess]).next
        units = nxt.units
        got = sum(values.of(u.type, p) for p, u in units.items() if u.power == power) / values.scale
        centres = sum(1 for c in m.supply_centres
                      if (units[c].power if c in units else position.owners.get(c)) == power)
        lost = sum(1 for d in nxt.dislodged.values() if d.unit.power == power)
        total += got + CENTRE * centres - LOST * lost
    return total / max(1, len(others))
