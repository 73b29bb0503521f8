"""One phase, start to finish: ``(board, position, orders) -> Adjudication``.

This is the engine's main entry point. It sorts the orders, lets the movement resolver,
retreat or adjustment rules decide, applies civil-disorder defaults, moves centres to their
new owners after the season that closes a year, checks for victory, and picks the next
phase (skipping retreat and adjustment phases with nothing to do).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from .adjudicator import Movement, MovementOutcome
from .adjustments import adjustments_due, centre_counts, resolve_adjustments, tally
from .board import Board
from .map import Map
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    Remove,
    Retreat,
    Support,
    Waive,
)
from .phase import MOVEMENT, RETREAT, Phase
from .position import Dislodged, Position, Unit, unit_of
from .results import BOUNCE, CUT, DISLODGED, NO_CONVOY, VOID, Adjudication, OrderResult
from .retreats import resolve_retreats, retreat_options
from .routes import VariantParadox


def adjudicate(board: Board, position: Position, orders: Iterable[Order]) -> Adjudication:
    """Adjudicate one phase on ``board``. ``orders`` must be legal (see
    ``validation.check_order``); units without orders hold, dislodged units without orders
    disband, and adjustments without orders are waived or removed by the civil-disorder
    rule."""
    kind = position.phase.kind
    if kind == MOVEMENT:
        return _movement(board, position, list(orders))
    if kind == RETREAT:
        return _retreats(board, position, list(orders))
    return _adjustments(board, position, list(orders))


_MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)


def _movement(board: Board, position: Position, orders: list[Order]) -> Adjudication:
    m, rules = board.map, board.rules
    on_board = position.units
    chosen: dict[str, MovementOrder] = {}
    doubled: dict[str, list[MovementOrder]] = {}
    for o in orders:
        if not isinstance(o, _MOVEMENT_ORDERS):
            continue
        unit = o.unit
        prov = unit.province
        there = on_board.get(prov)
        if there is not unit and there != unit:
            continue
        if prov in doubled:
            doubled[prov].append(o)
            continue
        before = chosen.get(prov)
        if before is None:
            chosen[prov] = o
        elif before != o:
            doubled[prov] = [chosen.pop(prov), o]  # DATC 4.D.3: a unit ordered twice holds
    for hook in rules.movement_orders:  # variant rewrites (canal moves, the railway's limits)
        chosen = hook(m, position, chosen)
    paradox: dict[str, MovementOrder] = {}  # variant orders a paradox turned into holds (reported void)
    while True:
        try:
            mv = Movement(board, position, chosen)
            out = mv.run()
            break
        except VariantParadox as exc:  # e.g. tsr_paradox=hold: hold and adjudicate again
            for prov in exc.provinces:
                paradox[prov] = chosen[prov]
                chosen[prov] = Hold(chosen[prov].unit)

    results = _results(position, chosen, doubled, paradox, mv, out)
    units: dict[str, Unit] = {}
    succeeded, dislodged_at, stopped, dest = out.succeeded, out.dislodged, out.stopped, mv.dest
    for prov, unit in on_board.items():
        if prov in succeeded:
            o = chosen[prov]
            assert isinstance(o, Move)
            units[dest[prov]] = unit_of(unit.power, unit.type, o.dest)  # (dest: the province moved into)
        elif prov in dislodged_at:
            continue
        elif prov in stopped:  # a variant move that stopped short of its destination
            units[stopped[prov]] = unit_of(unit.power, unit.type, stopped[prov])
        else:
            units[prov] = unit
    dislodged: list[Dislodged] = []
    destroyed: list[Unit] = []
    for prov in out.dislodged:
        unit = position.units[prov]
        options = retreat_options(board, unit, out, units)
        dislodged.append(Dislodged(unit, options))
        if not options:
            destroyed.append(unit)
    dislodged.sort(key=lambda d: (_power_rank(m, d.unit.power), d.unit.province))
    waiting = [d for d in dislodged if d.retreats]
    if waiting:
        nxt = Position(position.phase.retreat(), MappingProxyType(units), {d.unit.province: d for d in waiting},
                       position.owners)
        return Adjudication(position, tuple(results), nxt, tuple(dislodged), tuple(destroyed),
                            tally=tally(board, nxt))
    nxt, winners, changed = _close_season(board, position.phase, units, position.owners)
    return Adjudication(position, tuple(results), nxt, tuple(dislodged), tuple(destroyed), winners, changed,
                        tally=tally(board, nxt))


def _results(
    position: Position,
    chosen: Mapping[str, MovementOrder],
    doubled: Mapping[str, list[MovementOrder]],
    paradox: Mapping[str, MovementOrder],
    mv: Movement,
    out: MovementOutcome,
) -> list[OrderResult]:
    """One result per unit, powers in map order: its order (a hold if it had none, the
    judge's default) and its notes; a unit ordered twice gets both orders, void."""
    on_board, rank = position.units, mv.map.power_rank
    dislodged, stopped = out.dislodged, out.stopped
    succeeded, void, no_route, cut = out.succeeded, out.void, out.no_route, out.cut
    results: list[OrderResult] = []
    power_rank = {prov: rank.get(unit.power, 99) for prov, unit in on_board.items()}  # (no key function to call)
    for prov in sorted(on_board, key=power_rank.__getitem__):
        if prov in doubled:
            results.extend(OrderResult(o, (VOID,)) for o in doubled[prov])
            if prov not in dislodged:
                continue
        given = chosen.get(prov)
        if given is None:  # no order: a hold, the judge's default
            results.append(OrderResult(mv.order[prov], (DISLODGED,) if prov in dislodged else (), True,
                                       stopped.get(prov)))
            continue
        # the notes of an order that was given (without ``dislodged``), as the results print them
        if paradox and prov in paradox:
            notes: tuple[str, ...] = (VOID,)
        elif type(given) is Move:
            notes = () if prov in succeeded else (VOID,) if prov in void else (NO_CONVOY,) if prov in no_route \
                else (BOUNCE,)
        else:
            notes = (VOID,) if prov in void else (CUT,) if prov in cut else ()
        if prov in dislodged:
            notes = (*notes, DISLODGED)
        # made by the tuple constructor itself, as the named tuple's own __new__ (a Python
        # function) would make it, at half the cost: a phase makes one per unit
        results.append(_tuple_new(OrderResult, (paradox.get(prov, given) if paradox else given, notes, False,
                                               stopped.get(prov))))
    return results


_tuple_new = tuple.__new__


def _retreats(board: Board, position: Position, orders: list[Order]) -> Adjudication:
    m = board.map
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
    nxt, winners, changed = _close_season(board, position.phase, units, position.owners)
    return Adjudication(position, tuple(results), nxt, (), (), winners, changed, tally=tally(board, nxt))


def _adjustments(board: Board, position: Position, orders: list[Order]) -> Adjudication:
    m = board.map
    given = [o for o in orders if isinstance(o, (Build, Remove, Waive))]
    given.sort(key=lambda o: _power_rank(m, o.power))
    results, units = resolve_adjustments(board, position, given)
    results.sort(key=lambda r: _power_rank(m, r.power))
    nxt_phase = board.rules.calendar.next_movement(position.phase)
    nxt = Position.build(nxt_phase, units, owners=position.owners)
    return Adjudication(position, tuple(results), nxt, tally=tally(board, nxt))


def _close_season(
    board: Board, phase: Phase, units: Mapping[str, Unit], owners: Mapping[str, str]
) -> tuple[Position, tuple[str, ...], bool]:
    """After a season's movement and retreats: centres change hands if the year closes,
    victory is checked, and the next phase is chosen."""
    m, cal = board.map, board.rules.calendar
    units = MappingProxyType(units)  # the caller's own dictionary, frozen as it is, not copied
    if not cal.closes_year(phase):
        return Position(cal.next_movement(phase), units, _EMPTY, owners), (), False
    new_owners = dict(owners)
    for prov, unit in units.items():
        if m.provinces[prov].supply:
            new_owners[prov] = unit.power
    changed = new_owners != dict(owners)
    winners = victors(board, new_owners)
    frozen_owners = MappingProxyType(new_owners)
    adjust = Position(cal.adjustment_phase(phase), units, _EMPTY, frozen_owners)
    if adjustments_due(board, adjust):
        return adjust, winners, changed
    return Position(cal.next_movement(adjust.phase), units, _EMPTY, frozen_owners), winners, changed


_EMPTY: Mapping[str, Dislodged] = MappingProxyType({})


def victors(board: Board, owners: Mapping[str, str]) -> tuple[str, ...]:
    """The power that holds the map's victory count of centres, if any."""
    counts = centre_counts(board, owners)
    best = max(counts.values(), default=0)
    if best < board.map.victory:
        return ()
    return tuple(p for p, n in counts.items() if n == best)


def _power_rank(m: Map, power: str) -> int:
    return m.power_rank.get(power, len(m.powers))
