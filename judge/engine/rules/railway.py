"""The Trans-Siberian Railroad (Colonial; variants-spec.md sections 2.2-2.4 and 4 rows 1-12).

Data: ``[rules.railway]`` of the map (stations in order, the one power and unit type that
may use it). A TSR move is ``Move(unit, dest, via="railway")``; the parser reads every form
of spec 2.2. Options: ``tsr_*`` (declared in ``colonial.py``).

At entry (``move_checks``): only the railway's power, only its unit type, start and
destination two different stations, and with ``tsr_sc_break`` no supply centre strictly
between them that the power does not own at the start of the phase. With ``tsr_implicit`` a
plain move between two stations that do not border each other is read as a TSR move
(``alt_routes``). A support may name the TSR move as a plain move (``A ore S A mos - oms``);
the match is on the unit and the destination (``support_checks``).

At entry of a power's order set (``order_set_checks``, ``validation.check_order_set``): a
warning on each TSR order that will not go because of another (``tsr_multiple``).

Before adjudication (``movement_orders``): TSR orders that could not be valid become holds
(orders entered by a GM or as defaults), and with several TSR orders all hold
(``tsr_multiple=none``) or only the first given goes (``first``).

During adjudication (:class:`Railway`, a :class:`VariantRoute`), for the army in S moving
to D along the path p1..pm (the stations strictly between):

* a path province is a *break* if a foreign unit stood there and does not leave
  (``tsr_temporary_leave``; a dislodged one still blocks with
  ``tsr_dislodged_occupant_blocks``), if a foreign unit there is ordered along the line
  (``tsr_along_line_blocks``), or if a foreign unit moving in would succeed were the TSR
  army absent (an *entrant*);
* at the first break, an entrant-only break makes the army stand off there with strength 1
  (never supported); a static break voids the order (``tsr_static_break=void``: the army
  holds and exerts nothing) or stops the army before it (``fallback``);
* with no break the army contests D like an ordinary move, except that with
  ``tsr_attack_occupied=false`` it never dislodges a unit staying in D nor cuts its support
  (it still prevents with 1 + supports);
* an army that does not reach D stops in the nearest *available* station before the break
  (or before D; ``tsr_fail_at_destination=stay`` keeps it at S): no unit ends the phase
  there and, unless ``tsr_stop_in_standoff``, no move into it failed. If none is, it stays
  in S, having failed. An army that stopped short has left S and cannot be dislodged there;
* between neighbouring stations against the unit of D moving to S: an ordinary head-to-head
  battle (``tsr_adjacent_swap=head_to_head``), or (``russian_swap``) a Russian unit swaps
  and a foreign one blocks the line: the army stays, holding with strength 1.

All of this is decided inside the resolver's guess-and-check loop. A cycle of decisions
that holds the TSR army gets the railway's backup rule (``tsr_paradox=hold``, through
:meth:`VariantRoute.on_paradox`): of two consistent outcomes the one in which the TSR army
moves (reaches D, else at least leaves S) is taken; with none, the TSR order is replaced by
a hold and the whole phase adjudicated again (the order is reported ``void``). Results: a
TSR army that stopped short is reported ``bounce`` with ``OrderResult.stopped`` naming where
it stopped; a voided one ``void``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..map import ARMY, UNIT_NAMES, Map, province_of
from ..options import Options
from ..orders import Hold, Move, MovementOrder, Order, OrderError, Support
from ..position import Position
from ..resolver import Resolver
from ..routes import FAIL_BOUNCE, FAIL_VOID, PARADOX_HOLD, VariantRoute
from .registry import RulesetPart, register

VIA = "railway"
STATIC, ENTRANT = "static", "entrant"


class Line:
    """The railway's data: stations in order, who may use it, its name."""

    def __init__(self, m: Map, data: Mapping[str, Any]) -> None:
        self.name = str(data.get("name", "Trans-Siberian Railroad"))
        self.stations: tuple[str, ...] = tuple(str(s).lower() for s in data.get("stations", ()))
        self.index = {s: i for i, s in enumerate(self.stations)}
        self.power = str(data.get("power", ""))
        self.unit_type = str(data.get("unit", ARMY)).upper()
        for s in self.stations:
            if s not in m.provinces:
                raise ValueError(f"[rules.railway] station {s!r} is not a province")

    def path(self, src: str, dest: str) -> tuple[str, ...]:
        """The stations strictly between ``src`` and ``dest``, in travelling order."""
        i, j = self.index[src], self.index[dest]
        step = 1 if j > i else -1
        return self.stations[i + step : j : step]


