"""``judge adjudicate``: the engine over JSON Lines, for tools and bots.

Each input line is one phase: ``{"map", "options", "phase", "units", "dislodged", "centres",
"orders"}``; each output line is ``{"results", "next", "errors"}`` (or ``{"error"}`` for a line
that cannot be read at all). Orders may be in any syntax the parser accepts; an order that
is refused is reported in ``errors`` and its unit gets the civil-disorder default.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .engine import Options, OrderError, Position, PositionError, adjudicate
from .engine.notation import describe
from .engine.options import OptionError
from .engine.parser import parse_orders
from .engine.phase import PhaseError
from .engine.validation import check_order
from .maps import load_board


class RequestError(ValueError):
    """A request line that cannot be adjudicated."""


def handle(request: Any) -> dict[str, Any]:
    """Adjudicate one parsed request and return the response object."""
    if not isinstance(request, dict):
        raise RequestError("each line must be a JSON object")
    try:
        options = Options(request.get("options") or {})
        board = load_board(str(request.get("map", "standard")), options)
    except KeyError as exc:
        raise RequestError(str(exc.args[0])) from None
    except OptionError as exc:
        raise RequestError(str(exc)) from None
    m = board.map
    try:
        position = Position.from_json(m, request)
    except (OptionError, PositionError, PhaseError) as exc:
        raise RequestError(str(exc)) from None
    given = request.get("orders") or {}
    if not isinstance(given, dict):
        raise RequestError("orders must be an object keyed by power")
    orders = []
    errors: list[str] = []
    for power_text, lines in given.items():
        power = m.find_power(str(power_text))
        if power is None:
            errors.append(f"{power_text}: no such power on the {m.title} map")
            continue
        if isinstance(lines, str):
            lines = [lines]
        for line in lines:
            for item in parse_orders(board, position, power.name, str(line)):
                if isinstance(item, OrderError):
                    errors.append(f"{power.name}: {item.text or line}: {item.message}")
                    continue
                try:
                    check_order(board, position, item)
                except OrderError as exc:
                    errors.append(f"{power.name}: {line}: {exc.message}")
                    continue
                orders.append(item)
    result = adjudicate(board, position, orders)
    return {
        "results": [
            {"power": r.power, "order": describe(m, r.order), "outcome": r.outcome}
            for r in result.results
        ],
        "next": result.next.to_json(m),
        "errors": errors,
        **({"winners": list(result.winners)} if result.winners else {}),
    }


def run(lines: Iterable[str]) -> Iterator[str]:
    """One JSON response line per input line; a bad line gets ``{"error": ...}``."""
    for line in lines:
        if not line.strip():
            continue
        try:
            response = handle(json.loads(line))
        except json.JSONDecodeError as exc:
            response = {"error": f"not JSON: {exc}"}
        except RequestError as exc:
            response = {"error": str(exc)}
        yield json.dumps(response, ensure_ascii=False)
