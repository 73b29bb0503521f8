"""A power's orders for the current phase: adding a mail's order lines, completeness, the echo.

A power's order set is its accepted orders as the engine's values, each with the line the
player wrote (:class:`~judge.game.view.Entry`). A new line is parsed and checked by the
engine; a refused line is reported on that very line and not stored. An accepted order
replaces the power's earlier order for the same unit (njudge: the most recent order for a
unit wins). In an adjustment phase a later build or removal for the same province replaces
the earlier one, and when there are more adjustment orders than are due the earliest are
dropped (njudge: "the earliest received build/remove requests are ignored"), and the reply
says which were kept and which dropped. Conditions (``IF``...``ENDIF``) are refused here: they
belong to orders for a later phase (njudge: "Conditional statements can only be used after a
PHASE command"; :mod:`.future`). Orders that are legal one by one but that the set as
a whole makes ineffective (Colonial: two railway orders) draw a warning once; they are stored
and are not errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from .. import render
from ..config import Config
from ..engine import Board, Build, Order, OrderError, Position, Waive
from ..engine.adjustments import adjustments_due
from ..engine.notation import describe, describe_unit
from ..engine.orders import order_power
from ..engine.parser import parse_orders
from ..engine.phase import ADJUSTMENT, MOVEMENT, RETREAT
from ..engine.validation import check_order, check_order_set
from ..store.games import Player
from . import conditions
from .mails import context
from .view import Entry, GameView


@dataclass(frozen=True, slots=True)
class LineResult:
    """One order line of a mail, with what was wrong with it (``errors``) and what the
    player should know although it was accepted (``warnings``)."""

    text: str
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(slots=True)
class Merge:
    """The outcome of adding a mail's order lines to a power's set."""

    entries: list[Entry]
    lines: list[LineResult] = field(default_factory=list)
    dropped: list[Entry] = field(default_factory=list)
    allowed: int | None = None

    @property
    def errors(self) -> int:
        """How many lines were refused (in whole or in part)."""
        return sum(1 for line in self.lines if line.errors)


def _key(order: Order) -> str | None:
    """What an order is 'for': a unit's province (movement, retreat, removal), a build's
    province, or None for a waive (waives accumulate)."""
    if isinstance(order, Waive):
        return None
    if isinstance(order, Build):
        return "build:" + order.unit.province
    return order.unit.province


def check_line(board: Board, position: Position, power: str, line: str) -> tuple[list[Order], list[str]]:
    """Parse and check one line (it may hold several orders separated by commas): the
    orders accepted and the messages of the pieces refused."""
    orders: list[Order] = []
    errors: list[str] = []
    for item in parse_orders(board, position, power, line):
        if isinstance(item, OrderError):
            errors.append(item.message)
            continue
        if order_power(item) != power:
            errors.append(f"You cannot order the units of {order_power(item)}.")
            continue
        try:
            check_order(board, position, item)
        except OrderError as exc:
            errors.append(exc.message)
            continue
        orders.append(item)
    return orders, errors


def due(board: Board, position: Position) -> dict[str, int]:
    """Builds (positive) or removals (negative) each power has in an adjustment phase."""
    return adjustments_due(board, position)


def merge(board: Board, position: Position, power: str, old: Sequence[Entry], new: Sequence[str]) -> Merge:
    """Add the ``new`` lines to the ``old`` set; see the module docstring."""
    entries = list(old)
    result = Merge(entries=[])
    fresh: list[tuple[int, Order]] = []
    for number, line in enumerate(new):
        if conditions.keyword(line) is not None:
            result.lines.append(LineResult(line, (render.refusal("conditions_need_phase"),)))
            continue
        orders, errors = check_line(board, position, power, line)
        result.lines.append(LineResult(line, tuple(dict.fromkeys(errors))))
        for order in orders:
            key = _key(order)
            if key is not None:
                entries = [e for e in entries if _key(e.order) != key]
            entries.append(Entry(line if len(orders) == 1 else _piece(board, order), order))
            fresh.append((number, order))
    kind = position.phase.kind
    if kind == MOVEMENT and fresh:
        _warn(board, position, entries, fresh, result)
    if kind == ADJUSTMENT:
        allowed = abs(due(board, position).get(power, 0))
        result.allowed = allowed
        if len(entries) > allowed:
            result.dropped = entries[:len(entries) - allowed]
            entries = entries[len(entries) - allowed:]
    result.entries = entries
    return result


def _warn(board: Board, position: Position, entries: list[Entry], fresh: list[tuple[int, Order]],
          result: Merge) -> None:
    """Put each warning on the whole set once, on the last new line it concerns."""
    line_of = {id(order): number for number, order in fresh}
    warnings: dict[str, int] = {}
    for order, message in check_order_set(board, position, [e.order for e in entries]):
        number = line_of.get(id(order))
        if number is not None:
            warnings[message] = max(number, warnings.get(message, -1))
    for message, number in warnings.items():
        line = result.lines[number]
        result.lines[number] = LineResult(line.text, line.errors, (*line.warnings, message))


def _piece(board: Board, order: Order) -> str:
    """A stored text for one order of a multi-order line (``waive 2``)."""
    return "waive" if isinstance(order, Waive) else describe(board.map, order).rstrip(".")


def owner_of_line(board: Board, position: Position, line: str) -> str | None:
    """The one power whose order ``line`` can be (the master orders for any power: njudge,
    "orders for units belonging to one or more powers can be submitted as the Master"), or
    None when no power's, or more than one's, fits."""
    fits = [p.name for p in board.map.powers if not check_line(board, position, p.name, line)[1]]
    return fits[0] if len(fits) == 1 else None


def required(board: Board, position: Position) -> dict[str, int]:
    """Powers that must order in this phase, with how many orders make a complete set
    (remembered for the last position asked about: a mail's checks ask for it once a power)."""
    last = _LAST_REQUIRED[0] if _LAST_REQUIRED else None
    if last is not None and last[0] is position and last[1] is board:
        return dict(last[2])
    counts = _required(board, position)
    _LAST_REQUIRED[:] = [(position, board, counts)]
    return dict(counts)


#: The last position :func:`required` was asked about, its board and its answer (positions
#: are frozen: the same object, the same answer).
_LAST_REQUIRED: list[tuple[Position, Board, dict[str, int]]] = []


def _required(board: Board, position: Position) -> dict[str, int]:
    kind = position.phase.kind
    counts: dict[str, int] = {}
    if kind == MOVEMENT:
        for unit in position.units.values():
            counts[unit.power] = counts.get(unit.power, 0) + 1
    elif kind == RETREAT:
        for d in position.dislodged.values():
            counts[d.unit.power] = counts.get(d.unit.power, 0) + 1
    else:
        counts = {p: abs(n) for p, n in due(board, position).items() if n}
    return counts


def is_complete(board: Board, position: Position, power: str, entries: Sequence[Entry]) -> bool:
    """True when every unit (movement), dislodged unit (retreat) or due adjustment of
    ``power`` has an order."""
    need = required(board, position).get(power, 0)
    if position.phase.kind == ADJUSTMENT:
        return len(entries) >= need
    return len({_key(e.order) for e in entries}) >= need


def echo(board: Board, position: Position, power: str, entries: Sequence[Entry]) -> list[str]:
    """The power's order set as the results print it; units left without an order are
    listed as ``No Order Processed`` (njudge's wording) in a movement or retreat phase."""
    m = board.map
    done = {_key(e.order) for e in entries}
    out = [describe(m, e.order) for e in entries]
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


def set_text(view: GameView, config: Config, power: str, now: datetime, reader: Player | None = None) -> str:
    """The power's whole order set as it stands, with completeness and the time left (the
    reply to orders, and the mail of orders entered in advance), dated in ``reader``'s zone."""
    board, position = view.board, view.position
    entries = view.entries(power)
    need = required(board, position).get(power, 0)
    return render.orders_text(context(config, view, reader), power, echo(board, position, power, entries),
                              is_complete(board, position, power, entries), now,
                              needed=need > 0, errors=view.errors(power), grace=view.game.grace_end,
                              at_grace="process" if view.game.nmr else "abandon")
