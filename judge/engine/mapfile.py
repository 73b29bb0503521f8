"""Reading a map file (TOML, described in ``maps/README.md``) into a checked :class:`Map`.

Parsing is pure: it takes the file's text and returns a map or raises :class:`MapError`
listing every problem found, each with the province it concerns.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from .map import ARMY, FLEET, IMPASSABLE, LAND, PROVINCE_TYPES, SEA, Map, Power, Province, province_of
from .phase import Phase, PhaseError


class MapError(ValueError):
    """A map file that is not a consistent board. ``problems`` lists every finding."""

    def __init__(self, name: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"map {name!r} has {len(problems)} problem(s):\n  " + "\n  ".join(problems))


def parse_map(text: str, *, source: str = "<map>") -> Map:
    """Parse and validate a map file's text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(source, [f"not valid TOML: {exc}"]) from None
    return build_map(data, source=source)


def build_map(data: Mapping[str, Any], *, source: str = "<map>") -> Map:
    """Build and validate a map from the parsed TOML tables."""
    problems: list[str] = []
    head = data.get("map", {})
    name = str(head.get("name", "")).lower()
    if not name:
        problems.append("[map] needs a name")
    try:
        start = Phase.parse(str(head.get("start", "S1901M"))).code
    except PhaseError as exc:
        problems.append(f"[map] start: {exc}")
        start = "S1901M"

    provinces: list[Province] = []
    army_edges: dict[str, set[str]] = {}
    fleet_edges: dict[str, set[str]] = {}
    names: dict[str, str] = {}

    def claim(label: str, target: str) -> None:
        key = " ".join(label.lower().split())
        if not key:
            return
        owner = names.get(key)
        if owner is not None and province_of(owner) != province_of(target):
            problems.append(f"name {label!r} is used by both {owner} and {target}")
        elif owner is None or "/" not in target:
            names.setdefault(key, target)

    raw = data.get("province", {})
    for abbr, p in raw.items():
        if abbr != abbr.lower() or "/" in abbr:
            problems.append(f"{abbr}: province abbreviations are lower case, without '/'")
        kind = p.get("type")
        if kind not in PROVINCE_TYPES:
            problems.append(f"{abbr}: type {kind!r} is not one of {', '.join(PROVINCE_TYPES)}")
            continue
        coast_tables = p.get("coast", {})
        coasts = tuple(coast_tables)
        prov = Province(
            abbr=abbr,
            name=str(p.get("name", abbr)),
            kind=kind,
            supply=bool(p.get("supply", False)),
            coasts=coasts,
            coast_names={c: str(t.get("name", c.upper())) for c, t in coast_tables.items()},
            rules=tuple(p.get("rules", ())),
        )
        provinces.append(prov)
        claim(abbr, abbr)
        claim(prov.name, abbr)
        for alias in p.get("aliases", ()):
            claim(alias, abbr)
        if kind in (LAND, "coast", "dual"):
            army_edges[abbr] = {str(x).lower() for x in p.get("army", ())}
        elif p.get("army"):
            problems.append(f"{abbr}: a {kind} province has no army moves")
        if coasts:
            if kind != "coast":
                problems.append(f"{abbr}: only a coast province can have split coasts")
            if "fleet" in p:
                problems.append(f"{abbr}: has split coasts, so its fleet moves belong in coast.<code> tables")
            for c, t in coast_tables.items():
                loc = f"{abbr}/{c}"
                fleet_edges[loc] = {str(x).lower() for x in t.get("fleet", ())}
                claim(loc, loc)
                for form in (f"{abbr}({c})", f"{abbr} {c}", f"{prov.name}/{c}", f"{prov.name} ({c})"):
                    claim(form, loc)
        elif kind in ("coast", SEA, "dual"):
            fleet_edges[abbr] = {str(x).lower() for x in p.get("fleet", ())}
        elif p.get("fleet"):
            problems.append(f"{abbr}: a {kind} province has no fleet moves")

    by_abbr = {p.abbr: p for p in provinces}
    _check_edges(by_abbr, army_edges, fleet_edges, problems)

    powers: list[Power] = []
    letters: set[str] = set()
    occupied: dict[str, str] = {}
    for entry in data.get("power", []):
        pname = str(entry.get("name", ""))
        letter = str(entry.get("letter", "")).upper()
        if len(letter) != 1 or letter in ("M", "O") or letter in letters:
            problems.append(f"power {pname}: letter {letter!r} must be one unique letter, not M or O")
        letters.add(letter)
        home = tuple(str(h).lower() for h in entry.get("home", ()))
        for h in home:
            if h not in by_abbr or not by_abbr[h].supply:
                problems.append(f"power {pname}: home {h!r} is not a supply centre")
        units = tuple(" ".join(str(u).split()) for u in entry.get("units", ()))
        for u in units:
            parts = u.split()
            if len(parts) != 2 or parts[0].upper() not in (ARMY, FLEET):
                problems.append(f"power {pname}: cannot read starting unit {u!r}")
                continue
            utype, loc = parts[0].upper(), parts[1].lower()
            if not _can_hold(by_abbr, utype, loc):
                problems.append(f"power {pname}: {u!r} stands where such a unit cannot")
            place = province_of(loc)
            if place in occupied:
                problems.append(f"power {pname}: {u!r} shares {place} with {occupied[place]}")
            occupied[place] = u
        extra = {k: v for k, v in entry.items()
                 if k not in ("name", "adjective", "aliases", "letter", "home", "units")}
        power_aliases = tuple(str(a) for a in entry.get("aliases", ()))
        for alias in power_aliases:
            if len(alias.split("-")) > 1:
                problems.append(f"power {pname}: alias {alias!r} has a dash, which reads as a move")
        powers.append(Power(pname, str(entry.get("adjective", pname)), letter, home, units, extra, power_aliases))
        for label in (pname, str(entry.get("adjective", pname)), *power_aliases):
            claim(label, f"power:{pname}")
    if not powers:
        problems.append("the map has no [[power]] entries")

    # power names are claimed only to detect clashes with provinces; drop them again
    aliases = {k: v for k, v in names.items() if not v.startswith("power:")}
    if problems:
        raise MapError(name or source, problems)
    return Map(
        name=name,
        title=str(head.get("title", name.title())),
        start=start,
        victory=int(head.get("victory", 0)) or (len([p for p in provinces if p.supply]) // 2 + 1),
        powers=powers,
        provinces=provinces,
        army_edges=army_edges,
        fleet_edges=fleet_edges,
        aliases=aliases,
        map_aliases=[str(a).lower() for a in head.get("aliases", ())],
        rules=data.get("rules", {}),
    )


def _can_hold(by_abbr: Mapping[str, Province], utype: str, loc: str) -> bool:
    prov = by_abbr.get(province_of(loc))
    if prov is None:
        return False
    coast = loc.partition("/")[2] or None
    if utype == ARMY:
        return prov.holds_armies and coast is None
    if prov.coasts:
        return coast in prov.coasts
    return prov.holds_fleets and coast is None


def _check_edges(
    by_abbr: Mapping[str, Province],
    army_edges: Mapping[str, set[str]],
    fleet_edges: Mapping[str, set[str]],
    problems: list[str],
) -> None:
    for src, dsts in army_edges.items():
        for d in sorted(dsts):
            target = by_abbr.get(d)
            if target is None:
                problems.append(f"{src}: army move to unknown province {d!r}")
            elif target.kind == IMPASSABLE:
                problems.append(f"{src}: army move into impassable {d}")
            elif not target.holds_armies:
                problems.append(f"{src}: army move into {target.kind} province {d}")
            elif src not in army_edges.get(d, ()):
                problems.append(f"{src}: army move to {d}, but {d} does not list {src} (adjacency must be symmetric)")
    for src, dsts in fleet_edges.items():
        for d in sorted(dsts):
            target = by_abbr.get(province_of(d))
            if target is None:
                problems.append(f"{src}: fleet move to unknown place {d!r}")
                continue
            if target.kind == IMPASSABLE or not target.holds_fleets:
                problems.append(f"{src}: fleet move into {target.kind} province {d}")
                continue
            if target.coasts and d not in fleet_edges:
                problems.append(
                    f"{src}: fleet move to {d}: {target.abbr} has split coasts, write one of "
                    + ", ".join(f"{target.abbr}/{c}" for c in target.coasts)
                )
                continue
            if src not in fleet_edges.get(d, ()):
                problems.append(f"{src}: fleet move to {d}, but {d} does not list {src} (adjacency must be symmetric)")
