"""The board: provinces, coasts, adjacency and powers, as immutable data.

A *location* is where a unit stands: a province abbreviation (``"lon"``) or, for a fleet on
a split-coast province, ``"province/coast"`` (``"stp/sc"``). Adjacency is precomputed once
per map into frozensets, so that the adjudicator only does set look-ups.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

LAND, COAST, SEA, DUAL, IMPASSABLE = "land", "coast", "sea", "dual", "impassable"
PROVINCE_TYPES = (LAND, COAST, SEA, DUAL, IMPASSABLE)
ARMY, FLEET = "A", "F"
UNIT_NAMES = {ARMY: "Army", FLEET: "Fleet"}


def province_of(location: str) -> str:
    """The province abbreviation of a location (``"stp/sc"`` -> ``"stp"``)."""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]


def coast_of(location: str) -> str | None:
    """The coast code of a location, or None (``"stp/sc"`` -> ``"sc"``)."""
    slash = location.find("/")
    return None if slash < 0 else location[slash + 1 :]


@dataclass(frozen=True, slots=True)
class Province:
    """One space of the board."""

    abbr: str
    name: str
    kind: str
    supply: bool = False
    coasts: tuple[str, ...] = ()
    coast_names: Mapping[str, str] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    # what the kind allows, worked out once (the adjudicator and validation ask often)
    holds_armies: bool = field(init=False, repr=False, compare=False)
    holds_fleets: bool = field(init=False, repr=False, compare=False)
    is_water: bool = field(init=False, repr=False, compare=False)  # a fleet can convoy here: seas, island chains

    def __post_init__(self) -> None:
        object.__setattr__(self, "holds_armies", self.kind in (LAND, COAST, DUAL))
        object.__setattr__(self, "holds_fleets", self.kind in (COAST, SEA, DUAL))
        object.__setattr__(self, "is_water", self.kind in (SEA, DUAL))


@dataclass(frozen=True, slots=True)
class Power:
    """A player's country: its names, signon letter, home centres and starting units.
    ``aliases`` are the other forms players write for it (``Britain``, ``UK`` for England;
    ``Turk`` for Turkey), read like its name and adjective."""

    name: str
    adjective: str
    letter: str
    home: tuple[str, ...]
    units: tuple[str, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """Every form of the power's name a player may write: name, adjective, aliases."""
        return (self.name, self.adjective, *self.aliases)