def problem(line: Line, m: Map, position: Position, move: Move, options: Options) -> str | None:
    """Why a TSR move cannot be valid (spec 2.3), or None."""
    unit = move.unit
    src, dest = unit.province, province_of(move.dest)
    if unit.power != line.power:
        return f"Only {line.power} may use the {line.name}."
    if unit.type != line.unit_type:
        return f"A {UNIT_NAMES[unit.type].lower()} cannot use the {line.name}."
    if src not in line.index:
        return f"{m.location_name(src)} is not on the {line.name}."
    if dest not in line.index:
        return f"{m.location_name(dest)} is not on the {line.name}."
    if src == dest:
        return f"{UNIT_NAMES[unit.type]} {m.location_name(src)} cannot move to its own province."
    if options["tsr_sc_break"]:
        for p in line.path(src, dest):
            if m.provinces[p].supply and position.owners.get(p) != line.power:
                return f"The {line.name} is broken at {m.location_name(p)}: {line.power} does not control it."
    return None


class Railway(VariantRoute):
    """The TSR army's decisions in the movement resolver (see the module text)."""

    def __init__(self, line: Line, options: Options) -> None:
        self.line = line
        self.stations = frozenset(line.stations)
        self.power = line.power
        self.attack_occupied = bool(options["tsr_attack_occupied"])
        self.static_void = options["tsr_static_break"] == "void"
        self.leave = str(options["tsr_temporary_leave"])
        self.dislodged_blocks = bool(options["tsr_dislodged_occupant_blocks"])
        self.along_line_blocks = bool(options["tsr_along_line_blocks"])
        self.fail_stay = options["tsr_fail_at_destination"] == "stay"
        self.stop_in_standoff = bool(options["tsr_stop_in_standoff"])
        self.swap = str(options["tsr_adjacent_swap"])
        self.paradox = str(options["tsr_paradox"])

    def _path(self, mv: Resolver, prov: str) -> tuple[str, ...]:
        return self.line.path(prov, mv.dest[prov])

    # -- the line ----------------------------------------------------------------------
    def _static(self, mv: Resolver, p: str) -> bool:
        """Does a foreign unit stay in path province ``p`` (break types a and b)?"""
        unit = mv.units.get(p)
        if unit is None or unit.power == self.power:
            return False
        order = mv.order[p]
        if isinstance(order, Move):
            on_line = mv.dest[p] in self.stations
            if on_line and self.along_line_blocks:
                return True
            if self.leave == "any" or (self.leave == "off_route" and not on_line):
                return False
            if mv.resolve(p):
                return False
        if not self.dislodged_blocks and any(mv.resolve(a) for a in mv.movers_to.get(p, ())):
            return False
        return True

    def _entrant(self, mv: Resolver, prov: str, p: str) -> bool:
        """Would a foreign unit moving into ``p`` succeed if the TSR army were absent?"""
        for other in mv.movers_to.get(p, ()):
            if other != prov and mv.units[other].power != self.power:
                if mv.move_wins(other, variant_preventers=False):
                    return True
        return False

    def first_break(self, mv: Resolver, prov: str) -> tuple[int, str] | None:
        for k, p in enumerate(self._path(mv, prov)):
            if self._static(mv, p):
                return k, STATIC
            if self._entrant(mv, prov, p):
                return k, ENTRANT
        return None

    def _blocked_swap(self, mv: Resolver, prov: str) -> bool:
        """russian_swap: the foreign unit in D moving to S blocks the line."""
        if self.swap != "russian_swap":
            return False
        d = mv.dest[prov]
        other = mv.units.get(d)
        return other is not None and other.power != self.power and mv.dest.get(d) == prov

    def _void(self, mv: Resolver, prov: str) -> bool:
        if not self.static_void:
            return False
        found = self.first_break(mv, prov)
        return found is not None and found[1] == STATIC

    def _available(self, mv: Resolver, p: str) -> bool:
        if p in mv.units and not mv.leaves(p):
            return False
        for other in mv.movers_to.get(p, ()):
            if mv.resolve(other):
                return False
            if not self.stop_in_standoff and mv.prevent_strength(other) > 0:
                return False
        return True

    # -- VariantRoute ------------------------------------------------------------------
    def open(self, mv: Resolver, prov: str) -> bool:
        return not self._blocked_swap(mv, prov) and self.first_break(mv, prov) is None

    def prevent_at(self, mv: Resolver, prov: str, province: str) -> int:
        path = self._path(mv, prov)
        if province not in path:
            return 0
        found = self.first_break(mv, prov)
        return 1 if found == (path.index(province), ENTRANT) else 0

    def stops_at(self, mv: Resolver, prov: str) -> str | None:
        if mv.resolve(prov) or self._blocked_swap(mv, prov):
            return None
        path = self._path(mv, prov)
        found = self.first_break(mv, prov)
        if found is not None:
            if found[1] == STATIC and self.static_void:
                return None
            start = found[0] - 1
        elif self.fail_stay:
            return None
        else:
            start = len(path) - 1
        for j in range(start, -1, -1):
            if self._available(mv, path[j]):
                return path[j]
        return None

    def leaves(self, mv: Resolver, prov: str) -> bool:
        return mv.resolve(prov) or self.stops_at(mv, prov) is not None

    def may_dislodge(self, mv: Resolver, prov: str) -> bool:
        return self.attack_occupied

    def cuts_support(self, mv: Resolver, prov: str) -> bool:
        return self.attack_occupied

    def head_to_head(self, mv: Resolver, prov: str) -> bool:
        return self.swap == "head_to_head" and mv.dest[prov] in mv.map.army_adj.get(prov, ())

    def failure(self, mv: Resolver, prov: str) -> str:
        return FAIL_VOID if self._void(mv, prov) else FAIL_BOUNCE

    def on_paradox(self, mv: Resolver, prov: str) -> str | None:
        return PARADOX_HOLD if self.paradox == "hold" else None


