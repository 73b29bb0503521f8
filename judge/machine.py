"""``judge adjudicate``: the engine over JSON Lines, for tools and bots.

Each input line is one phase: ``{"map", "options", "phase", "units", "dislodged", "centres",
"orders"}``; each output line is ``{"results", "next", "errors"}`` (or ``{"error"}`` for a line
that cannot be read at all). Orders may be in any syntax the parser accepts; an order that
is refused is reported in ``errors`` and its unit gets the civil-disorder default.

Tools send phases by the million, so the path is kept short: a map and an option set are
made into a board once per process (boards are shared by value, see ``judge.maps``); a line
is decoded by orjson and read straight into the engine's values (``Position.from_json``); an
order line in the plain form tools write is read by the shorthand reader without the
grammar's list (as ``parse_orders`` would read it), and kept (``_KNOWN``): when the same line
comes again for the same unit values, its order, its results text and, where its legality
rests on the map and those units alone (``Legality.settled``), its verdict are taken as they
were; the legality of the other orders is checked against one
:class:`~judge.engine.validation.Legality` (the position's convoy chains searched once per
army); the response is encoded in one orjson call (a tenth of the standard encoder's time);
each response is written as soon as the input read so far is answered (:func:`stream`).
The command (``judge.cli``) keeps start-up's objects out of the collector's walks and closes
its output as soon as the input is answered, before the interpreter shuts down.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import IO, Any, Protocol

import orjson

from .engine import Board, Map, Options, Order, OrderError, Position, PositionError, Unit, adjudicate
from .engine.notation import describe
from .engine.options import OptionError
from .engine.orders import Convoy, Hold, Move, Support, Waive
from .engine.parser import parse_orders
from .engine.phase import MOVEMENT, PhaseError
from .engine.shorthand import read_movement, read_retreat_or_adjustment
from .engine.validation import Legality
from .maps import load_board


class RequestError(ValueError):
    """A request line that cannot be adjudicated."""


@cache
def _board(map_name: str, options: str) -> Board:
    """The board of a map under the options given as sorted JSON (a value, so that every
    line with the same map and options shares one board)."""
    return load_board(map_name, Options(json.loads(options)))


def board_for(request: dict[str, Any]) -> Board:
    """The board a request plays on."""
    options = request.get("options") or {}
    if not isinstance(options, dict):
        raise RequestError("options must be an object of option names and values")
    key = json.dumps(options, sort_keys=True) if options else "{}"
    try:
        return _board(str(request.get("map", "standard")), key)
    except KeyError as exc:
        raise RequestError(str(exc.args[0])) from None
    except OptionError as exc:
        raise RequestError(str(exc)) from None


def read_orders(board: Board, position: Position, given: object) -> tuple[list[Order], list[str]]:
    """The legal orders of the request and the errors for the others."""
    orders, errors, _ = _read_orders(board, position, given)
    return orders, errors


#: The movement order lines read before, by board and power: the line's text -> the province
#: of the ordered unit, that unit, the province of the unit it supports or convoys ("" if
#: none) and that unit, the order, whether its legality is settled (``Legality.settled``;
#: None until the line comes again), and its results text. The entry holds wherever those
#: same unit values stand again (units are shared values, ``position.unit_of``): the order is
#: the same value, and a settled one is legal without checking it again.
_Known = tuple[str, Unit, str, Unit | None, Order, bool | None, str]
_KNOWN: dict[Board, dict[str, dict[str, _Known]]] = {}
_KNOWN_LIMIT = 1 << 13  # lines kept per board and power before the table starts again (about 320 bytes a line: under 20 MB)


def _read_orders(board: Board, position: Position, given: object) -> tuple[list[Order], list[str], dict[int, str]]:
    """:func:`read_orders`, and the results texts of the orders read from plain lines, by
    the order's ``id``."""
    if not isinstance(given, dict):
        raise RequestError("orders must be an object keyed by power")
    m = board.map
    legality = Legality(board, position)
    check = legality.check
    movement = position.phase.kind == MOVEMENT
    plain = read_movement if movement else read_retreat_or_adjustment
    by_power = _KNOWN.get(board)
    if by_power is None:
        by_power = _KNOWN[board] = {}
    units = position.units
    orders: list[Order] = []
    errors: list[str] = []
    texts: dict[int, str] = {}
    for power_text, lines in given.items():
        power = m.find_power(str(power_text))
        if power is None:
            errors.append(f"{power_text}: no such power on the {m.title} map")
            continue
        name = power.name
        known = by_power.get(name)
        if known is None or len(known) > _KNOWN_LIMIT:
            known = by_power[name] = {}
        for line in [lines] if isinstance(lines, str) else lines:
            text = line if type(line) is str else str(line)
            if movement:
                entry = known.get(text)
                if entry is not None:
                    prov, unit, where, other, order, settled, described = entry
                    if units.get(prov) is unit and (not where or units.get(where) is other):
                        if not settled:
                            try:
                                check(order)
                            except OrderError as exc:
                                errors.append(f"{name}: {line}: {exc.message}")
                                continue
                            if settled is None:
                                known[text] = (prov, unit, where, other, order, legality.settled(order), described)
                        orders.append(order)
                        texts[id(order)] = described
                        continue
            # one order in the plain form tools write: read as parse_orders would, without its list
            read = plain(m, position, name, text) if "\n" not in text and ";" not in text and "," not in text \
                else None
            for item in parse_orders(board, position, name, text) if read is None else (read,):
                if isinstance(item, OrderError):
                    errors.append(f"{name}: {item.text or line}: {item.message}")
                    continue
                try:
                    check(item)
                except OrderError as exc:
                    errors.append(f"{name}: {line}: {exc.message}")
                    continue
                orders.append(item)
                if read is not None and movement:
                    texts[id(item)] = _remember(known, m, units, text, item)
    return orders, errors, texts


