"""``judge bot``: the bot over JSON Lines, in the position contract of ``judge adjudicate``.

Each input line is one phase: ``{"map", "options", "phase", "units", "dislodged",
"centres"}`` as ``judge adjudicate`` reads them, plus ``"powers"`` (the powers to play; all
of the map's when left out) and ``"seed"`` (an integer; 0 when left out). Each output line is
``{"orders": {power: [order, ...]}}`` with the orders in the plain syntax the judge reads
(``A par - bur``, ``F nth C A lon - bel``, ``A mos - TSR - vla``, ``build F stp/nc``), or
``{"error": "..."}`` for a line that cannot be read; the next line is still answered.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .bots import bot_texts
from .machine import RequestError, position_for


def answer(request: Any) -> dict[str, Any]:
    """The bot's orders for one parsed request."""
    board, position = position_for(request)
    m = board.map
    seed = request.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RequestError("seed must be an integer")
    names = request.get("powers")
    if names is None:
        names = list(m.power_names)
    if not isinstance(names, list):
        raise RequestError("powers must be a list of power names")
    powers = []
    for name in names:
        found = m.find_power(str(name))
        if found is None:
            raise RequestError(f"no power {name!r} on the {m.title} map")
        powers.append(found.name)
    return {"orders": {p: bot_texts(board, position, p, seed) for p in powers}}


def run(lines: Iterable[str]) -> Iterator[str]:
    """One JSON response line per non-blank input line."""
    for line in lines:
        if not line.strip():
            continue
        try:
            response = answer(json.loads(line))
        except json.JSONDecodeError as exc:
            response = {"error": f"not JSON: {exc}"}
        except RequestError as exc:
            response = {"error": str(exc)}
        yield json.dumps(response, separators=(",", ":"))
