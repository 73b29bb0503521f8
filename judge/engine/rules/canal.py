"""The Suez Canal (Colonial; variants-spec.md section 2.5 and section 4 rows 14-18).

Data: ``[rules.canal]`` of the map: the canal ``province`` (Egypt) and the two ``seas`` it
joins. Egypt is always Kiel-like: it touches both seas, which do not touch each other. That
is all ``suez_mode=kiel`` (the adjudicator reading) needs, so this module adds nothing then.

With ``suez_mode=permission`` (the Moulmein reading) a fleet may also move directly from one
sea to the other, the *canal move* (``F med - red``; read as ``Move(via="canal")`` before
adjudication). It succeeds only with the permission of the unit X standing in the canal
province at the start:

* X must still be there at the end (``suez_must_end_in_egypt``): not moved out, not
  dislodged; a move out that bounces keeps it there;
* *explicit* permission: X is ordered to support exactly this move (``F egy S F red - med``).
  A fleet's permission is also a real support (+1, and can be cut without losing the
  permission) unless ``suez_permission_adds_strength=false``; an army's permission adds
  nothing, and with ``suez_army_may_permit_foreign=false`` an army cannot permit another
  power's fleet at all;
* *implicit* permission for X's owner's own fleet, unless X gives an explicit permission to
  another move, or X's owner orders two canal moves (DATC titles 7.C.3-7.C.5).

A permitted canal move is an ordinary move into the other sea, but never a head-to-head
battle. Without permission the move is reported ``void``. When the permission depends on the
canal move's own outcome with no (or two) consistent answers, the canal move fails
(``PARADOX_FAIL``).

``suez_support_through`` (spec row 18). ``no`` (default, vDip SUEZ.D1-D3): the canal gives
no border for supports, convoys or retreats. ``yes`` (njudge's "permitted supports and owner
retreats", read into this permission model):

* *permitted supports*: a fleet in one sea may support a unit into, or holding in, the other
  sea when X permits it. Only the *implicit* permission exists for supports (an explicit
  permission names a move, ``F egy S F red - med``; njudge's dummy gateway unit has no order
  of ours): the supporting fleet belongs to X's owner, X is there at the start and (with
  ``suez_must_end_in_egypt``) at the end, X gives no explicit permission to another move,
  and the implicit permission is used once: X's owner has exactly one canal use this phase
  (canal moves and supports through the canal together, extending DATC title 7.C.5). A
  permitted support is an ordinary support (it can be cut); one without permission is
  reported ``void``. At entry a support through the canal needs an own unit in Egypt.
* *owner retreats*: a fleet dislodged in one sea may also retreat to the other when the
  unit standing in Egypt after the movement (not dislodged; possibly the unit that took it)
  belongs to the fleet's owner. The usual limits apply (not where the attacker came from,
  not to a standoff or occupied sea).
* Convoys never pass the canal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..map import ARMY, FLEET, Map, province_of
from ..options import Options
from ..orders import Move, MovementOrder, OrderError, Support
from ..position import Position, Unit
from ..resolver import Resolver
from ..routes import FAIL_BOUNCE, FAIL_VOID, PARADOX_FAIL, VariantRoute
from .registry import RulesetPart, register

VIA = "canal"


class Canal(VariantRoute):
    """The canal move's permission in the movement resolver."""

    def __init__(self, province: str, seas: tuple[str, str], options: Options) -> None:
        self.province = province
        self.seas = seas
        self.adds_strength = bool(options["suez_permission_adds_strength"])
        self.must_end = bool(options["suez_must_end_in_egypt"])
        self.army_may_permit = bool(options["suez_army_may_permit_foreign"])
        self.through = bool(options["suez_support_through"])

    def _keeper_stays(self, mv: Resolver) -> bool:
        if self.province not in mv.units:
            return False
        if self.must_end:
            if mv.leaves(self.province):
                return False
            if any(mv.resolve(a) for a in mv.movers_to.get(self.province, ())):
                return False  # dislodged
        return True

    def _implicit(self, mv: Resolver, prov: str) -> bool:
        """X's owner's own fleet, X giving no explicit permission, one canal use only."""
        keeper = mv.units[self.province]
        if keeper.power != mv.units[prov].power:
            return False
        given = mv.order[self.province]
        if isinstance(given, Support) and given.dest is not None and mv.variant.get(given.target) is self:
            return False  # an explicit permission for a canal move cancels the implicit one
        uses = [p for p, r in mv.variant.items() if r is self] + [
            p for p, r in mv.support_route.items() if r is self
        ]
        return sum(mv.units[p].power == keeper.power for p in uses) == 1  # only one implicit permission

    def permitted(self, mv: Resolver, prov: str) -> bool:
        if not self._keeper_stays(mv):
            return False
        keeper, fleet = mv.units[self.province], mv.units[prov]
        given = mv.order[self.province]
        if isinstance(given, Support) and given.target == prov and given.dest == mv.dest[prov]:
            return keeper.type != ARMY or keeper.power == fleet.power or self.army_may_permit
        return self._implicit(mv, prov)

    def carries_support(self, mv: Resolver, supporter: str) -> bool:
        order = mv.order[supporter]
        if not self.through or not isinstance(order, Support) or mv.units[supporter].type != FLEET:
            return False
        goal = province_of(order.dest if order.dest is not None else order.target)
        return {supporter, goal} == set(self.seas)

    def support_open(self, mv: Resolver, supporter: str) -> bool:
        return self._keeper_stays(mv) and self._implicit(mv, supporter)

    def open(self, mv: Resolver, prov: str) -> bool:
        return self.permitted(mv, prov)

    def support_adds(self, mv: Resolver, prov: str, supporter: str) -> bool:
        if supporter != self.province:
            return True
        return self.adds_strength and mv.units[supporter].type == FLEET

    def on_paradox(self, mv: Resolver, prov: str) -> str | None:
        """Spec 2.5: if the validity of a permission is paradoxical, the canal move fails."""
        return PARADOX_FAIL

    def failure(self, mv: Resolver, prov: str) -> str:
        return FAIL_BOUNCE if self.permitted(mv, prov) else FAIL_VOID


