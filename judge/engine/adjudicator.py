"""Movement adjudication: supports, cuts, convoys, head-to-head battles, circular moves and
convoy paradoxes, as the DATC 3.0 defines them (its chapter 5 "decisions").

Every unit has one order; each order has one decision, keyed by the unit's province:

- a move: does it succeed?
- a support: is it given (not cut, the supporter not dislodged)?
- a convoy: does the fleet stay (not dislodged)?

Decisions are resolved by the DATC's guess-and-check algorithm: a decision that depends on
itself is guessed both ways; one consistent answer wins; none or two invoke the backup rule
(circular movement succeeds; in a convoy paradox the convoying fleets hold: Szykman, 4.A.2).
The DATC choices of the board (``choices.py``) are read where their rules apply: convoy
intent to an adjacent province (4.A.3) in :meth:`Movement._prepare`, disruption (4.A.1) and
written paths (4.A.6) in :meth:`Movement.convoy_path`, the paradox rules of 1982 and 2000
(4.A.2) and the origin of a convoyed attack (4.A.4) in :meth:`Movement._support_given`, the
dislodged unit's bounce (4.A.7) in :meth:`Movement.prevent_strength`.
A variant route may ask for its own backup (:meth:`VariantRoute.on_paradox`, Colonial's
``tsr_paradox=hold``): when a cycle holding such a mover has two consistent answers, the one
in which the mover moves is taken; when it has none, :meth:`Movement.run` raises
:class:`VariantParadox` and the turn processor replaces the mover's order by a hold and
adjudicates the phase again.
Orders reaching here are legal (``validation.py``); a void order is simply one that does not
match, such as a support for a move that was not ordered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .choices import (
    EXPLICIT,
    FALLBACK,
    FROM_SEA,
    NEVER,
    ONE_ROUTE,
    PATH_IGNORED,
    PATH_REQUIRED,
    RULE_1971,
    RULE_1982,
    RULE_2000,
)
from .convoys import connected, follows_path, route_fleets
from .map import ARMY, FLEET, province_of
from .orders import Convoy, Hold, Move, MovementOrder, Support
from .position import Position, Unit
from .routes import FAIL_BOUNCE, FAIL_VOID, PARADOX_FAIL, PARADOX_HOLD, VariantParadox, VariantRoute, as_route

if TYPE_CHECKING:
    from .board import Board

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2


@dataclass(frozen=True, slots=True)
class MovementOutcome:
    """What happened to every unit in a movement phase."""

    succeeded: frozenset[str]          # provinces whose unit moved
    dislodged: Mapping[str, str]       # province -> province the attacker came from
    by_convoy: frozenset[str]          # provinces whose unit moved (or tried) by convoy, not by land
    void: frozenset[str]               # provinces whose support/convoy matched nothing
    cut: frozenset[str]                # provinces whose support was cut
    no_route: frozenset[str]           # provinces whose move had no convoy (or variant) route
    contested: frozenset[str]          # empty provinces left vacant by a standoff
    stopped: Mapping[str, str] = field(default_factory=dict)  # variant movers that stopped short


class Movement:
    """One movement phase being resolved. Build it, call :meth:`run`."""

    def __init__(self, board: Board, position: Position, orders: Mapping[str, MovementOrder]) -> None:
        self.map = board.map
        self.datc = board.datc
        self.units: dict[str, Unit] = dict(position.units)  # read thousands of times: a plain dict
        self.route_rules = {via: as_route(rule) for via, rule in board.rules.route_rules.items()}
        self.order: dict[str, MovementOrder] = {
            prov: orders.get(prov) or Hold(unit) for prov, unit in position.units.items()
        }
        self.dest: dict[str, str] = {}           # mover province -> destination province
        self.movers_to: dict[str, list[str]] = {}
        self.convoy: dict[str, bool] = {}         # mover province -> goes by convoy
        self.fallback: set[str] = set()           # convoyed movers that take the land route if the convoy fails
        self.convoyers: dict[str, list[str]] = {}  # army province -> matching convoy fleets
        self.supporters: dict[str, list[str]] = {}  # supported province -> matching supporters
        self.void: set[str] = set()
        self.variant: dict[str, VariantRoute] = {}  # mover province -> its variant route
        self.support_route: dict[str, VariantRoute] = {}  # supporter -> the route its support needs
        self.head_to_head: dict[str, str] = {}
        self.head_to_head_by_land: dict[str, str] = {}  # pairs that fight if fallback movers go by land
        self.needed: dict[str, frozenset[str]] = {}  # army -> fleets its convoy cannot do without
        self.supports: list[str] = []  # provinces of the units ordered to support
        self.paradox_held: set[str] = set()
        self.routes_decided: dict[str, bool] = {}  # convoyed mover -> its live route, once decided
        self.state: dict[str, int] = {}
        self.result: dict[str, bool] = {}
        self.deps: list[str] = []
        self.guess_reads = 0
        self._prepare()

    # -- static analysis ------------------------------------------------------------
    def _prepare(self) -> None:
        order, units, dest, movers_to, convoy = self.order, self.units, self.dest, self.movers_to, self.convoy
        route_rules = self.route_rules
        convoys: list[tuple[str, Convoy]] = []
        supports: list[tuple[str, Support]] = []
        others: list[str] = []  # holds, convoys and supports: decided early if not attacked
        for prov, o in order.items():
            if isinstance(o, Move):
                d = o.dest
                if "/" in d:
                    d = province_of(d)
                dest[prov] = d
                if d in movers_to:
                    movers_to[d].append(prov)
                else:
                    movers_to[d] = [prov]
                if o.via is not None and o.via in route_rules:
                    self.variant[prov] = route_rules[o.via]
                continue
            others.append(prov)
            if isinstance(o, Convoy):
                convoys.append((prov, o))
            elif isinstance(o, Support):
                supports.append((prov, o))
        self.supports = [prov for prov, _ in supports]
        self._convoy_intents(convoys)
        for prov, c in convoys:
            if convoy.get(c.target) and dest.get(c.target) == c.dest:
                self.convoyers.setdefault(c.target, []).append(prov)
            else:
                self.void.add(prov)
        for prov, s in supports:
            self._match_support(prov, s)
        state, result = self.state, self.result  # (a variant's questions above may have replaced them)
        for prov in self.void:
            state[prov], result[prov] = RESOLVED, False
        support_route = self.support_route
        for prov in others:
            # nothing moves against it: a hold or convoy stays, a support is given (not cut,
            # not dislodged), whatever else happens
            if prov not in movers_to and prov not in state and prov not in support_route:
                state[prov], result[prov] = RESOLVED, True
        if not self.variant:
            for prov, d in dest.items():
                # the only move into an empty province, over land: nothing can stop it
                if d not in units and len(movers_to[d]) == 1 and not convoy[prov]:
                    state[prov], result[prov] = RESOLVED, True
        for prov, d in dest.items():
            if dest.get(d) != prov or not self._fights_head_to_head(prov) or not self._fights_head_to_head(d):
                continue
            if not convoy[prov] and not convoy[d]:
                self.head_to_head[prov] = d
            elif all(not convoy[p] or p in self.fallback for p in (prov, d)):
                self.head_to_head_by_land[prov] = d
        if self.datc.paradox_rule == RULE_2000:
            for prov, fleets in self.convoyers.items():
                self.needed[prov] = frozenset(
                    f for f in fleets
                    if not connected(self.map, units, prov, self.dest[prov], [g for g in fleets if g != f])
                )

    def _convoy_intents(self, convoys: list[tuple[str, Convoy]]) -> None:
        """Which movers go by convoy: armies to a province they do not border, and armies
        to one they border as DATC 4.A.3 (the board's ``adjacent_convoy``) says."""
        own_convoys: set[tuple[str, str]] = set()
        any_convoys: set[tuple[str, str]] = set()
        for _, c in convoys:
            army = self.units.get(c.target)
            if army is not None:
                any_convoys.add((c.target, c.dest))
                if army.power == c.unit.power:
                    own_convoys.add((c.target, c.dest))
        convoy, order, army_adj, hops = self.convoy, self.order, self.map.army_adj, self.map.army_hops
        for prov, d in self.dest.items():
            o = order[prov]
            assert isinstance(o, Move)
            if o.unit.type != ARMY or o.via is not None:
                convoy[prov] = False
            elif d not in army_adj.get(o.unit.location, ()) and d not in hops.get(o.unit.location, ()):
                convoy[prov] = True  # not a border (an island hop counts as one)
            elif not o.via_convoy and (prov, d) not in any_convoys:
                convoy[prov] = False  # no reading of 4.A.3 sees an intent to convoy here
            else:
                convoy[prov] = self._convoy_intended(o, prov, d, own_convoys, any_convoys)
                if convoy[prov] and self.datc.adjacent_convoy in (FALLBACK, RULE_1971):
                    self.fallback.add(prov)

    def _match_support(self, prov: str, o: Support) -> None:
        """A support counts for the order it matches, else it is void."""
        target = self.order.get(o.target)
        if target is None:
            ok = False
        elif o.dest is None:
            ok = not isinstance(target, Move)
        elif isinstance(target, Move) and self.dest[o.target] == o.dest:
            # DATC 6.B.9: a support naming a coast supports the move to that coast only
            coasts = o.target_dest is not None and "/" in o.target_dest and "/" in target.dest
            ok = not coasts or o.target_dest == target.dest
        else:
            ok = False
        if not ok:
            self.void.add(prov)
            return
        route = self.variant.get(o.target)
        if route is None or route.support_adds(self, o.target, prov):
            self.supporters.setdefault(o.target, []).append(prov)
        for via_route in self.route_rules.values():
            if via_route.carries_support(self, prov):
                self.support_route[prov] = via_route

    def _convoy_intended(
        self, o: Move, prov: str, d: str, own: set[tuple[str, str]], ordered: set[tuple[str, str]]
    ) -> bool:
        """Does an army moving to an adjacent province go by convoy (DATC 4.A.3)? 2023 and
        fallback: "via convoy" or a fleet of its own power convoys it; explicit: only "via
        convoy"; 1971: a convoy is ordered and the unit in the destination moves the other way."""
        mode = self.datc.adjacent_convoy
        if mode == EXPLICIT:
            return o.via_convoy
        if mode == RULE_1971:
            return (prov, d) in ordered and self.dest.get(d) == prov
        return o.via_convoy or (prov, d) in own

    def by_convoy(self, prov: str) -> bool:
        """Does the mover in ``prov`` go by convoy? A fallback mover (4.A.3 ``fallback`` and
        ``1971``) does only while its convoy route holds; else it goes by land."""
        if not self.convoy.get(prov):
            return False
        return prov not in self.fallback or self.convoy_path(prov, live=True)

    def _fights_head_to_head(self, prov: str) -> bool:
        o = self.order[prov]
        if not isinstance(o, Move) or o.via is None:
            return True
        route = self.variant.get(prov)
        return route is not None and route.head_to_head(self, prov)

    def opponent(self, prov: str) -> str | None:
        """The unit in a head-to-head battle with the mover in ``prov`` (neither convoyed)."""
        found = self.head_to_head.get(prov)
        if found is None and prov in self.head_to_head_by_land:
            other = self.head_to_head_by_land[prov]
            if not self.by_convoy(prov) and not self.by_convoy(other):
                return other
        return found

    # -- the resolver ---------------------------------------------------------------
    def resolve(self, key: str) -> bool:
        state = self.state.get(key, UNRESOLVED)
        if state == RESOLVED:
            return self.result[key]
        if state == GUESSING:
            self.guess_reads += 1
            if key not in self.deps:
                self.deps.append(key)
            return self.result[key]
        deps = self.deps
        old = len(deps)
        reads = self.guess_reads
        self.result[key], self.state[key] = False, GUESSING
        first = self.adjudicate(key)
        if len(deps) == old:
            if self.state[key] == RESOLVED:
                return self.result[key]
            if self.guess_reads == reads:
                self.result[key], self.state[key] = first, RESOLVED
                return first
            # depends only on guesses made further out: stay a guess with them
            deps.append(key)
            self.result[key] = first
            return first
        if deps[old] != key:
            deps.append(key)
            self.result[key] = first
            return first
        self._reset(old)
        self.result[key], self.state[key] = True, GUESSING
        second = self.adjudicate(key)
        if first == second:
            self._reset(old)
            self.result[key], self.state[key] = first, RESOLVED
            return first
        # first=True (guessed False) and second=False: no consistent answer; else two
        self._backup(old, key, consistent=not first)
        return self.resolve(key)

    def _reset(self, old: int) -> None:
        for k in self.deps[old:]:
            self.state[k] = UNRESOLVED
        del self.deps[old:]

    def _backup(self, old: int, key: str, *, consistent: bool) -> None:
        """No or two consistent answers: a variant's own rule, circular movement, or a
        convoy paradox."""
        cycle = self.deps[old:]
        self._reset(old)
        movers = [k for k in cycle if k in self.variant]
        if not any(k in self.dest or isinstance(self.order[k], Convoy) for k in cycle):
            movers = list(self.variant)  # the cycle ran through a variant route's questions
        own = [k for k in movers if self.variant[k].on_paradox(self, k) == PARADOX_HOLD]
        if own:
            if not consistent:
                raise VariantParadox(frozenset(own))
            self.result[key], self.state[key] = self._moving_answer(key, own), RESOLVED
            return
        failing = [k for k in movers if self.variant[k].on_paradox(self, k) == PARADOX_FAIL]
        if failing:
            for k in failing:
                self.result[k], self.state[k] = False, RESOLVED
            for k in cycle:
                if self.state.get(k) != RESOLVED:
                    self.state[k] = UNRESOLVED
            return
        fleets = [k for k in cycle if isinstance(self.order[k], Convoy)]
        if fleets:
            # Szykman (DATC 4.A.2): the convoying fleets of the paradox hold.
            self.paradox_held.update(fleets)
            self.routes_decided.clear()  # the held fleets no longer carry
        else:
            for k in cycle:
                if k in self.dest:
                    self.result[k], self.state[k] = True, RESOLVED
        for k in cycle:
            if self.state.get(k) != RESOLVED:
                self.state[k] = UNRESOLVED

    def _moving_answer(self, key: str, movers: list[str]) -> bool:
        """Of the two consistent answers for ``key``, the one in which the variant
        ``movers`` move: reach their destinations, else at least leave, else at least have
        their route open (True on a tie)."""
        scores: dict[bool, tuple[int, int, int]] = {}
        for answer in (True, False):
            state, result, deps, held = dict(self.state), dict(self.result), list(self.deps), set(self.paradox_held)
            routes = dict(self.routes_decided)
            self.result[key], self.state[key] = answer, RESOLVED
            arrive = sum(self.resolve(p) for p in movers)
            leave = sum(self.leaves(p) for p in movers)
            scores[answer] = (arrive, leave, sum(self.route_open(p) for p in movers))
            self.state, self.result, self.paradox_held, self.routes_decided = state, result, held, routes
            self.deps[:] = deps  # in place: the resolve() frames below hold this list
        return scores[True] >= scores[False]

    def adjudicate(self, key: str) -> bool:
        o = self.order[key]
        if isinstance(o, Move):
            return self.move_wins(key)
        if isinstance(o, Support):
            return self._support_given(key, o)
        return not self._dislodged(key)

    # -- decisions ------------------------------------------------------------------
    def move_wins(self, prov: str, *, variant_preventers: bool = True) -> bool:
        """Does the move from ``prov`` beat every contender? Without ``variant_preventers``
        the prevent strength variant movers exert outside their destination is left out
        (the railway asks whether an entrant "would succeed if the army were absent")."""
        attack = self.attack_strength(prov)  # 0 when the route is not open: the move fails
        if attack == 0:
            return False
        d = self.dest[prov]
        opp = self.opponent(prov)
        if opp is not None:
            if attack <= self.defend_strength(opp):
                return False
        elif attack <= self.hold_strength(d):
            return False
        for other in self.movers_to[d]:
            if other != prov and attack <= self.prevent_strength(other):
                return False
        if variant_preventers:
            for other, route in self.variant.items():
                if other != prov and attack <= route.prevent_at(self, other, d):
                    return False
        return True

    def _support_given(self, prov: str, o: Support) -> bool:
        power = o.unit.power
        carrier = self.support_route.get(prov)
        if carrier is not None and not carrier.support_open(self, prov):
            return False
        spared: list[str] = []
        for attacker in self.movers_to.get(prov, ()):
            if self.units[attacker].power == power:
                continue
            if o.dest is not None and attacker == o.dest and not (
                self.datc.convoyed_attack == FROM_SEA and self.by_convoy(attacker)
            ):
                continue  # a unit cannot cut support for an attack on itself (DATC 4.A.4)
            if self.convoy.get(attacker) and self._spared_by_paradox_rule(attacker, prov, o):
                spared.append(attacker)
                continue
            if self.route_open(attacker) and self._cuts_support(attacker):
                return False
        # the 1982 and 2000 rules take precedence over the dislodge rule (DATC 6.F.17, 6.F.21)
        return not any(self.resolve(a) for a in self.movers_to.get(prov, ()) if a not in spared)

    def _spared_by_paradox_rule(self, army: str, supporter: str, o: Support) -> bool:
        """The support rules of the 1982 and 2000 rulebooks (DATC 4.A.2): 1982, a convoyed
        army does not cut a fleet's support of an action in a body of water that holds a
        convoying fleet; 2000, it does not cut a support of an attack on a fleet its convoy
        needs. Such a support is given even if that army dislodges the supporter (the DATC's
        reading of both rules). (Szykman, the default, needs no such rule: see
        :meth:`_backup`.)"""
        rule = self.datc.paradox_rule
        if rule == RULE_1982:
            goal = o.target if o.dest is None else o.dest
            sea = self.map.provinces[goal].is_water
            convoying = any(goal in fleets for fleets in self.convoyers.values())
            return self.units[supporter].type == FLEET and sea and convoying
        if rule == RULE_2000:
            return o.dest is not None and o.dest in self.needed.get(army, ())
        return False

    def _dislodged(self, prov: str) -> bool:
        for attacker in self.movers_to.get(prov, ()):
            if self.resolve(attacker):
                return True
        return False

    def _cuts_support(self, prov: str) -> bool:
        route = self.variant.get(prov)
        return route is None or route.cuts_support(self, prov)

    def leaves(self, prov: str) -> bool:
        """True if the unit in ``prov`` moves out of it (a variant mover may stop short of
        its destination and still leave)."""
        if prov not in self.dest:
            return False
        route = self.variant.get(prov)
        return self.resolve(prov) if route is None else route.leaves(self, prov)

    def route_open(self, prov: str) -> bool:
        """True if the mover in ``prov`` has its route: always by land, else a convoy (or
        a variant route) that is not disrupted, or the land route it falls back on."""
        o = self.order[prov]
        if isinstance(o, Move) and o.via is not None:
            route = self.variant.get(prov)
            return route is not None and route.open(self, prov)
        if not self.convoy.get(prov):
            return True
        return self.convoy_path(prov, live=True) or prov in self.fallback

    def convoy_path(self, prov: str, *, live: bool) -> bool:
        """Is there a chain of convoying fleets (not held by a paradox) from ``prov`` to its
        destination? With ``live`` the chain must hold: by default (DATC 4.A.1) one chain of
        fleets that are not dislodged is enough; with ``one_route`` no fleet on any chain may
        be dislodged. A written path (4.A.6 ``binding``, ``required``) is the only chain.
        A live answer is kept once every fleet it read is decided."""
        fleets = self.convoyers.get(prov)
        if not fleets:
            return False
        if live and prov in self.routes_decided:
            return self.routes_decided[prov]
        usable = [f for f in fleets if f not in self.paradox_held]
        found = self._chain(prov, usable, live=live)
        if live and all(self.state.get(f) == RESOLVED for f in usable):
            self.routes_decided[prov] = found
        return found

    def _chain(self, prov: str, usable: list[str], *, live: bool) -> bool:
        """The search of :meth:`convoy_path` over the ``usable`` fleets."""
        o = self.order[prov]
        assert isinstance(o, Move)
        m, units, dest = self.map, self.units, self.dest[prov]
        if self.datc.convoy_path != PATH_IGNORED and o.route:
            return follows_path(m, units, prov, dest, o.route, usable) and (
                not live or all(self.resolve(f) for f in o.route)
            )
        if self.datc.convoy_path == PATH_REQUIRED:
            return False
        if live and self.datc.convoy_disruption == ONE_ROUTE:
            on_route = route_fleets(m, units, prov, dest, usable)
            return bool(on_route) and all(self.resolve(f) for f in on_route)
        if live:
            return connected(m, units, prov, dest, usable, self.resolve)
        return connected(m, units, prov, dest, usable)

    # -- strengths ------------------------------------------------------------------
    def _support_count(self, prov: str, exclude_power: str | None = None) -> int:
        n = 0
        for s in self.supporters.get(prov, ()):
            if exclude_power is not None and self.units[s].power == exclude_power:
                continue
            if self.resolve(s):
                n += 1
        return n

    def attack_strength(self, prov: str) -> int:
        if not self.route_open(prov):
            return 0
        d = self.dest[prov]
        occupant = self.units.get(d)
        if occupant is not None:
            occ_order = self.order[d]
            moving_away = (
                isinstance(occ_order, Move) and self.opponent(prov) is None and self.leaves(d)
            )
            if not moving_away:
                if occupant.power == self.units[prov].power:
                    return 0
                route = self.variant.get(prov)
                if route is not None and not route.may_dislodge(self, prov):
                    return 0
                return 1 + self._support_count(prov, exclude_power=occupant.power)
        return 1 + self._support_count(prov)

    def defend_strength(self, prov: str) -> int:
        return 1 + self._support_count(prov)

    def prevent_strength(self, prov: str) -> int:
        if not self.route_open(prov):
            return 0
        opp = self.opponent(prov)
        if opp is not None and self.resolve(opp):
            return 0
        if self.datc.dislodged_bounce == NEVER:
            # DATC 4.A.7 read literally: dislodged from where it goes, it bounces nothing there
            d = self.dest[prov]
            if self.dest.get(d) == prov and self.resolve(d) and not self.resolve(prov):
                return 0
        return 1 + self._support_count(prov)

    def hold_strength(self, prov: str) -> int:
        if prov not in self.units:
            return 0
        if isinstance(self.order[prov], Move):
            return 0 if self.leaves(prov) else 1
        return 1 + self._support_count(prov)

    # -- the whole phase ------------------------------------------------------------
    def run(self) -> MovementOutcome:
        for prov in self.order:
            if self.state.get(prov) != RESOLVED:  # most were decided by _prepare
                self.resolve(prov)
        result = self.result
        succeeded = frozenset(p for p in self.dest if result[p])
        stopped: dict[str, str] = {}
        variant_void: set[str] = set()
        variant_bounce: set[str] = set()
        for prov, route in self.variant.items():
            if prov in succeeded:
                continue
            stop = route.stops_at(self, prov)
            if stop is not None:
                stopped[prov] = stop
            failure = route.failure(self, prov)
            if failure == FAIL_VOID:
                variant_void.add(prov)
            elif failure == FAIL_BOUNCE:
                variant_bounce.add(prov)
        variant_void |= {p for p, r in self.support_route.items() if not r.support_open(self, p)}
        dislodged: dict[str, str] = {}
        for prov, movers in self.movers_to.items():
            if prov in self.units and prov not in succeeded and prov not in stopped:
                for attacker in movers:
                    if attacker in succeeded:
                        dislodged[prov] = attacker
        cut = frozenset(
            p for p in self.supports
            if p not in self.void and p not in variant_void and not self.result[p] and p not in dislodged
        )
        no_route = frozenset(
            p for p in self.dest
            if p not in succeeded and p not in variant_void and p not in variant_bounce and not self.route_open(p)
        )
        occupied_after = (
            {self.dest[p] for p in succeeded} | set(stopped.values())
            | {p for p in self.units if p not in succeeded and p not in stopped}
        )
        contested = frozenset(
            d for d, movers in self.movers_to.items()
            if d not in occupied_after and any(self.prevent_strength(p) > 0 for p in movers)
        )
        return MovementOutcome(
            succeeded=succeeded,
            dislodged=dislodged,
            by_convoy=frozenset(p for p, c in self.convoy.items() if c and self.by_convoy(p)),
            void=frozenset(self.void | self.paradox_held | variant_void),
            cut=cut,
            no_route=no_route,
            contested=contested,
            stopped=stopped,
        )
