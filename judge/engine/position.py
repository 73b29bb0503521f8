"""Positions: the frozen state of a game between two adjudications.

A position is a value: adjudication never changes one, it makes the next. Units are keyed
by province, so "is there a unit in Burgundy" is one dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any

from .map import ARMY, FLEET, Map, province_of
from .phase import Phase


class PositionError(ValueError):
    """A position that does not fit its map (a unit on an impossible place, two units in
    one province, an unknown power)."""


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board: its power, its type (``A``/``F``) and its location."""

    power: str
    type: str
    location: str
    province: str = field(init=False, repr=False, compare=False)
    text: str = field(init=False, repr=False, compare=False)  # "F stp/sc", as positions are written

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))
        object.__setattr__(self, "text", f"{self.type} {self.location}")

    def __str__(self) -> str:
        return self.text


@cache
def unit_of(power: str, utype: str, location: str) -> Unit:
    """The unit with these fields, one shared value each: units are immutable values, and a
    process reading phases by the million (``judge adjudicate``) would otherwise make the
    same ones over and over."""
    return Unit(power, utype, location)


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the last movement phase and the locations it may retreat to."""

    unit: Unit
    retreats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Position:
    """Phase, units (by province), dislodged units (by province) and centre owners."""

    phase: Phase
    units: Mapping[str, Unit]
    dislodged: Mapping[str, Dislodged] = field(default_factory=dict)
    owners: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("units", "dislodged", "owners"):
            value = getattr(self, name)
            if not isinstance(value, MappingProxyType):  # (given frozen: kept as it is)
                object.__setattr__(self, name, MappingProxyType(dict(value)))

    @classmethod
    def build(
        cls,
        phase: Phase,
        units: Iterable[Unit],
        dislodged: Iterable[Dislodged] = (),
        owners: Mapping[str, str] | None = None,
    ) -> Position:
        """Make a position from lists, refusing two units in one province."""
        return cls._of(phase, units, dislodged, dict(owners or {}))

    @classmethod
    def _of(
        cls, phase: Phase, units: Iterable[Unit], dislodged: Iterable[Dislodged], owners: dict[str, str]
    ) -> Position:
        """:meth:`build` given an owners dictionary of the caller's own (frozen as it is)."""
        by_prov: dict[str, Unit] = {}
        for u in units:
            if u.province in by_prov:
                raise _two_units(by_prov[u.province], u)
            by_prov[u.province] = u
        dis = {d.unit.province: d for d in dislodged}
        # the dictionaries are this call's own: frozen as they are, not copied again
        return cls(phase, MappingProxyType(by_prov), MappingProxyType(dis), MappingProxyType(owners))

    # -- questions ------------------------------------------------------------------
    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, p in self.owners.items() if p == power)

    # -- text forms -----------------------------------------------------------------
    def to_json(self, m: Map) -> dict[str, Any]:
        """The ``judge adjudicate`` form: powers in map order, units as ``"F stp/sc"``."""
        units: dict[str, list[str]] = {}
        for u in self.units.values():
            if u.power in units:
                units[u.power].append(u.text)
            else:
                units[u.power] = [u.text]
        dislodged: dict[str, list[dict[str, Any]]] = {}
        for _, d in sorted(self.dislodged.items()):
            dislodged.setdefault(d.unit.power, []).append({"unit": d.unit.text, "retreats": list(d.retreats)})
        centres: dict[str, list[str]] = {}
        for c in sorted(self.owners):
            owner = self.owners[c]
            if owner in centres:
                centres[owner].append(c)
            else:
                centres[owner] = [c]
        order = m.power_names
        return {
            "phase": self.phase.code,
            "units": {p: sorted(units[p]) for p in order if p in units},
            "dislodged": {p: dislodged[p] for p in order if p in dislodged} if dislodged else {},
            "centres": {p: centres[p] for p in order if p in centres},
        }

    @classmethod
    def from_json(cls, m: Map, data: Mapping[str, Any]) -> Position:
        """Read the ``judge adjudicate`` form, checking it against the map."""
        phase = _phase(str(data.get("phase") or m.start))
        by_prov: dict[str, Unit] = {}
        for power, texts in _power_lists(m, data.get("units") or {}):
            read = _units_read(m, power)
            for text in texts:
                unit = read.get(text) if type(text) is str else None
                if unit is None:
                    unit = parse_unit(m, power, text)
                    if len(read) < _UNITS_READ_LIMIT:
                        read[text] = unit
                if unit.province in by_prov:
                    raise _two_units(by_prov[unit.province], unit)
                by_prov[unit.province] = unit
        dislodged = []
        for power, entries in _power_lists(m, data.get("dislodged") or {}):
            for entry in entries:
                if isinstance(entry, str):
                    entry = {"unit": entry}
                unit = parse_unit(m, power, str(entry.get("unit", "")))
                retreats = entry.get("retreats")
                if retreats is None:
                    raise PositionError(f"dislodged {unit} needs its list of retreats")
                for r in retreats:
                    if not m.can_hold(unit.type, r) or r not in _neighbours(m, unit):
                        raise PositionError(f"dislodged {unit} cannot retreat to {r!r}")
                dislodged.append(Dislodged(unit, tuple(retreats)))
        owners: dict[str, str] = {}
        supply = m.supply_set
        for power, centres in _power_lists(m, data.get("centres") or {}):
            for c in centres:
                if type(c) is not str or c not in supply:  # else already as the map writes it
                    c = str(c).lower()
                    if c not in supply:
                        raise PositionError(f"{c!r} is not a supply centre on the {m.title} map")
                owners[c] = power
        dis = {d.unit.province: d for d in dislodged}
        # the dictionaries are this call's own: frozen as they are, not copied again
        return cls(phase, MappingProxyType(by_prov), MappingProxyType(dis), MappingProxyType(owners))


