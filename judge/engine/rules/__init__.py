"""Variant rules that map data cannot express, switched on by map and game options.

A :class:`Ruleset` gathers the hooks the engine calls at defined points. The standard game
has none. A variant rule module (``railway.py``, ``canal.py``, ``island_hopping.py``...)
contributes hooks through :func:`register`; :func:`ruleset_for` assembles the ones that
apply to a map and its options.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..adjudicator import RouteRule
from ..calendar import STANDARD_CALENDAR, Calendar
from ..map import Map
from ..options import Options
from ..retreats import RetreatRule


@dataclass(frozen=True)
class Ruleset:
    """The variant hooks in force for one game.

    - ``route_rules``: for moves with ``Move.via`` set (``"railway"``), whether the route is
      open during movement resolution.
    - ``retreat_rules``: filters on retreat destinations.
    - ``calendar``: the phase sequence and names.
    - ``centre_value``: how much a centre counts for its owner (builds and victory);
      ``None`` means one for every centre.
    - ``extra``: anything else a rule module shares with the parser or validation.
    """

    route_rules: Mapping[str, RouteRule] = field(default_factory=dict)
    retreat_rules: tuple[RetreatRule, ...] = ()
    calendar: Calendar = STANDARD_CALENDAR
    centre_value: Callable[[str, str], int] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


#: A rule module's contribution: (map, options) -> partial Ruleset fields, or None.
Contributor = Callable[[Map, Options], Mapping[str, Any] | None]
_CONTRIBUTORS: list[Contributor] = []
#: A rule module's map edit: (map, options) -> the board those options play on (or the same).
MapEdit = Callable[[Map, Options], Map]
_MAP_EDITS: list[MapEdit] = []
_GAME_MAPS: dict[tuple[int, Options], Map] = {}


def register_map_edit(edit: MapEdit) -> MapEdit:
    """Add a rule module's map edit (map versions chosen by an option), as a decorator."""
    _MAP_EDITS.append(edit)
    return edit


def game_map(m: Map, options: Options) -> Map:
    """The board a game with ``options`` plays on: ``m`` itself unless an option picks a
    version of it (Colonial's map versions). Derived maps are built once and kept."""
    key = (id(m), options)
    cached = _GAME_MAPS.get(key)
    if cached is None:
        cached = m
        for edit in _MAP_EDITS:
            cached = edit(cached, options)
        _GAME_MAPS[key] = cached
    return cached


def register(contributor: Contributor) -> Contributor:
    """Add a rule module's hook factory (used as a decorator)."""
    _CONTRIBUTORS.append(contributor)
    return contributor


def ruleset_for(m: Map, options: Options) -> Ruleset:
    """The hooks in force for map ``m`` with ``options``."""
    route_rules: dict[str, RouteRule] = {}
    retreat_rules: list[RetreatRule] = []
    calendar = STANDARD_CALENDAR
    centre_value = None
    extra: dict[str, Any] = {}
    for contributor in _CONTRIBUTORS:
        part = contributor(m, options)
        if not part:
            continue
        route_rules.update(part.get("route_rules", {}))
        retreat_rules.extend(part.get("retreat_rules", ()))
        calendar = part.get("calendar", calendar)
        centre_value = part.get("centre_value", centre_value)
        extra.update(part.get("extra", {}))
    return Ruleset(route_rules, tuple(retreat_rules), calendar, centre_value, extra)


# Rule modules register their hooks and options on import (kept last: they import from here).
from . import island_hopping, straits  # noqa: E402, F401
