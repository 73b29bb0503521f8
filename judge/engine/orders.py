"""Order types: what a player can tell a unit (or a power) to do.

Orders are plain frozen values holding canonical locations; reading them from text is
``parser.py``'s job, checking them against the board is ``validation.py``'s, writing them for
people is ``notation.py``'s, and resolving them is the adjudicator's.

Each is a frozen dataclass (value equality and hashing, ``replace``, ``fields``, frozen
attributes) with its own ``__init__``: the generated one of a frozen dataclass sets each
field through ``object.__setattr__``, and ``judge adjudicate`` builds orders by the million;
setting the slots through their member descriptors (bound once, :func:`_setters`) builds a
``Move`` in about two thirds of the time, and the value is as frozen as before (assignment still
raises ``FrozenInstanceError``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .position import Unit


def _setters(cls: type, *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The slots' own setters of ``cls`` (its member descriptors' ``__set__``), for an
    ``__init__`` that fills a frozen instance without going through ``__setattr__``."""
    return tuple(cls.__dict__[name].__set__ for name in names)


@dataclass(frozen=True, slots=True, init=False)
class Hold:
    """The unit stays where it is."""

    unit: Unit

    def __init__(self, unit: Unit) -> None:
        _hold_unit(self, unit)


(_hold_unit,) = _setters(Hold, "unit")


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self, unit: Unit, dest: str, via_convoy: bool = False, route: tuple[str, ...] = (), via: str | None = None
    ) -> None:
        _move_unit(self, unit)
        _move_dest(self, dest)
        _move_via_convoy(self, via_convoy)
        _move_route(self, route)
        _move_via(self, via)


_move_unit, _move_dest, _move_via_convoy, _move_route, _move_via = _setters(
    Move, "unit", "dest", "via_convoy", "route", "via")


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        unit: Unit,
        target: str,
        dest: str | None = None,
        target_type: str | None = None,
        target_power: str | None = None,
        target_dest: str | None = None,
    ) -> None:
        _support_unit(self, unit)
        _support_target(self, target)
        _support_dest(self, dest)
        _support_target_type(self, target_type)
        _support_target_power(self, target_power)
        _support_target_dest(self, target_dest)

    @property
    def is_hold_support(self) -> bool:
        return self.dest is None


(_support_unit, _support_target, _support_dest, _support_target_type, _support_target_power,
 _support_target_dest) = _setters(Support, "unit", "target", "dest", "target_type", "target_power", "target_dest")


@dataclass(frozen=True, slots=True, init=False)
class Convoy:
    """A fleet convoys the army in province ``target`` to province ``dest``."""

    unit: Unit
    target: str
    dest: str
    target_power: str | None = None

    def __init__(self, unit: Unit, target: str, dest: str, target_power: str | None = None) -> None:
        _convoy_unit(self, unit)
        _convoy_target(self, target)
        _convoy_dest(self, dest)
        _convoy_target_power(self, target_power)


_convoy_unit, _convoy_target, _convoy_dest, _convoy_target_power = _setters(
    Convoy, "unit", "target", "dest", "target_power")


@dataclass(frozen=True, slots=True, init=False)
class Retreat:
    """A dislodged unit retreats to location ``dest``."""

    unit: Unit
    dest: str

    def __init__(self, unit: Unit, dest: str) -> None:
        _retreat_unit(self, unit)
        _retreat_dest(self, dest)


_retreat_unit, _retreat_dest = _setters(Retreat, "unit", "dest")


@dataclass(frozen=True, slots=True, init=False)
class Disband:
    """A dislodged unit is disbanded instead of retreating."""

    unit: Unit

    def __init__(self, unit: Unit) -> None:
        _disband_unit(self, unit)


(_disband_unit,) = _setters(Disband, "unit")


@dataclass(frozen=True, slots=True, init=False)
class Build:
    """A power builds a new unit (its type and location are in ``unit``)."""

    unit: Unit

    def __init__(self, unit: Unit) -> None:
        _build_unit(self, unit)

    @property
    def power(self) -> str:
        return self.unit.power


(_build_unit,) = _setters(Build, "unit")


@dataclass(frozen=True, slots=True, init=False)
class Remove:
    """A power removes one of its units in an adjustment phase."""

    unit: Unit

    def __init__(self, unit: Unit) -> None:
        _remove_unit(self, unit)

    @property
    def power(self) -> str:
        return self.unit.power


(_remove_unit,) = _setters(Remove, "unit")


@dataclass(frozen=True, slots=True, init=False)
class Waive:
    """A power declines one build."""

    power: str

    def __init__(self, power: str) -> None:
        _waive_power(self, power)


(_waive_power,) = _setters(Waive, "power")


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
