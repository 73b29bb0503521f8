"""Retreats: where a dislodged unit may go, and the retreat phase itself.

A dislodged unit may retreat to an adjacent place that is empty after the movement, was not
left empty by a standoff, and is not where its attacker came from, unless that attacker came
by convoy (DATC 4.A.5, the 2023 rule; the board's ``convoy_origin_retreat`` choice). Two
retreats to one place both fail: both units are disbanded. A dislodged unit without a
retreat order is disbanded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from .adjudicator import MovementOutcome
from .map import ARMY, province_of
from .orders import Disband, Retreat
from .position import Unit
from .results import BOUNCE, DISBANDED, VOID, OrderResult

if TYPE_CHECKING:
    from .board import Board



def retreat_options(
    board: Board, unit: Unit, outcome: MovementOutcome, units_after: Mapping[str, Unit]
) -> tuple[str, ...]:
    """The locations a unit dislodged in ``outcome`` may retreat to, in map order, given the
    units on the board after the movement (by province); the board's variant routes may add
    places (:data:`RetreatRoute`) and its rules filter them (:data:`RetreatRule`)."""
    m = board.map
    attacker = outcome.dislodged.get(unit.province)
    if attacker is not None and attacker in outcome.by_convoy and board.datc.convoy_origin_retreat:
        attacker = None  # it came by convoy: its origin is open (DATC 4.A.5)
    contested = outcome.contested
    near = set((m.army_adj if unit.type == ARMY else m.fleet_adj).get(unit.location, ()))
    for route in board.rules.retreat_routes:
        near.update(route(m, unit, units_after))
    options: Iterable[str] = sorted(
        loc for loc in near
        if (p := province_of(loc)) not in units_after and p not in contested and p != attacker
    )
    for rule in board.rules.retreat_rules:
        options = rule(m, unit, options)
    return tuple(options)


def resolve_retreats(
    dislodged: Mapping[str, tuple[Unit, tuple[str, ...]]],
    orders: Mapping[str, Retreat | Disband],
) -> tuple[list[OrderResult], list[Unit]]:
    """Adjudicate a retreat phase. ``dislodged`` maps province -> (unit, its retreats);
    ``orders`` maps province -> order. Returns the results and the units that retreated."""
    wanted: dict[str, list[str]] = {}
    for prov, order in orders.items():
        if isinstance(order, Retreat) and order.dest in dislodged[prov][1]:
            wanted.setdefault(province_of(order.dest), []).append(prov)
    results: list[OrderResult] = []
    survivors: list[Unit] = []
    for prov, (unit, options) in dislodged.items():
        given = orders.get(prov)
        if given is None:
            results.append(OrderResult(Disband(unit), (), default=True))
        elif isinstance(given, Disband):
            results.append(OrderResult(given))
        elif given.dest not in options:
            results.append(OrderResult(given, (VOID, DISBANDED)))
        elif len(wanted[province_of(given.dest)]) > 1:
            results.append(OrderResult(given, (BOUNCE, DISBANDED)))
        else:
            results.append(OrderResult(given))
            survivors.append(Unit(unit.power, unit.type, given.dest))
    return results, survivors
