"""A power's orders for the current phase: merging new lines, completeness, the echo.

A power's order set is the list of its accepted order lines as the player wrote them. A
new line is parsed and checked by the engine; a refused line is reported and not stored.
An accepted order replaces the power's earlier order for the same unit (njudge: the most
recent order for a unit wins). In an adjustment phase a later build or removal for the same
province replaces the earlier one, and when there are more adjustment orders than are due
the earliest are dropped (njudge: "the earliest received build/remove requests are ignored").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..engine import Board, Build, Map, Order, OrderError, Position, Waive
from ..engine.adjustments import adjustments_due
from ..engine.notation import describe, describe_unit
from ..engine.orders import order_power
from ..engine.parser import parse_orders
from ..engine.phase import ADJUSTMENT, MOVEMENT, RETREAT
from ..engine.validation import check_order, check_order_set


@dataclass(frozen=True, slots=True)
class LineError:
    """An order line that was refused, with the message the player reads."""

    line: str
    message: str


@dataclass(slots=True)
class Merge:
    """The outcome of adding order lines to a power's set."""

    lines: list[str]
    accepted: list[str] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)


def _key(order: Order) -> str | None:
    """What an order is 'for': a unit's province (movement, retreat, removal), a build's
    province, or None for a waive (waives accumulate)."""
    if isinstance(order, Waive):
        return None
    if isinstance(order, Build):
        return "build:" + order.unit.province
    return order.unit.province


def read_lines(board: Board, position: Position, power: str, lines: Iterable[str]) -> list[tuple[str, Order]]:
    """The stored lines with their orders (lines that no longer read are skipped)."""
    out: list[tuple[str, Order]] = []
    for line in lines:
        for item in parse_orders(board, position, power, line):
            if not isinstance(item, OrderError):
                out.append((line, item))
    return out


def check_line(board: Board, position: Position, power: str, line: str) -> tuple[list[Order], list[LineError]]:
    """Parse and check one line (it may hold several orders separated by commas)."""
    orders: list[Order] = []
    errors: list[LineError] = []
    for item in parse_orders(board, position, power, line):
        if isinstance(item, OrderError):
            errors.append(LineError(item.text or line, item.message))
            continue
        if order_power(item) != power:
            errors.append(LineError(line, f"You cannot order the units of {order_power(item)}."))
            continue
        try:
            check_order(board, position, item)
        except OrderError as exc:
            errors.append(LineError(line, exc.message))
            continue
        orders.append(item)
    return orders, errors


def merge(board: Board, position: Position, power: str, old: Sequence[str], new: Iterable[str]) -> Merge:
    """Add ``new`` lines to the ``old`` set; see the module docstring."""
    entries: list[tuple[str, Order]] = read_lines(board, position, power, old)
    result = Merge(lines=[])
    fresh: list[Order] = []
    for line in new:
        orders, errors = check_line(board, position, power, line)
        result.errors.extend(errors)
        for order in orders:
            key = _key(order)
            if key is not None:
                entries = [(t, o) for t, o in entries if _key(o) != key]
            entries.append((line if len(orders) == 1 else _piece(board.map, order), order))
            result.accepted.append(line)
            fresh.append(order)
    if position.phase.kind == MOVEMENT:  # warnings on the whole set (Colonial: one TSR order a turn)
        for order, message in check_order_set(board, position, [o for _, o in entries]):
            if any(order is o for o in fresh):
                result.errors.append(LineError(next(t for t, o in entries if o is order), message))
    if position.phase.kind == ADJUSTMENT:
        due = abs(adjustments_due(board, position).get(power, 0))
        if len(entries) > due:
            entries = entries[len(entries) - due:]
    result.lines = [t for t, _ in entries]
    return result


def _piece(m: Map, order: Order) -> str:
    """A stored text for one order of a multi-order line (``waive 2``)."""
    return "waive" if isinstance(order, Waive) else describe(m, order).rstrip(".")


def required(board: Board, position: Position) -> dict[str, int]:
    """Powers that must order in this phase, with how many orders make a complete set."""
    kind = position.phase.kind
    counts: dict[str, int] = {}
    if kind == MOVEMENT:
        for unit in position.units.values():
            counts[unit.power] = counts.get(unit.power, 0) + 1
    elif kind == RETREAT:
        for d in position.dislodged.values():
            counts[d.unit.power] = counts.get(d.unit.power, 0) + 1
    else:
        counts = {p: abs(n) for p, n in adjustments_due(board, position).items()}
    return counts


def is_complete(board: Board, position: Position, power: str, lines: Sequence[str]) -> bool:
    """True when every unit (movement), dislodged unit (retreat) or due adjustment of
    ``power`` has an order."""
    need = required(board, position).get(power, 0)
    orders = [o for _, o in read_lines(board, position, power, lines)]
    if position.phase.kind == ADJUSTMENT:
        return len(orders) >= need
    return len({_key(o) for o in orders}) >= need


def orders_of(board: Board, position: Position, lines_by_power: Mapping[str, Sequence[str]]) -> list[Order]:
    """Every stored order of the phase, for the adjudicator."""
    out: list[Order] = []
    for power, lines in lines_by_power.items():
        out.extend(o for _, o in read_lines(board, position, power, lines))
    return out


def echo(board: Board, position: Position, power: str, lines: Sequence[str]) -> list[str]:
    """The power's order set as the results print it; units left without an order are
    listed as ``No Order Processed`` (njudge's wording) in a movement or retreat phase."""
    m = board.map
    orders = [o for _, o in read_lines(board, position, power, lines)]
    done = {_key(o) for o in orders}
    out = [describe(m, o) for o in orders]
    kind = position.phase.kind
    if kind == MOVEMENT:
        units = {u.province: u for u in position.units_of(power)}
    elif kind == RETREAT:
        units = {p: d.unit for p, d in position.dislodged.items() if d.unit.power == power}
    else:
        units = {}
    for prov, unit in sorted(units.items()):
        if prov not in done:
            out.append(f"{describe_unit(m, unit)}, No Order Processed.")
    return out
