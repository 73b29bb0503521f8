"""Variant routes: how a variant move (``Move.via``: Colonial's railway and canal) answers
the movement resolver's questions, and the backups it may ask for in a paradox.

A rule module gives the resolver a :class:`VariantRoute` per ``via`` (``Ruleset.route_rules``);
the defaults describe an ordinary move, so a route overrides only what differs. See
``adjudicator.py`` for how the resolver asks, and ``rules/railway.py`` and ``rules/canal.py``
for the two routes there are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .map import Map
from .position import Unit
from .resolver import Resolver

#: A variant's route rule: ``(movement, origin province) -> True if the route is open``.
RouteRule = Callable[[Resolver, str], bool]
#: A variant's filter on retreat destinations: ``(map, unit, candidates) -> allowed``.
RetreatRule = Callable[[Map, Unit, Iterable[str]], Iterable[str]]
#: A variant's retreat route beyond the borders: ``(map, unit, units after the movement) ->
#: more candidate places`` (the Suez Canal for its owner with ``suez_support_through``).
RetreatRoute = Callable[[Map, Unit, Mapping[str, Unit]], Iterable[str]]

#: How a variant move that did not reach its destination is reported.
FAIL_BOUNCE, FAIL_VOID, FAIL_NO_ROUTE = "bounce", "void", "no route"
#: :meth:`VariantRoute.on_paradox`: the mover's order becomes a hold, the phase is run again.
PARADOX_HOLD = "hold"
#: :meth:`VariantRoute.on_paradox`: the mover's move fails (Suez: a paradoxical permission).
PARADOX_FAIL = "fail"


class VariantParadox(Exception):
    """A cycle of decisions with no consistent answer holds variant movers whose routes ask
    for :data:`PARADOX_HOLD`: the orders of ``provinces`` are to be replaced by holds and
    the whole phase adjudicated again (see ``turn.py``)."""

    def __init__(self, provinces: frozenset[str]) -> None:
        super().__init__(f"paradox: {', '.join(sorted(provinces))} hold")
        self.provinces = provinces


class VariantRoute:
    """A variant route for moves with ``Move.via`` set (Colonial's railway and canal).

    The resolver asks it the questions below about the mover in province ``prov``; the
    defaults describe an ordinary move, so a rule overrides only what differs. Every
    answer that depends on other orders must read them through ``mv.resolve`` (directly or
    via the strength methods), so that the guess-and-check loop sees the dependency.
    """

    def open(self, mv: Resolver, prov: str) -> bool:
        """May the mover contest its destination at all (attack, prevent, cut support)?"""
        return True

    def leaves(self, mv: Resolver, prov: str) -> bool:
        """Does the mover leave its province (reaching its destination or stopping short)?"""
        return mv.resolve(prov)

    def stops_at(self, mv: Resolver, prov: str) -> str | None:
        """Where a mover that did not reach its destination ends, if not in ``prov``."""
        return None

    def prevent_at(self, mv: Resolver, prov: str, province: str) -> int:
        """Prevent strength the mover exerts in ``province`` other than its destination."""
        return 0

    def may_dislodge(self, mv: Resolver, prov: str) -> bool:
        """May it dislodge a unit that stays in its destination?"""
        return True

    def cuts_support(self, mv: Resolver, prov: str) -> bool:
        """Does its attack cut a support given in its destination?"""
        return True

    def head_to_head(self, mv: Resolver, prov: str) -> bool:
        """Does it fight a head-to-head battle with a unit coming the other way?"""
        return False

    def support_adds(self, mv: Resolver, prov: str, supporter: str) -> bool:
        """Does a matching support from ``supporter`` add strength (or only permit)?"""
        return True

    def failure(self, mv: Resolver, prov: str) -> str:
        """How a failed move is reported: FAIL_BOUNCE, FAIL_VOID or FAIL_NO_ROUTE."""
        return FAIL_BOUNCE if self.open(mv, prov) else FAIL_NO_ROUTE

    def carries_support(self, mv: Resolver, supporter: str) -> bool:
        """Does the support given from ``supporter`` reach its goal only through this route
        (the Suez Canal with ``suez_support_through``)? Asked once, before resolution."""
        return False

    def support_open(self, mv: Resolver, supporter: str) -> bool:
        """For a support this route carries: is it allowed (given if not cut)? Otherwise
        it is reported void."""
        return True

    def on_paradox(self, mv: Resolver, prov: str) -> str | None:
        """The route's own backup rule for a cycle of decisions that holds this mover, or
        None for the resolver's (circular movement succeeds). :data:`PARADOX_HOLD`: of two
        consistent answers take the one in which the mover moves; with none, the order
        becomes a hold and the phase is adjudicated again. :data:`PARADOX_FAIL`: the move
        fails, whether the cycle has two consistent answers or none."""
        return None


class _CallableRoute(VariantRoute):
    """A plain :data:`RouteRule` as a :class:`VariantRoute`."""

    def __init__(self, rule: RouteRule) -> None:
        self.rule = rule

    def open(self, mv: Resolver, prov: str) -> bool:
        return self.rule(mv, prov)


def as_route(rule: RouteRule | VariantRoute) -> VariantRoute:
    return rule if isinstance(rule, VariantRoute) else _CallableRoute(rule)
