"""The registry of variant rules: the :class:`Ruleset` of hooks, and how rule modules join it.

A :class:`Ruleset` gathers the hooks the engine calls at defined points. The standard game
has none. A variant rule module (``railway.py``, ``canal.py``, ``island_hopping.py``...)
contributes hooks through :func:`register` and map edits through :func:`register_map_edit`;
``Board.of`` asks :func:`board_map` and :func:`ruleset_for` for the ones that apply to a map
and its options, once per game view. A rule driven by a table of the map file
(``[rules.<name>]``) checks it with a :data:`DataCheck`, through :func:`data_problems` (the
problems, for tools and tests) and :func:`rule_data` (the table, or a :class:`MapError`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from ..calendar import STANDARD_CALENDAR, Calendar
from ..map import Map
from ..mapfile import MapError
from ..options import Options
from ..orders import Move, MovementOrder, Order, Support
from ..position import Position
from ..routes import RetreatRoute, RetreatRule, RouteRule, VariantRoute

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


#: The problems of a rule's ``[rules.<name>]`` table: ``(map, table) -> messages`` (none: sound).
DataCheck = Callable[[Map, Mapping[str, Any]], list[str]]


def data_problems(m: Map, rule: str, check: DataCheck) -> list[str]:
    """The problems ``check`` finds in ``m``'s ``[rules.<rule>]`` table; none without one."""
    data = m.rules.get(rule)
    return [] if data is None else check(m, data)


def rule_data(m: Map, rule: str, check: DataCheck) -> Mapping[str, Any] | None:
    """``m``'s ``[rules.<rule>]`` table (None: the map has none); a table ``check`` finds
    problems in raises :class:`MapError`."""
    data: Mapping[str, Any] | None = m.rules.get(rule)
    if data is None:
        return None
    problems = check(m, data)
    if problems:
        raise MapError(m.name, problems)
    return data


@dataclass(frozen=True)
class Ruleset:
    """The variant hooks in force for one game.

    - ``route_rules``: for moves with ``Move.via`` set (``"railway"``), whether the route is
      open during movement resolution.
    - ``retreat_rules``: filters on retreat destinations.
    - ``calendar``: the phase sequence and names.
    - ``centre_value``: how much a centre counts for its owner (builds and victory);
      ``None`` means one for every centre.
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
    move_checks: Mapping[str, MoveCheck] = field(default_factory=dict)
    alt_routes: tuple[AltRoute, ...] = ()
    support_checks: tuple[SupportCheck, ...] = ()
    movement_orders: tuple[OrderHook, ...] = ()
    retreat_routes: tuple[RetreatRoute, ...] = ()
    order_set_checks: tuple[OrderSetCheck, ...] = ()


class RulesetPart(TypedDict, total=False):
    """What one rule module contributes to a :class:`Ruleset` (any subset of its fields)."""

    route_rules: Mapping[str, RouteRule | VariantRoute]
    retreat_rules: tuple[RetreatRule, ...]
    calendar: Calendar
    centre_value: Callable[[str, str], int]
    move_checks: Mapping[str, MoveCheck]
    alt_routes: tuple[AltRoute, ...]
    support_checks: tuple[SupportCheck, ...]
    movement_orders: tuple[OrderHook, ...]
    retreat_routes: tuple[RetreatRoute, ...]
    order_set_checks: tuple[OrderSetCheck, ...]


#: A rule module's contribution: (map, options) -> its part of the Ruleset, or None.
Contributor = Callable[[Map, Options], "RulesetPart | None"]
_CONTRIBUTORS: list[Contributor] = []
#: A rule module's map edit: (map, options) -> the board those options play on (or the same).
MapEdit = Callable[[Map, Options], Map]
_MAP_EDITS: list[MapEdit] = []


def register_map_edit(edit: MapEdit) -> MapEdit:
    """Add a rule module's map edit (map versions chosen by an option), as a decorator."""
    _MAP_EDITS.append(edit)
    return edit


def board_map(m: Map, options: Options) -> Map:
    """The map a game with ``options`` plays on: ``m`` itself unless a rule module's edit
    changes it (Colonial's map versions, Oceania's island hops). Used by ``Board.of``."""
    for edit in _MAP_EDITS:
        m = edit(m, options)
    return m


def register(contributor: Contributor) -> Contributor:
    """Add a rule module's hook factory (used as a decorator)."""
    _CONTRIBUTORS.append(contributor)
    return contributor


def ruleset_for(m: Map, options: Options) -> Ruleset:
    """The hooks in force for map ``m`` with ``options``."""
    route_rules: dict[str, RouteRule | VariantRoute] = {}
    retreat_rules: list[RetreatRule] = []
    calendar = STANDARD_CALENDAR
    centre_value: Callable[[str, str], int] | None = None
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
        move_checks.update(part.get("move_checks", {}))
        alt_routes.extend(part.get("alt_routes", ()))
        support_checks.extend(part.get("support_checks", ()))
        movement_orders.extend(part.get("movement_orders", ()))
        retreat_routes.extend(part.get("retreat_routes", ()))
        order_set_checks.extend(part.get("order_set_checks", ()))
    return Ruleset(
        route_rules, tuple(retreat_rules), calendar, centre_value,
        move_checks, tuple(alt_routes), tuple(support_checks), tuple(movement_orders),
        tuple(retreat_routes), tuple(order_set_checks),
    )
