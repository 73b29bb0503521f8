"""Map art: the drawing of a board, read from ``maps/art/<name>.toml``.

The art is data beside the engine's map file (``maps/README.md``, "Map art"): for every
province its outline (SVG path data), where its unit stands, where its name and its supply
centre are drawn, and a unit point per coast; decorations (islands and lakes that are no
province, the Trans-Siberian Railroad, the Suez Canal, land bridges, Oceania's straits);
and each power's colour. :func:`check_art` says what does not fit the map.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...engine.map import Map, coast_of, province_of
from ...maps import maps_dir

Point = tuple[float, float]


class ArtError(ValueError):
    """An art file that cannot be read or does not fit its map."""


@dataclass(frozen=True, slots=True)
class ProvinceArt:
    """How one province is drawn."""

    shape: str
    unit: Point
    label: Point
    centre: Point | None = None
    coasts: Mapping[str, Point] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Decoration:
    """Something drawn that is no province: ``island``, ``lake`` (``shape``), or ``railway``,
    ``canal``, ``bridge``, ``strait`` (a ``line`` through ``provinces``)."""

    kind: str
    shape: str = ""
    line: str = ""
    name: str = ""
    provinces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Art:
    """The drawing of one map."""

    map_name: str
    width: int
    height: int
    colours: Mapping[str, str]
    provinces: Mapping[str, ProvinceArt]
    decor: tuple[Decoration, ...]

    def point(self, location: str) -> Point:
        """Where a unit on ``location`` stands (its coast's point on a split coast)."""
        prov = self.provinces[province_of(location)]
        coast = coast_of(location)
        return prov.coasts.get(coast, prov.unit) if coast else prov.unit

    def decoration(self, kind: str) -> Decoration | None:
        return next((d for d in self.decor if d.kind == kind), None)


def _point(value: Any, where: str) -> Point:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int | float) for v in value)):
        raise ArtError(f"{where}: a point is written [x, y], not {value!r}")
    return (float(value[0]), float(value[1]))


def parse_art(text: str, *, source: str = "<art>") -> Art:
    """Read an art file's text (TOML)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ArtError(f"{source}: {exc}") from exc
    head = data.get("art", {})
    provinces: dict[str, ProvinceArt] = {}
    for abbr, p in data.get("province", {}).items():
        where = f"{source}: province {abbr}"
        if not isinstance(p.get("shape"), str) or "unit" not in p or "label" not in p:
            raise ArtError(f"{where} needs shape, unit and label")
        provinces[abbr] = ProvinceArt(
            shape=p["shape"],
            unit=_point(p["unit"], where),
            label=_point(p["label"], where),
            centre=_point(p["centre"], where) if "centre" in p else None,
            coasts=MappingProxyType({c: _point(v, f"{where} coast {c}") for c, v in p.get("coast", {}).items()}),
        )
    decor = tuple(
        Decoration(kind=str(d.get("kind", "")), shape=str(d.get("shape", "")), line=str(d.get("line", "")),
                   name=str(d.get("name", "")), provinces=tuple(d.get("provinces", ())))
        for d in data.get("decor", [])
    )
    try:
        width, height = int(head["width"]), int(head["height"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ArtError(f"{source}: [art] needs width and height") from exc
    return Art(str(head.get("map", "")), width, height, MappingProxyType(dict(data.get("colours", {}))),
               MappingProxyType(provinces), decor)


def check_art(art: Art, m: Map) -> list[str]:
    """Every way ``art`` does not fit map ``m`` (empty when it fits): a province or coast
    without its drawing, a drawing of something the map does not have, a power without
    a colour."""
    problems = []
    for abbr, prov in m.provinces.items():
        drawn = art.provinces.get(abbr)
        if drawn is None:
            problems.append(f"province {abbr} has no drawing")
            continue
        if not drawn.shape.strip():
            problems.append(f"province {abbr} has an empty shape")
        for coast in prov.coasts:
            if coast not in drawn.coasts:
                problems.append(f"coast {abbr}/{coast} has no unit point")
        for coast in drawn.coasts:
            if coast not in prov.coasts:
                problems.append(f"{abbr}/{coast} is drawn but the map has no such coast")
        if prov.supply and drawn.centre is None:
            problems.append(f"supply centre {abbr} has no centre point")
    for abbr in art.provinces:
        if abbr not in m.provinces:
            problems.append(f"{abbr} is drawn but the map has no such province")
    for d in art.decor:
        for abbr in d.provinces:
            if abbr not in m.provinces:
                problems.append(f"decoration {d.kind} names {abbr}, which the map does not have")
    for pw in m.powers:
        if pw.name not in art.colours:
            problems.append(f"power {pw.name} has no colour")
    for name in art.colours:
        if m.find_power(name) is None:
            problems.append(f"colour for {name}, which is no power of the map")
    return problems


def art_path(name: str) -> Path:
    return maps_dir() / "art" / f"{name}.toml"


@cache
def _load(path: str) -> Art:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ArtError(f"no art for this map: {p.name} ({exc.strerror})") from exc
    return parse_art(text, source=p.name)


def load_art(m: Map) -> Art:
    """The art of map ``m`` (read once per process)."""
    return _load(str(art_path(m.name)))