@register
def canal_rules(m: Map, options: Options) -> RulesetPart | None:
    data = m.rules.get("canal")
    if not isinstance(data, Mapping) or options["suez_mode"] != "permission":
        return None
    through = bool(options["suez_support_through"])
    province = str(data["province"]).lower()
    a, b = (str(s).lower() for s in data["seas"])

    def is_canal_move(move: Move) -> bool:
        ends = {move.unit.province, province_of(move.dest)}
        return move.unit.type == FLEET and ends == {a, b}

    def route(m: Map, position: Position, move: Move) -> str | None:
        return VIA if is_canal_move(move) and not move.route and not move.via_convoy else None

    def check(m: Map, position: Position, move: Move) -> None:
        if not is_canal_move(move):
            raise OrderError(f"Only a fleet in {m.location_name(a)} or {m.location_name(b)} "
                             f"can go through the {data.get('name', 'canal')} to the other.")

    def permission(m: Map, position: Position, order: Support) -> bool:
        """The unit in the canal province permitting a canal move by a support order."""
        keeper, other = order.unit, position.units.get(order.target)
        if keeper.province != province or other is None or order.dest is None:
            return False
        if not is_canal_move(Move(other, order.dest)):
            return False
        return keeper.type != ARMY or keeper.power == other.power or bool(options["suez_army_may_permit_foreign"])

    def support_through(m: Map, position: Position, order: Support) -> bool:
        """suez_support_through: a fleet in one sea supporting into the other, the canal
        province holding a unit of the supporter's power (its implicit permission)."""
        supporter, other = order.unit, position.units.get(order.target)
        goal = order.dest if order.dest is not None else order.target
        if not through or supporter.type != FLEET or other is None or {supporter.province, goal} != {a, b}:
            return False
        keeper = position.units.get(province)
        if keeper is None or keeper.power != supporter.power:
            return False
        if order.dest is None:
            return True
        return m.reaches(other.type, other.location, order.dest) or is_canal_move(Move(other, order.dest))

    def retreat(m: Map, unit: Unit, after: Mapping[str, Unit]) -> tuple[str, ...]:
        """suez_support_through: the owner of the unit in Egypt retreats through the canal."""
        keeper = after.get(province)
        if not through or unit.type != FLEET or keeper is None or keeper.power != unit.power:
            return ()
        return {a: (b,), b: (a,)}.get(unit.province, ())

    def prepare(m: Map, position: Position, orders: Mapping[str, MovementOrder]) -> dict[str, MovementOrder]:
        out = dict(orders)
        for prov, o in orders.items():
            if isinstance(o, Move) and o.via is None and route(m, position, o):
                out[prov] = replace(o, via=VIA)
        return out

    return {
        "route_rules": {VIA: Canal(province, (a, b), options)},
        "move_checks": {VIA: check},
        "alt_routes": (route,),
        "support_checks": (permission, support_through),
        "movement_orders": (prepare,),
        "retreat_routes": (retreat,),
    }
