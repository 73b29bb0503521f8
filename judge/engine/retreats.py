"""Retreats: where a dislodged unit may go, and the retreat phase itself.

A dislodged unit may retreat to an adjacent place that is empty after the movement, was not
left empty by a standoff, and is not where its attacker came from, unless that attacker came
by convoy (DATC 4.A.5, the 2023 rule). Two retreats to one place both fail: both units are
disbanded. A dislodged unit without a retreat order is disbanded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .adjudicator import MovementOutcome
from .map import ARMY, Map, province_of
from .orders import Disband, Retreat
from .position import Unit
from .results import BOUNCE, DISBANDED, VOID, OrderResult

#: A variant's filter on retreat destinations: ``(map, unit, candidates) -> allowed``.
RetreatRule = Callable[[Map, Unit, Iterable[str]], Iterable[str]]
#: A variant's retreat route beyond the borders: ``(map, unit, units after the movement) ->
#: more candidate places`` (the Suez Canal for its owner with ``suez_support_through``).
RetreatRoute = Callable[[Map, Unit, Mapping[str, Unit]], Iterable[str]]


def retreat_options(
    m: Map,
    unit: Unit,
    occupied: set[str],
    outcome: MovementOutcome,
    rules: Iterable[RetreatRule] = (),
    extra: Iterable[str] = (),
) -> tuple[str, ...]:
    """The locations a unit dislodged in ``outcome`` may retreat to, in map order;
    ``extra``: places a variant route adds to its borders (:data:`RetreatRoute`)."""
    prov = unit.province
    attacker = outcome.dislodged.get(prov)
    blocked = set(occupied) | outcome.contested
    if attacker is not None and attacker not in outcome.by_convoy:
        blocked.add(attacker)
    adj = m.army_adj if unit.type == ARMY else m.fleet_adj
    near = set(adj.get(unit.location, ())) | set(extra)
    options: Iterable[str] = sorted(loc for loc in near if province_of(loc) not in blocked)
    for rule in rules:
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
        order = orders.get(prov)
        if order is None:
            results.append(OrderResult(Disband(unit), (), default=True))
        elif isinstance(order, Disband):
            results.append(OrderResult(order))
        elif order.dest not in options:
            results.append(OrderResult(order, (VOID, DISBANDED)))
        elif len(wanted[province_of(order.dest)]) > 1:
            results.append(OrderResult(order, (BOUNCE, DISBANDED)))
        else:
            results.append(OrderResult(order))
            survivors.append(Unit(unit.power, unit.type, order.dest))
    return results, survivors