def _remember(known: dict[str, _Known], m: Map, units: Mapping[str, Unit], text: str, order: Order) -> str:
    """Keep a plain movement line's order (see ``_KNOWN``); its results text."""
    assert isinstance(order, (Hold, Move, Support, Convoy))
    where = order.target if isinstance(order, (Support, Convoy)) else ""
    described = describe(m, order)
    known[text] = (order.unit.province, order.unit, where, units.get(where) if where else None, order, None,
                   described)
    return described


def position_for(request: Any) -> tuple[Board, Position]:
    """The board and the position a request line gives (``judge adjudicate``, ``judge bot``)."""
    if not isinstance(request, dict):
        raise RequestError("each line must be a JSON object")
    board = board_for(request)
    try:
        return board, Position.from_json(board.map, request)
    except (PositionError, PhaseError) as exc:
        raise RequestError(str(exc)) from None


def answer(request: Any) -> bytes:
    """Adjudicate one parsed request and return the response as one line of JSON (UTF-8)."""
    board, position = position_for(request)
    m = board.map
    orders, errors, texts = _read_orders(board, position, request.get("orders") or {})
    result = adjudicate(board, position, orders)
    known = texts.get
    response: dict[str, Any] = {
        "results": [{"power": o.power if isinstance(o, Waive) else o.unit.power, "order": known(id(o)) or describe(m, o),
                     "outcome": _outcome(notes) if notes else ""} for o, notes, _, _ in result.results],
        "next": result.next.to_json(m),
        "errors": errors,
    }
    if result.winners:
        response["winners"] = list(result.winners)
    return _dumps(response)


def handle(request: Any) -> dict[str, Any]:
    """The response to one parsed request as an object (what :func:`answer` writes)."""
    response: dict[str, Any] = orjson.loads(answer(request))
    return response


_dumps = orjson.dumps  # one line of JSON in UTF-8, in a tenth of the standard encoder's time


@cache
def _outcome(notes: tuple[str, ...]) -> str:
    """A result's notes as the results print them (``"bounce"``, ``"cut, dislodged"``)."""
    return ", ".join(notes)


def run(lines: Iterable[str]) -> Iterator[bytes]:
    """One JSON response line (UTF-8) per input line; a bad line gets ``{"error": ...}``."""
    for line in lines:
        if not line.strip():
            continue
        try:
            yield answer(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            yield _dumps({"error": f"not JSON: {exc}"})
        except RequestError as exc:
            yield _dumps({"error": str(exc)})


class _Chunks(Protocol):
    def read1(self, size: int = ..., /) -> bytes: ...


def stream(source: _Chunks, sink: IO[bytes]) -> None:
    """Answer every line of ``source`` (bytes, as standard input gives them) on ``sink``
    (bytes: the answers are UTF-8 whatever the locale), flushing as soon as the input read so far is answered: a tool that sends one line and
    waits gets its answer at once, a file of lines is answered in few large writes."""
    pending = b""
    while chunk := source.read1(1 << 16):
        *lines, pending = (pending + chunk).split(b"\n")
        sink.write(b"".join(answer + b"\n" for answer in run(_text(line) for line in lines)))
        sink.flush()
    if pending.strip():
        sink.write(b"".join(answer + b"\n" for answer in run([_text(pending)])))
        sink.flush()


def _text(line: bytes) -> str:
    """A line as text; bytes that are not UTF-8 become U+FFFD, and the line is then answered
    as JSON that cannot be read, not by stopping."""
    return line.decode("utf-8", "replace")