@register
def railway_rules(m: Map, options: Options) -> RulesetPart | None:
    data = m.rules.get("railway")
    if not isinstance(data, Mapping):
        return None
    line = Line(m, data)

    def check(m: Map, position: Position, move: Move) -> None:
        why = problem(line, m, position, move, options)
        if why is not None:
            raise OrderError(why)

    def implicit(m: Map, position: Position, move: Move) -> str | None:
        unit, dest = move.unit, province_of(move.dest)
        if unit.province in line.index and dest in line.index and not move.route and not move.via_convoy:
            if dest not in m.army_adj.get(unit.location, ()):
                return VIA
        return None

    def support(m: Map, position: Position, order: Support) -> bool:
        """A support of a TSR move, written as a TSR move or a plain move."""
        other = position.units.get(order.target)
        if other is None or order.dest is None or order.dest not in line.index:
            return False
        if order.target not in line.index or order.dest in m.army_adj.get(other.location, ()):
            return False
        if not m.reaches(order.unit.type, order.unit.location, order.dest):
            return False
        return problem(line, m, position, Move(other, order.dest, via=VIA), options) is None

    def prepare(m: Map, position: Position, orders: Mapping[str, MovementOrder]) -> dict[str, MovementOrder]:
        out = dict(orders)
        tsr = []
        for prov, o in orders.items():
            if isinstance(o, Move) and o.via is None and options["tsr_implicit"] and implicit(m, position, o):
                o = out[prov] = replace(o, via=VIA)
            if isinstance(o, Move) and o.via == VIA:
                if problem(line, m, position, o, options) is not None:
                    out[prov] = Hold(o.unit)
                else:
                    tsr.append(prov)
        if len(tsr) > 1:
            keep = tsr[:1] if options["tsr_multiple"] == "first" else []
            for prov in tsr:
                if prov not in keep:
                    out[prov] = Hold(orders[prov].unit)
        return out

    def one_a_turn(m: Map, position: Position, orders: list[Order]) -> list[tuple[Order, str]]:
        """At entry (spec 2.3 rule 3): several TSR orders in one set. With ``none`` every
        one is flagged (all will hold); with ``first`` those after the first."""
        tsr = [o for o in orders if isinstance(o, Move) and (
            o.via == VIA or (o.via is None and options["tsr_implicit"] and implicit(m, position, o)))]
        if len(tsr) < 2:
            return []
        if options["tsr_multiple"] == "first":
            why = f"Only one army may use the {line.name} each turn: only the first TSR order counts."
            return [(o, why) for o in tsr[1:]]
        why = f"Only one army may use the {line.name} each turn: with {len(tsr)} TSR orders all hold."
        return [(o, why) for o in tsr]

    contribution: RulesetPart = {
        "route_rules": {VIA: Railway(line, options)},
        "move_checks": {VIA: check},
        "support_checks": (support,),
        "movement_orders": (prepare,),
        "order_set_checks": (one_a_turn,),
    }
    if options["tsr_implicit"]:
        contribution["alt_routes"] = (implicit,)
    return contribution
