"""Variant rules that map data cannot express, switched on by map and game options.

A :class:`Ruleset` gathers the hooks the engine calls at defined points. The standard game
has none. A variant rule module (``railway.py``, ``canal.py``, ``island_hopping.py``...)
contributes hooks through :func:`register`; :func:`ruleset_for` assembles the ones that
apply to a map and its options.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..adjudicator import RouteRule, VariantRoute
from ..calendar import STANDARD_CALENDAR, Calendar
from ..map import Map
from ..options import Options
from ..orders import Move, MovementOrder, Order, Support
from ..position import Position
from ..retreats import RetreatRoute, RetreatRule

#: Legality at entry of a move along a variant route: ``(map, position, move)``, raising
#: :class:`~judge.engine.orders.OrderError` when the move cannot be valid.
MoveCheck = Callable[[Map, Position, Move], None]
#: A variant route a plain move may take where the board has no border: ``(map, position,
#: move) -> via`` (``"canal"``, ``"railway"``) or None.
AltRoute = Callable[[Map, Position, Move], "str | None"]
#: Accepts a support the board's borders would refuse: ``(map, position, support) -> True``.
SupportCheck = Callable[[Map, Position, Support], bool]
#: Orders of one power's set the set as a whole makes ineffective, with a message:
#: ``(map, position, orders) -> [(order, message)]`` (``validation.check_order_set``).
OrderSetCheck = Callable[[Map, Position, "list[Order]"], "list[tuple[Order, str]]"]
#: Rewrites a movement phase's orders (province -> order) before adjudication.
OrderHook = Callable[[Map, Position, Mapping[str, MovementOrder]], dict[str, MovementOrder]]


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
    - ``move_checks``: via -> legality at entry of moves along that route (validation).
    - ``alt_routes``: variant routes for plain moves between provinces with no border
      (validation, and ``movement_orders`` hooks that mark such moves with their ``via``).
    - ``support_checks``: supports a variant accepts although the borders do not allow them.
    - ``movement_orders``: rewrite the orders of a movement phase before it is adjudicated.
    - ``retreat_routes``: retreat destinations beyond the borders (given the units after the
      movement).
    - ``order_set_checks``: warnings on a power's whole order set at entry.
    """

    route_rules: Mapping[str, RouteRule | VariantRoute] = field(default_factory=dict)
    retreat_rules: tuple[RetreatRule, ...] = ()
    calendar: Calendar = STANDARD_CALENDAR
    centre_value: Callable[[str, str], int] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    move_checks: Mapping[str, MoveCheck] = field(default_factory=dict)
    alt_routes: tuple[AltRoute, ...] = ()
    support_checks: tuple[SupportCheck, ...] = ()
    movement_orders: tuple[OrderHook, ...] = ()
    retreat_routes: tuple[RetreatRoute, ...] = ()
    order_set_checks: tuple[OrderSetCheck, ...] = ()


#: A rule module's contribution: (map, options) -> partial Ruleset fields, or None.
Contributor = Callable[[Map, Options], Mapping[str, Any] | None]
_CONTRIBUTORS: list[Contributor] = []
#: A rule module's map edit: (map, options) -> the board those options play on (or the same).
MapEdit = Callable[[Map, Options], Map]
_MAP_EDITS: list[MapEdit] = []
_GAME_MAPS: dict[tuple[int, Options], Map] = {}
_OPTIONS_OF: dict[int, tuple[Map, Options]] = {}
_RULESETS: dict[tuple[int, Options], tuple[Map, Ruleset]] = {}


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
        if cached is not m:
            _OPTIONS_OF[id(cached)] = (cached, options)
    return cached


def map_options(m: Map) -> Options:
    """The options a board from :func:`game_map` was made for (so that the parser and
    validation, which see only the board, follow the game's options); ``Options()`` for a
    board no option changed."""
    found = _OPTIONS_OF.get(id(m))
    return found[1] if found is not None and found[0] is m else _default_options()


@cache
def _default_options() -> Options:
    """The defaults, built once (every rule module has declared its options by the time a
    board is asked about)."""
    return Options()


def rules_of(m: Map) -> Ruleset:
    """The ruleset of a board from :func:`game_map` (see :func:`map_options`), cached."""
    options = map_options(m)
    key = (id(m), options)
    found = _RULESETS.get(key)
    if found is None or found[0] is not m:
        found = (m, ruleset_for(m, options))
        _RULESETS[key] = found
    return found[1]


def register(contributor: Contributor) -> Contributor:
    """Add a rule module's hook factory (used as a decorator)."""
    _CONTRIBUTORS.append(contributor)
    return contributor


def ruleset_for(m: Map, options: Options) -> Ruleset:
    """The hooks in force for map ``m`` with ``options``."""
    route_rules: dict[str, RouteRule | VariantRoute] = {}
    retreat_rules: list[RetreatRule] = []
    calendar = STANDARD_CALENDAR
    centre_value = None
    extra: dict[str, Any] = {}
    move_checks: dict[str, MoveCheck] = {}
    alt_routes: list[AltRoute] = []
    support_checks: list[SupportCheck] = []
    movement_orders: list[OrderHook] = []
    retreat_routes: list[RetreatRoute] = []
    order_set_checks: list[OrderSetCheck] = []
    for contributor in _CONTRIBUTORS:
        part = contributor(m, options)
        if not part:
            continue
        route_rules.update(part.get("route_rules", {}))
        retreat_rules.extend(part.get("retreat_rules", ()))
        calendar = part.get("calendar", calendar)
        centre_value = part.get("centre_value", centre_value)
        extra.update(part.get("extra", {}))
        move_checks.update(part.get("move_checks", {}))
        alt_routes.extend(part.get("alt_routes", ()))
        support_checks.extend(part.get("support_checks", ()))
        movement_orders.extend(part.get("movement_orders", ()))
        retreat_routes.extend(part.get("retreat_routes", ()))
        order_set_checks.extend(part.get("order_set_checks", ()))
    return Ruleset(
        route_rules, tuple(retreat_rules), calendar, centre_value, extra,
        move_checks, tuple(alt_routes), tuple(support_checks), tuple(movement_orders),
        tuple(retreat_routes), tuple(order_set_checks),
    )


# Rule modules register their hooks and options on import (kept last: they import from here).
from . import canal, colonial, hong_kong, island_hopping, railway, straits  # noqa: E402, F401
