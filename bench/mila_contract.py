"""MILA's ``diplomacy`` engine behind the ``judge adjudicate`` JSON contract (movement phases).

Each input line is a request as ``judge adjudicate`` reads it (``map`` standard, ``phase``,
``units``, ``centres``, ``orders`` in the plain form ``A lon - bel``, ``F nth C A lon - bel``,
``A bel - hol via convoy``); each output line is ``{"results", "next", "errors"}`` with the
units of ``next`` in our form (``A bel``, ``F stp/sc``) and ``dislodged`` listing the units
that may retreat, with their retreats. One ``Game`` serves every line, cleared of units,
centres and orders and set to the line's phase: the fastest correct use of MILA we found.
With ``--fresh`` each line gets a new ``Game`` instead (the same answers on the bench's
phases, a quarter slower). Run: ``python bench/mila_contract.py [--fresh] < requests.jsonl``
(needs ``pip install diplomacy``, the ``bench`` extra).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from diplomacy import Game  # type: ignore[import-not-found]


def mila_order(text: str) -> str:
    """Our plain order text in MILA's syntax (upper case; ``via convoy`` is ``VIA``)."""
    words = text.split()
    via = [w.lower() for w in words[-2:]] == ["via", "convoy"]
    if via:
        words = words[:-2]
    return " ".join(w.upper() for w in words) + (" VIA" if via else "")


def _ours(unit: str) -> str:
    """``*F STP/SC`` (MILA, dislodged) -> ``F stp/sc``."""
    utype, location = unit.lstrip("*").split()
    return f"{utype} {location.lower()}"


_GAME = Game()


def handle(request: dict[str, Any], game: Any = _GAME) -> dict[str, Any]:
    """Adjudicate one movement phase with MILA and answer in the contract's form."""
    game.clear_units()
    game.clear_centers()
    game.clear_orders()
    game.set_current_phase(str(request["phase"]))
    for power, units in (request.get("units") or {}).items():
        game.set_units(power.upper(), [u.upper() for u in units])
    for power, centres in (request.get("centres") or {}).items():
        game.set_centers(power.upper(), [c.upper() for c in centres])
    for power, lines in (request.get("orders") or {}).items():
        game.set_orders(power.upper(), [mila_order(x) for x in lines])
    errors = [str(e) for e in game.error]
    game.process()
    outcome = game.result_history.last_value()
    names = {p.upper(): p for p in request.get("units") or {}}
    results = [
        {"power": names.get(power.name, power.name.title()), "order": unit, "outcome": ", ".join(map(str, notes))}
        for power in game.powers.values() for unit, notes in sorted(outcome.items())
        if unit in power.units or unit.lstrip("*") in power.retreats
    ]
    units: dict[str, list[str]] = {}
    dislodged: dict[str, list[dict[str, Any]]] = {}
    centres: dict[str, list[str]] = {}
    for power in game.powers.values():
        name = names.get(power.name, power.name.title())
        kept = sorted(_ours(u) for u in power.units if not u.startswith("*"))
        if kept:
            units[name] = kept
        moving = [{"unit": _ours(u), "retreats": sorted(loc.lower() for loc in locs)}
                  for u, locs in sorted(power.retreats.items()) if locs]
        if moving:
            dislodged[name] = moving
        if power.centers:
            centres[name] = sorted(c.lower() for c in power.centers)
    return {"results": results, "next": {"phase": game.get_current_phase(), "units": units,
                                         "dislodged": dislodged, "centres": centres}, "errors": errors}


def main() -> None:
    fresh = "--fresh" in sys.argv[1:]
    out = sys.stdout
    for line in sys.stdin:
        if line.strip():
            out.write(json.dumps(handle(json.loads(line), Game() if fresh else _GAME)) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