class Map:
    """An immutable, validated board. Build one with :func:`judge.engine.mapfile.load_map`."""

    def __init__(
        self,
        *,
        name: str,
        title: str,
        start: str,
        victory: int,
        powers: Iterable[Power],
        provinces: Iterable[Province],
        army_edges: Mapping[str, Iterable[str]],
        fleet_edges: Mapping[str, Iterable[str]],
        aliases: Mapping[str, str],
        map_aliases: Iterable[str] = (),
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.start = start
        self.victory = victory
        self.map_aliases = tuple(map_aliases)
        self.powers: tuple[Power, ...] = tuple(powers)
        self.provinces: Mapping[str, Province] = MappingProxyType({p.abbr: p for p in provinces})
        self.army_adj: Mapping[str, frozenset[str]] = MappingProxyType(
            {k: frozenset(v) for k, v in army_edges.items()}
        )
        self.fleet_adj: Mapping[str, frozenset[str]] = MappingProxyType(
            {k: frozenset(v) for k, v in fleet_edges.items()}
        )
        # Province-level fleet reach, for supports: a fleet supports into a province it
        # could move to on any coast.
        self.fleet_reach: Mapping[str, frozenset[str]] = MappingProxyType(
            {k: frozenset(province_of(x) for x in v) for k, v in self.fleet_adj.items()}
        )
        self.aliases: Mapping[str, str] = MappingProxyType(dict(aliases))
        self.rules: Mapping[str, Any] = MappingProxyType(dict(rules or {}))
        self.power_by_name: Mapping[str, Power] = MappingProxyType(
            {p.name.lower(): p for p in self.powers}
        )
        self.power_by_letter: Mapping[str, Power] = MappingProxyType(
            {p.letter.upper(): p for p in self.powers}
        )
        self.power_names: tuple[str, ...] = tuple(p.name for p in self.powers)
        self.adjectives: Mapping[str, str] = MappingProxyType({p.name: self.power(p.name).adjective for p in self.powers})
        self.power_rank: Mapping[str, int] = MappingProxyType({p.name: i for i, p in enumerate(self.powers)})
        # every way find_power() reads a power: name, adjective, aliases, letter (lower case)
        found: dict[str, Power] = {}
        for p in reversed(self.powers):  # the first power wins a name two share
            found.update({n.lower(): p for n in (*p.names, p.letter)})
        self._power_words: dict[str, Power] = found
        # the powers' own names as written, read without folding case and spaces
        self._power_names: dict[str, Power] = {
            p.name: named for p in self.powers if (named := found.get(" ".join(p.name.lower().split()))) is not None
        }
        # every location a unit may name (provinces and the coasts of split ones), to its province
        self.province_at: Mapping[str, str] = MappingProxyType({
            loc: p.abbr for p in self.provinces.values() for loc in (p.abbr, *(f"{p.abbr}/{c}" for c in p.coasts))
        })
        # the water provinces (seas, island chains) a fleet on which borders each province,
        # and the provinces that have one: where a convoyed army can start or land
        water: dict[str, set[str]] = {}
        for w in self.provinces.values():
            if w.is_water:
                for near in self.fleet_reach.get(w.abbr, ()):
                    water.setdefault(near, set()).add(w.abbr)
        self.water_near: Mapping[str, frozenset[str]] = MappingProxyType({p: frozenset(v) for p, v in water.items()})
        self.shores: frozenset[str] = frozenset(water)
        self.waters: frozenset[str] = frozenset(p.abbr for p in self.provinces.values() if p.is_water)
        # where each unit type may stand (can_hold)
        self._stands: dict[str, frozenset[str]] = {
            ARMY: frozenset(p.abbr for p in self.provinces.values() if p.holds_armies),
            FLEET: frozenset(loc for p in self.provinces.values() for loc in self.fleet_locations(p.abbr)),
        }
        # the names players read, by location, plain and with the article of a sea
        self._names: tuple[dict[str, str], dict[str, str]] = (
            {loc: self._location_name(loc, False) for loc in self.province_at},
            {loc: self._location_name(loc, True) for loc in self.province_at},
        )
        self.names: Mapping[str, str] = self._names[False]  # location -> its plain name (location_name)
        self._unit_names: dict[tuple[str, str], str] = {
            (t, loc): f"{UNIT_NAMES[t]} {name}" for t in (ARMY, FLEET) for loc, name in self._names[False].items()
        }
        self.unit_names: Mapping[tuple[str, str], str] = self._unit_names  # (type, location) -> unit_name
        self.supply_centres: tuple[str, ...] = tuple(
            sorted(p.abbr for p in self.provinces.values() if p.supply)
        )
        self.supply_set: frozenset[str] = frozenset(self.supply_centres)
        self.home_of: Mapping[str, str] = MappingProxyType(
            {c: pw.name for pw in self.powers for c in pw.home}
        )
        # Every army or fleet neighbour, by province, for distance counts (civil disorder).
        any_adj: dict[str, set[str]] = {a: set() for a in self.provinces}
        for src, dsts in list(self.army_adj.items()) + list(self.fleet_adj.items()):
            any_adj[province_of(src)].update(province_of(d) for d in dsts)
        self.any_adj: Mapping[str, frozenset[str]] = MappingProxyType(
            {k: frozenset(v) for k, v in any_adj.items()}
        )
        # Derived army edges that are not drawn borders (Oceania's island hops), set by a
        # rule module through with_army_hops(); empty on other maps. Armies move along
        # army_hops and support along support_hops; retreats never use either.
        self.army_hops: Mapping[str, frozenset[str]] = MappingProxyType({})
        self.support_hops: Mapping[str, frozenset[str]] = MappingProxyType({})

    def with_army_hops(self, hops: Mapping[str, Iterable[str]], *, supports: bool = True) -> Map:
        """A copy of this board on which armies may also move between the provinces of
        ``hops`` (symmetric, province to provinces), and support along them if
        ``supports``. Hops count as moves for distances (``any_adj``), never for retreats."""
        new = copy.copy(self)
        new.army_hops = MappingProxyType({k: frozenset(v) for k, v in hops.items() if v})
        new.support_hops = new.army_hops if supports else MappingProxyType({})
        new.any_adj = MappingProxyType(
            {k: v | new.army_hops.get(k, frozenset()) for k, v in self.any_adj.items()}
        )
        return new

    # -- look-ups ---------------------------------------------------------------------
    def province(self, location: str) -> Province:
        return self.provinces[province_of(location)]

    def power(self, name: str) -> Power:
        """The power called ``name`` (any case), or KeyError."""
        return self.power_by_name[name.lower()]

    def find_power(self, text: str) -> Power | None:
        """A power by name, adjective, alias or letter, any case; None if there is none."""
        found = self._power_names.get(text)
        return found if found is not None else self._power_words.get(" ".join(text.lower().split()))

    def fleet_locations(self, province: str) -> tuple[str, ...]:
        """Where a fleet can stand in a province: its coasts, or the province itself."""
        p = self.provinces[province]
        if p.coasts:
            return tuple(f"{province}/{c}" for c in p.coasts)
        return (province,) if p.holds_fleets else ()

    def can_hold(self, unit_type: str, location: str) -> bool:
        """True if a unit of that type may stand on that location: an army on a province
        that holds armies, a fleet on a coast of a split province or else on a province that
        holds fleets."""
        return location in self._stands.get(unit_type, ())

    def adjacent(self, unit_type: str, src: str, dst: str) -> bool:
        """True if a unit of that type at location ``src`` can move to location ``dst``."""
        if unit_type == ARMY:
            return dst in self.army_adj.get(src, ()) or dst in self.army_hops.get(src, ())
        return dst in self.fleet_adj.get(src, ())

    def reaches(self, unit_type: str, src: str, province: str) -> bool:
        """True if a unit at ``src`` could move into ``province`` (any coast): support reach."""
        if unit_type == ARMY:
            return province in self.army_adj.get(src, ()) or province in self.support_hops.get(src, ())
        return province in self.fleet_reach.get(src, ())

    def location_name(self, location: str, *, article: bool = False) -> str:
        """The full name players read: ``St Petersburg (south coast)``; with ``article``
        a sea takes "the" (``the North Sea``)."""
        name = self._names[article].get(location)
        return name if name is not None else self._location_name(location, article)

    def unit_name(self, unit_type: str, location: str) -> str:
        """A unit as players read it: ``Army Berlin``, ``Fleet St Petersburg (south coast)``."""
        name = self._unit_names.get((unit_type, location))
        return name if name is not None else f"{UNIT_NAMES[unit_type]} {self.location_name(location)}"

    def _location_name(self, location: str, article: bool) -> str:
        prov = self.provinces[province_of(location)]
        name = prov.name
        if article and prov.kind == SEA and not name.lower().startswith("the "):
            name = "the " + name
        coast = coast_of(location)
        if coast is not None:
            cname = prov.coast_names.get(coast, coast.upper())
            name = f"{name} ({cname.lower()})"
        return name

    def __repr__(self) -> str:
        return f"Map({self.name!r})"

