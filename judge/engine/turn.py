"""One phase, start to finish: ``(map, position, orders, options) -> Adjudication``.

This is the engine's main entry point. It sorts the orders, lets the movement resolver,
retreat or adjustment rules decide, applies civil-disorder defaults, moves centres to their
new owners after the season that closes a year, checks for victory, and picks the next
phase (skipping retreat and adjustment phases with nothing to do).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .adjudicator import Movement, VariantParadox
from .adjustments import adjustments_due, resolve_adjustments
from .map import Map
from .options import Options
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    Support,
    Waive,
)
from .phase import MOVEMENT, RETREAT, Phase
from .position import Dislodged, Position, Unit
from .results import BOUNCE, CUT, DISLODGED, NO_CONVOY, VOID, Adjudication, OrderResult
from .retreats import resolve_retreats, retreat_options
from .rules import Ruleset, ruleset_for


def adjudicate(
    m: Map,
    position: Position,
    orders: Iterable[Order],
    options: Options | None = None,
    ruleset: Ruleset | None = None,
) -> Adjudication:
    """Adjudicate one phase. ``orders`` must be legal (see ``validation.check_order``);
    units without orders hold, dislodged units without orders disband, and adjustments
    without orders are waived or removed by the civil-disorder rule."""
    rules = ruleset or ruleset_for(m, options or Options())
    kind = position.phase.kind
    if kind == MOVEMENT:
        return _movement(m, position, list(orders), rules)
    if kind == RETREAT:
        return _retreats(m, position, list(orders), rules)
    return _adjustments(m, position, list(orders), rules)


_MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)


def _movement(m: Map, position: Position, orders: list[Order], rules: Ruleset) -> Adjudication:
    on_board = position.units
    chosen: dict[str, Hold | Move | Support | Convoy] = {}
    doubled: dict[str, list[Order]] = {}
    for o in orders:
        if type(o) not in _MOVEMENT_ORDERS or on_board.get(o.unit.province) != o.unit:  # type: ignore[union-attr]
            continue
        prov = o.unit.province  # type: ignore[union-attr]
        if prov in doubled:
            doubled[prov].append(o)
            continue
        before = chosen.get(prov)
        if before is None:
            chosen[prov] = o  # type: ignore[assignment]
        elif before != o:
            doubled[prov] = [chosen.pop(prov), o]  # DATC 4.D.3: a unit ordered twice holds
    for hook in rules.movement_orders:  # variant rewrites (canal moves, the railway's limits)
        chosen = hook(m, position, chosen)  # type: ignore[assignment]
    paradox: dict[str, Order] = {}  # variant orders a paradox turned into holds (reported void)
    while True:
        try:
            out = Movement(m, position, chosen, rules.route_rules).run()
            break
        except VariantParadox as exc:  # e.g. tsr_paradox=hold: hold and adjudicate again
            for prov in exc.provinces:
                paradox[prov] = chosen[prov]
                chosen[prov] = Hold(chosen[prov].unit)

    rank = m.power_rank
    results: list[OrderResult] = []
    for prov, unit in sorted(on_board.items(), key=lambda item: rank.get(item[1].power, 99)):
        notes: tuple[str, ...] = ()
        stopped = out.stopped.get(prov)
        order = chosen.get(prov)
        default = order is None
        if prov in doubled:
            results.extend(OrderResult(o, (VOID,)) for o in doubled[prov])
        if order is None:
            order = Hold(unit)
        elif prov in paradox:
            order, notes = paradox[prov], (VOID,)
        elif type(order) is Move:
            if prov not in out.succeeded:
                notes = (VOID,) if prov in out.void else (NO_CONVOY,) if prov in out.no_route else (BOUNCE,)
        elif prov in out.void:
            notes = (VOID,)
        elif prov in out.cut:
            notes = (CUT,)
        if prov in out.dislodged:
            notes = (*notes, DISLODGED)
        if prov not in doubled or prov in out.dislodged:
            results.append(OrderResult(order, notes, default=default, stopped=stopped))

    units: dict[str, Unit] = {}
    for prov, unit in position.units.items():
        if prov in out.dislodged:
            continue
        if prov in out.succeeded:
            o = chosen[prov]
            assert isinstance(o, Move)
            units[out_dest(o)] = Unit(unit.power, unit.type, o.dest)
        elif prov in out.stopped:  # a variant move that stopped short of its destination
            units[out.stopped[prov]] = Unit(unit.power, unit.type, out.stopped[prov])
        else:
            units[prov] = unit
    occupied = set(units)
    dislodged: list[Dislodged] = []
    destroyed: list[Unit] = []
    for prov in out.dislodged:
        unit = position.units[prov]
        extra = [loc for route in rules.retreat_routes for loc in route(m, unit, units)]
        options = retreat_options(m, unit, occupied, out, rules.retreat_rules, extra)
        dislodged.append(Dislodged(unit, options))
        if not options:
            destroyed.append(unit)
    dislodged.sort(key=lambda d: (_power_rank(m, d.unit.power), d.unit.province))
    waiting = [d for d in dislodged if d.retreats]
    if waiting:
        nxt = Position(position.phase.retreat(), units, {d.unit.province: d for d in waiting}, position.owners)
        return Adjudication(position, tuple(results), nxt, tuple(dislodged), tuple(destroyed))
    nxt, winners, changed = _close_season(m, position.phase, units, position.owners, rules)
    return Adjudication(position, tuple(results), nxt, tuple(dislodged), tuple(destroyed), winners, changed)


def out_dest(o: Move) -> str:
    """The province a move ends in."""
    return o.dest.partition("/")[0]


def _retreats(m: Map, position: Position, orders: list[Order], rules: Ruleset) -> Adjudication:
    chosen: dict[str, Retreat | Disband] = {}
    extra: list[OrderResult] = []
    for o in orders:
        if isinstance(o, (Retreat, Disband)):
            d = position.dislodged.get(o.unit.province)
            if d is None or d.unit != o.unit:
                extra.append(OrderResult(o, (VOID,)))
            elif o.unit.province in chosen and chosen[o.unit.province] != o:
                extra.append(OrderResult(o, (VOID,)))
            else:
                chosen[o.unit.province] = o
    dislodged = {p: (d.unit, d.retreats) for p, d in position.dislodged.items()}
    results, survivors = resolve_retreats(dislodged, chosen)
    results = sorted(results + extra, key=lambda r: _power_rank(m, r.power))
    units = dict(position.units)
    for u in survivors:
        units[u.province] = u
    nxt, winners, changed = _close_season(m, position.phase, units, position.owners, rules)
    return Adjudication(position, tuple(results), nxt, (), (), winners, changed)


def _adjustments(m: Map, position: Position, orders: list[Order], rules: Ruleset) -> Adjudication:
    given = [o for o in orders if isinstance(o, (Build, Remove, Waive))]
    given.sort(key=lambda o: _power_rank(m, o.power))
    results, units = resolve_adjustments(m, position, given, centre_value=rules.centre_value)
    results.sort(key=lambda r: _power_rank(m, r.power))
    nxt_phase = rules.calendar.next_movement(position.phase)
    nxt = Position.build(nxt_phase, units, owners=position.owners)
    return Adjudication(position, tuple(results), nxt)


def _close_season(
    m: Map, phase: Phase, units: Mapping[str, Unit], owners: Mapping[str, str], rules: Ruleset
) -> tuple[Position, tuple[str, ...], bool]:
    """After a season's movement and retreats: centres change hands if the year closes,
    victory is checked, and the next phase is chosen."""
    cal = rules.calendar
    if not cal.closes_year(phase):
        return Position(cal.next_movement(phase), units, {}, owners), (), False
    new_owners = dict(owners)
    for prov, unit in units.items():
        if m.provinces[prov].supply:
            new_owners[prov] = unit.power
    changed = new_owners != dict(owners)
    winners = victors(m, new_owners, rules)
    adjust = Position(cal.adjustment_phase(phase), units, {}, new_owners)
    if adjustments_due(m, adjust, centre_value=rules.centre_value):
        return adjust, winners, changed
    return Position(cal.next_movement(adjust.phase), units, {}, new_owners), winners, changed


def centre_counts(m: Map, owners: Mapping[str, str], rules: Ruleset | None = None) -> dict[str, int]:
    """Centres per power, as they count for builds and victory (variants may weigh them)."""
    counts = {p.name: 0 for p in m.powers}
    value = rules.centre_value if rules else None
    for centre, power in owners.items():
        counts[power] = counts.get(power, 0) + (value(centre, power) if value else 1)
    return counts


def victors(m: Map, owners: Mapping[str, str], rules: Ruleset | None = None) -> tuple[str, ...]:
    """The power that holds the map's victory count of centres, if any."""
    counts = centre_counts(m, owners, rules)
    best = max(counts.values(), default=0)
    if best < m.victory:
        return ()
    return tuple(p for p, n in counts.items() if n == best)


def _power_rank(m: Map, power: str) -> int:
    return m.power_rank.get(power, len(m.powers))
