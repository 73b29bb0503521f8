"""What the variant rules see of the movement resolver: the members they read, as a protocol.

The resolver (:class:`judge.engine.adjudicator.Movement`) satisfies it without naming it, as
godip's rules see ``godip.Resolver`` and not its implementation, so the rule modules
(``rules/railway.py``, ``rules/canal.py``) and the routes' defaults (``routes.py``) import
no adjudicator and the engine has no import circle. A rule reads other orders' outcomes only
through :meth:`Resolver.resolve` (directly or through the strength methods), so that the
guess-and-check loop sees the dependency.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from .map import Map
from .orders import MovementOrder
from .position import Unit


class Resolver(Protocol):
    """A movement phase being resolved, as a variant rule asks it."""

    @property
    def map(self) -> Map:
        """The map the phase is played on."""

    @property
    def units(self) -> Mapping[str, Unit]:
        """Province -> the unit standing there before the movement."""

    @property
    def order(self) -> Mapping[str, MovementOrder]:
        """Province -> its unit's order (a hold when it had none)."""

    @property
    def dest(self) -> Mapping[str, str]:
        """Mover province -> its destination province."""

    @property
    def movers_to(self) -> Mapping[str, Sequence[str]]:
        """Province -> the provinces of the units ordered to move there."""

    @property
    def variant(self) -> Mapping[str, object]:
        """Mover province -> its variant route (compared by identity)."""

    @property
    def support_route(self) -> Mapping[str, object]:
        """Supporter province -> the variant route its support needs (compared by identity)."""

    def resolve(self, key: str) -> bool:
        """The outcome of the decision ``key`` (a mover's province: whether it moves)."""

    def leaves(self, prov: str) -> bool:
        """Whether the unit in ``prov`` leaves it."""

    def move_wins(self, prov: str, *, variant_preventers: bool = True) -> bool:
        """Whether the mover from ``prov`` beats everything contesting its destination."""

    def prevent_strength(self, prov: str) -> int:
        """The strength with which the mover from ``prov`` keeps others out of its destination."""
