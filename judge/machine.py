"""``judge adjudicate``: the engine over JSON Lines, for tools and bots.

Each input line is one phase: ``{"map", "options", "phase", "units", "dislodged", "centres",
"orders"}``; each output line is ``{"results", "next", "errors"}`` (or ``{"error"}`` for a line
that cannot be read at all). Orders may be in any syntax the parser accepts; an order that
is refused is reported in ``errors`` and its unit gets the civil-disorder default.

Tools send phases by the million, so the path is kept short: a map and an option set are
made into a board once per process (boards are shared by value, see ``judge.maps``); a line
is read straight into the engine's values (``Position.from_json``); an order line in the plain
form tools write is read by the shorthand reader without the grammar's list (as
``parse_orders`` would read it); the legality of all its orders is checked against one
:class:`~judge.engine.validation.Legality` (the position's convoy chains searched once per
army); the response is written as JSON text from pieces
(each result from its power's start, its order's text and its notes, kept where they
repeat), not built as objects and encoded, and the next position is encoded in one call;
each response is written as soon as the input read so far is answered (:func:`stream`).
The command (``judge.cli``) keeps start-up's objects out of the collector's walks and closes
its output as soon as the input is answered, before the interpreter shuts down.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import cache
from json.encoder import encode_basestring_ascii
from typing import IO, Any, Protocol

from .engine import Board, Options, Order, OrderError, Position, PositionError, adjudicate
from .engine.notation import describe
from .engine.options import OptionError
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
    if not isinstance(given, dict):
        raise RequestError("orders must be an object keyed by power")
    m = board.map
    check = Legality(board, position).check
    plain = read_movement if position.phase.kind == MOVEMENT else read_retreat_or_adjustment
    orders: list[Order] = []
    errors: list[str] = []
    for power_text, lines in given.items():
        power = m.find_power(str(power_text))
        if power is None:
            errors.append(f"{power_text}: no such power on the {m.title} map")
            continue
        name = power.name
        for line in [lines] if isinstance(lines, str) else lines:
            text = str(line)
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
    return orders, errors


def answer(request: Any) -> str:
    """Adjudicate one parsed request and return the response as one line of JSON."""
    if not isinstance(request, dict):
        raise RequestError("each line must be a JSON object")
    board = board_for(request)
    m = board.map
    try:
        position = Position.from_json(m, request)
    except (PositionError, PhaseError) as exc:
        raise RequestError(str(exc)) from None
    orders, errors = read_orders(board, position, request.get("orders") or {})
    result = adjudicate(board, position, orders)
    results = ", ".join([f'{_result_start(r.power)}{_string(describe(m, r.order))}, "outcome": {_outcome(r.notes)}'
                         for r in result.results])
    winners = f', "winners": {_encode(list(result.winners))}' if result.winners else ""
    return (f'{{"results": [{results}], "next": {_encode(result.next.to_json(m))}, '
            f'"errors": [{", ".join(map(_string, errors))}]{winners}}}')


def handle(request: Any) -> dict[str, Any]:
    """The response to one parsed request as an object (what :func:`answer` writes)."""
    response: dict[str, Any] = json.loads(answer(request))
    return response


_encode = json.JSONEncoder(check_circular=False).encode  # responses hold no cycles
_string = encode_basestring_ascii  # a string as _encode writes it, without making an encoder


@cache
def _result_start(power: str) -> str:
    """A result's JSON up to its order: ``{"power": "France", "order": ``."""
    return f'{{"power": {_string(power)}, "order": '


@cache
def _outcome(notes: tuple[str, ...]) -> str:
    """The end of a result's JSON: its notes as the results print them (``"bounce"``).
    (Results are written from such pieces, not encoded as objects: the pieces are few, and
    an encoding is the larger part of writing an answer.)"""
    return _string(", ".join(notes)) + "}"


def run(lines: Iterable[str]) -> Iterator[str]:
    """One JSON response line per input line; a bad line gets ``{"error": ...}``."""
    for line in lines:
        if not line.strip():
            continue
        try:
            yield answer(json.loads(line))
        except json.JSONDecodeError as exc:
            yield _encode({"error": f"not JSON: {exc}"})
        except RequestError as exc:
            yield _encode({"error": str(exc)})


class _Chunks(Protocol):
    def read1(self, size: int = ..., /) -> bytes: ...


def stream(source: _Chunks, sink: IO[str]) -> None:
    """Answer every line of ``source`` (bytes, as standard input gives them) on ``sink``,
    flushing as soon as the input read so far is answered: a tool that sends one line and
    waits gets its answer at once, a file of lines is answered in few large writes."""
    pending = b""
    while chunk := source.read1(1 << 16):
        *lines, pending = (pending + chunk).split(b"\n")
        sink.write("".join(answer + "\n" for answer in run(_text(line) for line in lines)))
        sink.flush()
    if pending.strip():
        sink.write("".join(answer + "\n" for answer in run([_text(pending)])))
        sink.flush()


def _text(line: bytes) -> str:
    """A line as text; bytes that are not UTF-8 become U+FFFD, and the line is then answered
    as JSON that cannot be read, not by stopping."""
    return line.decode("utf-8", "replace")
