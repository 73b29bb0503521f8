"""Orders and units as the classic judge results print them.

The wording follows njudge's result mails: ``Army Armenia -> Smyrna.``, ``Fleet Ionian Sea
SUPPORT French Fleet Tunis.``, ``Builds a fleet in St Petersburg (north coast).``,
``Removes the fleet in the Norwegian Sea.``, ``Build waived.``. A supported or convoyed unit
carries its power's adjective only when it belongs to another power than the ordering one.
"""

from __future__ import annotations

from collections.abc import Mapping

from .map import ARMY, UNIT_NAMES, Map
from .orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, Waive
from .position import Dislodged, Unit

RAILWAY_NAME = "Trans-Siberian Railroad"
CANAL_NAME = "Suez Canal"


def describe_unit(m: Map, unit: Unit, *, article: bool = False) -> str:
    """``Army Berlin``; with ``article``: ``the French Fleet in the Ionian Sea``."""
    if not article:
        return m.unit_name(unit.type, unit.location)
    return f"the {adjective(m, unit.power)} {UNIT_NAMES[unit.type]} in {m.location_name(unit.location, article=True)}"


def adjective(m: Map, power: str) -> str:
    """The power's adjective (``French``), or the name itself if the map does not know it."""
    known = m.adjectives.get(power)
    if known is not None:
        return known
    found = m.power_by_name.get(power.lower()) or m.find_power(power)
    return found.adjective if found is not None else power


def describe_dislodged(m: Map, dislodged: Dislodged) -> str:
    """The line of the dislodged block of a movement result."""
    who = describe_unit(m, dislodged.unit, article=True)
    who = who[0].upper() + who[1:]
    if not dislodged.retreats:
        return f"{who} with no valid retreats was destroyed."
    places = " or ".join(m.location_name(r) for r in dislodged.retreats)
    return f"{who} can retreat to {places}."


def _other_unit(m: Map, power: str, unit_power: str | None, unit_type: str | None, province: str) -> str:
    text = m.location_name(province)
    if unit_type is not None:
        text = f"{UNIT_NAMES[unit_type]} {text}"
    if unit_power is not None and unit_power != power:
        text = f"{adjective(m, unit_power)} {text}"
    return text


def railway_name(m: Map) -> str:
    """The railway's name as the map gives it (``[rules.railway] name``)."""
    data = m.rules.get("railway")
    if isinstance(data, Mapping):
        return str(data.get("name", RAILWAY_NAME))
    return RAILWAY_NAME


def canal_name(m: Map) -> str:
    """The canal's name as the map gives it (``[rules.canal] name``), for a canal move
    (Colonial's Moulmein reading: ``Fleet Mediterranean Sea -> Suez Canal -> Red Sea.``)."""
    data = m.rules.get("canal")
    if isinstance(data, Mapping):
        return str(data.get("name", CANAL_NAME))
    return CANAL_NAME


def describe(m: Map, order: Order) -> str:
    """One order as a results line (without the ``Power:`` prefix)."""
    name = m.location_name
    if isinstance(order, Move):  # the orders of a movement phase first: they are the most
        if order.via is None and not order.route:
            unit, dest = order.unit, order.dest
            # the names looked up directly: this line is written for every move of every phase
            who = m.unit_names.get((unit.type, unit.location)) or m.unit_name(unit.type, unit.location)
            return f"{who} -> {m.names.get(dest) or name(dest)}."
        steps = [name(r) for r in order.route]
        if order.via == "railway":
            steps = [railway_name(m)]
        elif order.via == "canal":
            steps = [canal_name(m)]
        return " -> ".join([describe_unit(m, order.unit), *steps, name(order.dest)]) + "."
    if isinstance(order, Hold):
        unit = order.unit
        return f"{m.unit_names.get((unit.type, unit.location)) or m.unit_name(unit.type, unit.location)} HOLD."
    if isinstance(order, Support):
        other = _other_unit(m, order.unit.power, order.target_power, order.target_type, order.target)
        if order.dest is None:
            return f"{m.unit_name(order.unit.type, order.unit.location)} SUPPORT {other}."
        return f"{m.unit_name(order.unit.type, order.unit.location)} SUPPORT {other} -> {name(order.dest)}."
    if isinstance(order, Convoy):
        other = _other_unit(m, order.unit.power, order.target_power, ARMY, order.target)
        return f"{m.unit_name(order.unit.type, order.unit.location)} CONVOY {other} -> {name(order.dest)}."
    if isinstance(order, Retreat):
        return f"{describe_unit(m, order.unit)} -> {name(order.dest)}."
    if isinstance(order, Disband):
        return f"{describe_unit(m, order.unit)} DISBAND."
    if isinstance(order, Build):
        kind = "an army" if order.unit.type == ARMY else "a fleet"
        return f"Builds {kind} in {name(order.unit.location, article=True)}."
    if isinstance(order, Remove):
        kind = UNIT_NAMES[order.unit.type].lower()
        return f"Removes the {kind} in {name(order.unit.location, article=True)}."
    if isinstance(order, Waive):
        return "Build waived."
    raise TypeError(f"not an order: {order!r}")
