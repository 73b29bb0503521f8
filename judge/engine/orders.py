"""Order types: what a player can tell a unit (or a power) to do.

Orders are plain frozen values holding canonical locations; reading them from text is
``parser.py``'s job, checking them against the board is ``validation.py``'s, writing them for
people is ``notation.py``'s, and resolving them is the adjudicator's.
"""

from __future__ import annotations

from dataclasses import dataclass

from .position import Unit


@dataclass(frozen=True, slots=True)
class Hold:
    """The unit stays where it is."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Move:
    """The unit moves to ``dest`` (a location: ``spa/nc`` for a fleet on a split coast).

    ``via_convoy`` is set when the player wrote "via convoy" (or a convoy route), which the
    DATC requires for an army to take a convoy to an adjacent province when no fleet of its
    own power convoys it. ``route`` keeps a written convoy route for the record only (DATC
    4.A.6: routes are not binding). ``via`` names a variant route rule (``"railway"``).
    """

    unit: Unit
    dest: str
    via_convoy: bool = False
    route: tuple[str, ...] = ()
    via: str | None = None


@dataclass(frozen=True, slots=True)
class Support:
    """Support for the unit in province ``target``: to hold (``dest`` None) or to move into
    province ``dest``. ``target_type``/``target_power`` are as the player wrote them (for the
    echo only; DATC 4.C.2 and 4.C.6 say a wrong one is ignored)."""

    unit: Unit
    target: str
    dest: str | None = None
    target_type: str | None = None
    target_power: str | None = None
    target_dest: str | None = None

    @property
    def is_hold_support(self) -> bool:
        return self.dest is None


@dataclass(frozen=True, slots=True)
class Convoy:
    """A fleet convoys the army in province ``target`` to province ``dest``."""

    unit: Unit
    target: str
    dest: str
    target_power: str | None = None


@dataclass(frozen=True, slots=True)
class Retreat:
    """A dislodged unit retreats to location ``dest``."""

    unit: Unit
    dest: str


@dataclass(frozen=True, slots=True)
class Disband:
    """A dislodged unit is disbanded instead of retreating."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Build:
    """A power builds a new unit (its type and location are in ``unit``)."""

    unit: Unit

    @property
    def power(self) -> str:
        return self.unit.power


@dataclass(frozen=True, slots=True)
class Remove:
    """A power removes one of its units in an adjustment phase."""

    unit: Unit

    @property
    def power(self) -> str:
        return self.unit.power


@dataclass(frozen=True, slots=True)
class Waive:
    """A power declines one build."""

    power: str


MovementOrder = Hold | Move | Support | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Remove | Waive


class OrderError(ValueError):
    """An order that cannot be accepted; the message is what the player reads."""

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.text = text


def order_power(order: Order) -> str:
    """The power an order belongs to."""
    return order.power if isinstance(order, Waive) else order.unit.power