def _two_units(first: Unit, second: Unit) -> PositionError:
    """The refusal of a position with ``first`` and ``second`` in one province."""
    return PositionError(f"two units in {second.province}: {first} and {second}")


def _neighbours(m: Map, unit: Unit) -> frozenset[str]:
    return m.army_adj.get(unit.location, frozenset()) if unit.type == ARMY else m.fleet_adj.get(
        unit.location, frozenset()
    )


def _power_lists(m: Map, data: Mapping[str, Any]) -> Iterable[tuple[str, list[Any]]]:
    if type(data) is not dict and not isinstance(data, Mapping):
        raise PositionError("units, dislodged and centres must be objects keyed by power")
    for key, value in data.items():
        pw = m.find_power(str(key))
        if pw is None:
            raise PositionError(f"no power {key!r} on the {m.title} map")
        if not isinstance(value, list):
            raise PositionError(f"{key}: expected a list")
        yield pw.name, value


@cache
def _units_read(m: Map, power: str) -> dict[str, Unit]:
    """The unit texts of ``power`` read on ``m`` so far (``"F stp/sc"`` -> the unit): the same
    few hundred come in every line a tool sends, and a look-up here is a third of a call
    to :func:`parse_unit`'s cache."""
    return {}


_UNITS_READ_LIMIT = 4096  # texts kept per map and power (any case and spacing is read)


@lru_cache(maxsize=1 << 14)
def parse_unit(m: Map, power: str, text: str) -> Unit:
    """Read ``"F stp/sc"`` (canonical abbreviations, any case) into a unit, checking the map.
    (Kept per map, power and text: the same few hundred come in every line a tool sends.)"""
    read = _read_unit(text)
    if read is None:
        raise PositionError(f"cannot read the unit {text!r}; write it like 'F stp/sc'")
    utype, loc = read
    if not m.can_hold(utype, loc):
        raise PositionError(f"{power}: a {'fleet' if utype == FLEET else 'army'} cannot stand on {loc!r}")
    return unit_of(power, utype, loc)


_TYPES = {"A": ARMY, "a": ARMY, "F": FLEET, "f": FLEET}


def _read_unit(text: str) -> tuple[str, str] | None:
    """``"F stp/sc"`` -> ``("F", "stp/sc")``; None if it is not a type and a place."""
    parts = text.split()
    if len(parts) != 2 or parts[0] not in _TYPES:
        return None
    return _TYPES[parts[0]], parts[1].lower()


@lru_cache(maxsize=256)
def _phase(code: str) -> Phase:
    """The phase a code names, read once per code."""
    return Phase.parse(code)
