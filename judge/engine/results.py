"""What an adjudication reports: one result per order, and the position that follows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .orders import Order, Waive
from .position import Dislodged, Position, Unit


@dataclass(frozen=True, slots=True)
class Tally:
    """One power's numbers in a position, as the judge counts them (the count table of
    result mails and ``LIST``, the picture's legend): its centres (:func:`judge.engine.adjustments.centre_counts`),
    its units (dislodged ones not counted) and ``adjustment``, centres minus units
    (:func:`judge.engine.adjustments.adjustment_counts`: positive, builds; negative, removals)."""

    power: str
    centres: int
    units: int

    @property
    def adjustment(self) -> int:
        return self.centres - self.units


# The classic notes printed after an order, as njudge writes them: (*bounce, dislodged*).
BOUNCE = "bounce"
CUT = "cut"
VOID = "void"
DISLODGED = "dislodged"
NO_CONVOY = "no convoy"
DESTROYED = "destroyed"
DISBANDED = "disbanded"
ILLEGAL = "illegal"


class OrderResult(NamedTuple):
    """One order as adjudicated, with its notes (empty when it simply succeeded).
    ``default`` marks an order the judge gave for the player (civil disorder). ``stopped``
    is where a variant move that did not reach its destination ended instead of its origin
    (a blocked railway move); the order line keeps its ``bounce`` note and the next
    position shows the unit there. (A named tuple, not a dataclass: a phase makes one per
    unit, and a tuple is immutable at a third of the cost.)"""

    order: Order
    notes: tuple[str, ...] = ()
    default: bool = False
    stopped: str | None = None

    @property
    def power(self) -> str:
        order = self.order
        return order.power if isinstance(order, Waive) else order.unit.power

    @property
    def outcome(self) -> str:
        """The notes joined as the results print them: ``bounce, dislodged``."""
        return ", ".join(self.notes)

    @property
    def succeeded(self) -> bool:
        return not self.notes


@dataclass(frozen=True, slots=True)
class Adjudication:
    """The results of one phase and the position it leads to.

    ``dislodged`` lists the units dislodged in a movement phase with where each may go
    (empty tuple: destroyed at once). ``destroyed`` lists units lost in this phase for want
    of a retreat. ``winners`` names the power (or powers) with a victory, if any.
    ``tally`` is every power's centres, units and adjustment in ``next`` as the judge counts
    them (:func:`~judge.engine.adjustments.tally`): what the count table prints.
    """

    phase: Position
    results: tuple[OrderResult, ...]
    next: Position
    dislodged: tuple[Dislodged, ...] = ()
    destroyed: tuple[Unit, ...] = ()
    winners: tuple[str, ...] = ()
    centres_changed: bool = False
    errors: tuple[str, ...] = field(default=())
    tally: tuple[Tally, ...] = ()
