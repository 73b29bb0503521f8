"""Draw the map art files ``maps/art/<name>.toml`` from the facts they are made of.

Run ``python tools/map_art.py [--shared DIR] [standard|colonial|oceania]`` after ``pip install
shapely`` (needed here only: the judge reads the finished files with the standard library).
``DIR`` is the shared reference folder (default ``../shared`` beside the repository).

- Standard: DPjudge's ``standard.ps`` (MIT, (c) 2017 Manus Hand): its coastlines and
  border lines are cut into faces, each face goes to the province whose ``% INFO`` point it
  holds; units stand on the ``% INFO`` points and centres on ``VisitSupplies``.
- Colonial: vDiplomacy's ``territories.csv`` points (facts: where each territory is on a
  1500 x 1000 board). No outline is taken from anywhere: each province is the part of the
  board nearer its point than any other (a Voronoi schematic), with land and sea smoothed.
- Oceania: each space is placed at its real latitude and longitude (the tables below,
  public geographic facts) on an equirectangular projection; the seven large landmasses
  are rough real outlines, island chains are light blue discs in the sea.

The three sources live in ``../shared/reference/maps/`` beside the repository.
"""

from __future__ import annotations

import csv
import math
import re
import sys
from pathlib import Path

from shapely import voronoi_polygons
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, polygonize, unary_union

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "reference" / "maps"
if len(sys.argv) > 2 and sys.argv[1] == "--shared":
    SHARED = Path(sys.argv[2]) / "reference" / "maps"
    del sys.argv[1:3]
sys.path.insert(0, str(ROOT))

from judge.maps import load_map  # noqa: E402

Pt = tuple[float, float]


# -- writing ------------------------------------------------------------------------------


def path_data(geom: BaseGeometry, tolerance: float = 0.6) -> str:
    """SVG path data of a polygon or multipolygon (rings closed, holes kept)."""
    geom = geom.simplify(tolerance, preserve_topology=True)
    polys = [geom] if geom.geom_type == "Polygon" else list(getattr(geom, "geoms", []))
    parts = []
    for poly in polys:
        if poly.geom_type != "Polygon" or poly.is_empty or poly.area < 1:
            continue
        for ring in [poly.exterior, *poly.interiors]:
            pts = list(ring.coords)[:-1]
            parts.append("M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + "Z")
    return "".join(parts)


def line_data(points: list[Pt]) -> str:
    return "M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _pt(p: Pt) -> str:
    return f"[{p[0]:.1f}, {p[1]:.1f}]"


def write_art(name: str, header: str, width: int, height: int, colours: dict[str, str],
              provinces: dict[str, dict], decor: list[dict]) -> None:
    m = load_map(name)
    out = [header.rstrip(), "", "[art]", f'map = "{name}"', f"width = {width}", f"height = {height}", ""]
    out.append("# Power colours: fill of units, centres and owned provinces.")
    out.append("[colours]")
    for pw in m.powers:
        out.append(f'"{pw.name}" = "{colours[pw.name]}"')
    out.append("")
    for abbr in sorted(m.provinces):
        p = provinces[abbr]
        out.append(f"[province.{abbr}]")
        out.append(f"unit = {_pt(p['unit'])}")
        out.append(f"label = {_pt(p['label'])}")
        if "centre" in p:
            out.append(f"centre = {_pt(p['centre'])}")
        out.append(f'shape = "{path_data(p["shape"])}"')
        for coast, point in sorted(p.get("coasts", {}).items()):
            out.append(f"coast.{coast} = {_pt(point)}")
        out.append("")
    for d in decor:
        out.append("[[decor]]")
        out.append(f'kind = "{d["kind"]}"')
        if "name" in d:
            out.append(f'name = "{d["name"]}"')
        if "provinces" in d:
            out.append("provinces = [" + ", ".join(f'"{a}"' for a in d["provinces"]) + "]")
        if "shape" in d:
            out.append(f'shape = "{path_data(d["shape"])}"')
        if "line" in d:
            out.append(f'line = "{line_data(d["line"])}"')
        out.append("")
    (ROOT / "maps" / "art" / f"{name}.toml").write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"maps/art/{name}.toml: {len(provinces)} provinces, {len(decor)} decorations")


def label_below(shape: BaseGeometry, unit: Pt, drop: float = 15.0) -> Pt:
    """A label point under the unit when that is still inside the province."""
    below = (unit[0], unit[1] + drop)
    if shape.contains(Point(below)):
        return below
    above = (unit[0], unit[1] - drop)
    return above if shape.contains(Point(above)) else unit


# -- Standard: DPjudge's outlines -------------------------------------------------------------


def _ps_charts(src: str) -> dict[str, list[list[Pt]]]:
    charts: dict[str, list[list[Pt]]] = {}
    for found in re.finditer(r"^/(OutlineChart\w+) \{\n(.*?)^\} bd", src, re.S | re.M):
        paths: list[list[Pt]] = []
        cur: list[Pt] = []
        for line in found.group(2).splitlines():
            t = line.split()
            if not t:
                continue
            if t[-1] == "m":
                if cur:
                    paths.append(cur)
                cur = [(float(t[0]), float(t[1]))]
            elif t[-1] == "l":
                cur.append((float(t[0]), float(t[1])))
            elif t[-1] == "fk" and cur:
                paths.append(cur)
                cur = []
        if cur:
            paths.append(cur)
        charts[found.group(1)] = paths
    return charts


def _extend(a: Pt, b: Pt, d: float) -> Pt:
    dx, dy = a[0] - b[0], a[1] - b[1]
    n = math.hypot(dx, dy) or 1.0
    return (a[0] + dx / n * d, a[1] + dy / n * d)


CLOSED = ("OutlineChartLandBrown", "OutlineChartBrown", "OutlineChartGrey", "OutlineChartBlue")
#: Islands that belong to a province on the board (a point on each, in .ps coordinates).
STANDARD_ISLANDS = [("nap", (294, 69)), ("den", (293, 344)), ("den", (301, 342))]
#: Sea borders standard.ps leaves implicit: the Strait of Messina (Sicily to the toe of Italy),
#: where the Tyrrhenian Sea meets the Ionian.
STANDARD_EXTRA_LINES = [[(306.0, 80.0), (308.0, 79.0)]]
STANDARD_COLOURS = {  # DPjudge's standard.ps VisitPowers, Russia and Germany lightened for contrast
    "Austria": "#e03030", "England": "#2f52d8", "France": "#33b3b3", "Germany": "#595959",
    "Italy": "#2fb22f", "Russia": "#f2f2f2", "Turkey": "#f0dc28",
}


def standard() -> None:
    src = (SHARED / "standard" / "dpjudge" / "standard.ps").read_text(encoding="latin-1")
    charts = _ps_charts(src)
    info: dict[str, Pt] = {}
    for line in src.split("% INFO")[1].split("% MAP")[0].splitlines():
        t = line[1:].split()
        if len(t) >= 3:
            info[t[2].lower()] = (float(t[0]), float(t[1]))
    supplies = {a.lower(): (float(x), float(y))
                for a, x, y in re.findall(r"^\s*/([A-Z]{3}) (\d+) (\d+) s$", src, re.M)}
    frame = box(22, 25, 650, 576)
    rings = [LineString([*p, p[0]]) for k in CLOSED for p in charts[k]] + [frame.exterior]
    opened = [LineString(p) for k, paths in charts.items() if k not in CLOSED for p in paths if len(p) > 1]
    opened += [LineString(p) for p in STANDARD_EXTRA_LINES]
    # A border line of the .ps ends on (or within a few points of) a coast or another border:
    # join each loose end to the nearest line it stops short of.
    lines = list(rings)
    for i, line in enumerate(opened):
        others = unary_union(rings + opened[:i] + opened[i + 1:])
        pts = list(line.coords)
        for end in (pts[0], pts[-1]):
            near = nearest_points(Point(end), others)[1]
            if 0 < near.distance(Point(end)) < 6:
                lines.append(LineString([end, _extend((near.x, near.y), end, 0.5)]))
        lines.append(LineString([_extend(pts[0], pts[1], 4.0), *pts, _extend(pts[-1], pts[-2], 4.0)]))
    noded = unary_union(lines)
    faces = [f for f in polygonize(noded) if frame.contains(f.representative_point())]
    lakes = unary_union([Polygon(p).buffer(0) for p in charts["OutlineChartBlue"]])
    borders = unary_union([LineString(p) for k in ("OutlineChartBlack", "OutlineChartBorderBlack")
                           for p in charts[k] if len(p) > 1]).buffer(0.4)
    seeds = {a: p for a, p in info.items() if "/" not in a}
    m = load_map("standard")
    owner: dict[int, str] = {}
    for i, f in enumerate(faces):
        hits = [a for a, p in seeds.items() if f.contains(Point(p))]
        hits += [a for a, p in STANDARD_ISLANDS if f.contains(Point(p)) and a not in hits]
        if len(hits) > 1:
            raise SystemExit(f"a face holds several provinces: {hits}")
        if hits:
            owner[i] = hits[0]
    # Faces without a point: slivers and pieces cut off by overlapping outlines join the
    # neighbour they share the most unbordered edge with; islands and lakes are decoration.
    decor: list[dict] = []
    pending = [i for i in range(len(faces)) if i not in owner]
    for _ in range(5):
        left = []
        for i in pending:
            f = faces[i]
            if lakes.contains(f.representative_point()):
                decor.append({"kind": "lake", "shape": f})
                continue
            best, best_len = None, 0.0
            for j, a in owner.items():
                if f.area >= 5 and m.provinces[a].kind == "sea":
                    continue
                shared = f.boundary.intersection(faces[j].boundary)
                if shared.is_empty:
                    continue
                free = shared.difference(borders).length if f.area >= 5 else shared.length
                if free > best_len:
                    best, best_len = a, free
            if best is not None and best_len > 0.5:
                owner[i] = best
            else:
                left.append(i)
        pending = left
    for i in pending:
        if faces[i].area > 5:
            decor.append({"kind": "island", "shape": faces[i]})
    s = 1000 / 628

    def tr(p: Pt) -> Pt:
        return ((p[0] - 22) * s, (576 - p[1]) * s)

    def trg(g: BaseGeometry) -> BaseGeometry:
        from shapely.affinity import affine_transform
        return affine_transform(g, [s, 0, 0, -s, -22 * s, 576 * s])

    for d in decor:
        d["shape"] = trg(d["shape"])
    provinces: dict[str, dict] = {}
    for abbr in m.provinces:
        shape = trg(unary_union([faces[i] for i, a in owner.items() if a == abbr]).buffer(0))
        unit = tr(info[abbr])
        p: dict = {"shape": shape, "unit": unit, "label": label_below(shape, unit)}
        if abbr in supplies:
            p["centre"] = tr(supplies[abbr])
        if m.provinces[abbr].coasts:
            p["coasts"] = {c: tr(info[f"{abbr}/{c}"]) for c in m.provinces[abbr].coasts}
        provinces[abbr] = p
    header = """# Map art of the Standard board: one shape per province, unit points per province and coast.
# Drawn by tools/map_art.py from DPjudge's standard.ps (serrasqueiro/dpjudge @ 280e3666c1d9,
# DPjudge/maps/standard.ps, MIT licence, (c) 2017 Manus Hand): its coastlines and borders,
# its % INFO unit points and its supply-centre points, scaled to a 1000-pixel-wide board.
# Format: maps/README.md ("Map art")."""
    write_art("standard", header, 1000, round(551 * s), STANDARD_COLOURS, provinces, decor)


# -- Voronoi schematics (Colonial, Oceania) ------------------------------------------------------


def cells(points: dict[str, Pt], frame: Polygon) -> dict[str, BaseGeometry]:
    """Each point's part of ``frame``: the places nearer to it than to any other point."""
    keys = list(points)
    regions = voronoi_polygons(MultiPoint([points[k] for k in keys]), extend_to=frame)
    out: dict[str, BaseGeometry] = {}
    for region in regions.geoms:
        for k in keys:
            if k not in out and region.contains(Point(points[k])):
                out[k] = region.intersection(frame)
                break
    missing = set(keys) - set(out)
    if missing:
        raise SystemExit(f"no cell for {sorted(missing)}")
    return out


def smooth(geom: BaseGeometry, r: float) -> BaseGeometry:
    """Round a Voronoi outline: open, then close, by ``r``."""
    return geom.buffer(-r).buffer(2 * r).buffer(-r)


def midpoint_of_border(a: BaseGeometry, b: BaseGeometry) -> Pt:
    shared = a.boundary.intersection(b.buffer(1.5))
    point = shared.interpolate(0.5, normalized=True) if shared.length else nearest_points(a, b)[0]
    return (point.x, point.y)


def decorations_from_rules(m, provinces: dict[str, dict]) -> list[dict]:
    """Railway, canal, land bridges and straits drawn from the map file's [rules] tables."""
    decor: list[dict] = []
    rail = m.rules.get("railway")
    if rail:
        stations = list(rail["stations"])
        decor.append({"kind": "railway", "name": rail.get("name", "railway"), "provinces": stations,
                      "line": [provinces[a]["unit"] for a in stations]})
    canal = m.rules.get("canal")
    if canal:
        egy = provinces[canal["province"]]
        ends = [midpoint_of_border(egy["shape"], provinces[sea]["shape"]) for sea in canal["seas"]]
        decor.append({"kind": "canal", "name": canal.get("name", "canal"),
                      "provinces": [canal["seas"][0], canal["province"], canal["seas"][1]],
                      "line": [ends[0], egy["unit"], ends[1]]})
    for a, b in m.rules.get("land_bridges", {}).get("pairs", []):
        decor.append({"kind": "bridge", "provinces": [a, b], "line": [provinces[a]["unit"], provinces[b]["unit"]]})
    for a, b in m.rules.get("straits", {}).get("pairs", []):
        decor.append({"kind": "strait", "provinces": [a, b], "line": [provinces[a]["unit"], provinces[b]["unit"]]})
    return decor


COLONIAL_COLOURS = {
    "Britain": "#d83a3a", "China": "#f0d02c", "France": "#3a64d8", "Holland": "#f08a24",
    "Japan": "#f2f2f2", "Russia": "#2fa84f", "Turkey": "#35b5b5",
}


def colonial() -> None:
    m = load_map("colonial")
    s = 1000 / 1500
    points: dict[str, Pt] = {}
    coasts: dict[str, dict[str, Pt]] = {}
    with (SHARED / "colonial" / "vdiplomacy" / "territories.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            name, _, coast = row["name"].partition(" (")
            if name == "Suez Canal":
                continue
            abbr = m.aliases.get(name.lower(), name.lower())
            if abbr not in m.provinces:
                raise SystemExit(f"unknown territory {row['name']!r}")
            point = (float(row["large_x"]) * s, float(row["large_y"]) * s)
            if coast:
                code = "".join(w[0] for w in coast.rstrip(")").lower().split())
                coasts.setdefault(abbr, {})[code] = point
            else:
                points[abbr] = point
    frame = box(0, 0, 1000, 1000 * s)
    region = cells(points, frame)
    seas = {a: p for a, p in points.items() if m.provinces[a].kind == "sea"}
    # A coast province reaches about half-way to the points of the seas it borders; the rest
    # of its Voronoi cell is sea. Inland provinces keep their whole cell.
    pieces = []
    for abbr, point in points.items():
        prov = m.provinces[abbr]
        if prov.kind == "sea":
            continue
        near = [seas[x.split("/")[0]] for loc in m.fleet_locations(abbr) for x in m.fleet_adj.get(loc, ())
                if x.split("/")[0] in seas]
        if prov.kind == "land" or not near:
            pieces.append(region[abbr])
            continue
        r = min(70.0, max(28.0, 0.6 * min(math.dist(point, q) for q in near)))
        pieces.append(region[abbr].intersection(Point(point).buffer(r, 32)))
    land = unary_union(pieces)
    # Sea enclosed by land, away from every sea point, is land after all.
    water = frame.difference(land)
    for part in getattr(water, "geoms", [water]):
        if not any(part.contains(Point(q)) for q in seas.values()):
            land = land.union(part)
    land = smooth(land, 4)
    region.update({a: g for a, g in cells(seas, frame).items()})
    provinces: dict[str, dict] = {}
    for abbr, point in points.items():
        kind = m.provinces[abbr].kind
        shape = region[abbr].intersection(land) if kind != "sea" else region[abbr].difference(land)
        shape = shape.buffer(0)
        p: dict = {"shape": shape, "unit": point, "label": label_below(shape, point, -14)}
        if m.provinces[abbr].supply:
            p["centre"] = (point[0], point[1] + 13)
        if abbr in coasts:
            p["coasts"] = coasts[abbr]
        provinces[abbr] = p
    header = """# Map art of the Colonial board: one shape per province, unit points per province and coast.
# Drawn by tools/map_art.py from vDiplomacy's territory coordinates (diptobi1/vDiplomacy @
# a829b2ca37ea, variants/Colonial/install.php, extracted to territories.csv; AGPL-3.0 code,
# of which only the facts are used: where each territory lies on the 1500 x 1000 board,
# scaled by 2/3). No outline is copied: each province is the part of the board nearer its
# point than any other (a Voronoi schematic), land and sea rounded.
# Format: maps/README.md ("Map art")."""
    write_art("colonial", header, 1000, round(1000 * s), COLONIAL_COLOURS, provinces,
              decorations_from_rules(m, provinces))


# -- Oceania: real places on a projection -------------------------------------------------------

#: (latitude, longitude east; past 180 the Pacific goes on at 181, 182, ...) of each space:
#: the place it is named for (a city, an island group's centre) or, for seas and spaces with
#: invented names, the part of the ocean between the spaces it borders in maps/oceania.toml.
OCEANIA_PLACES: dict[str, tuple[float, float]] = {
    # the seven large landmasses (and the two impassable spaces)
    "man": (15.5, 121.0), "ceb": (11.0, 123.6), "dav": (7.5, 125.0),          # Philippines
    "mal": (4.5, 116.0), "sam": (-0.5, 115.5),                                 # Borneo
    "cel": (-2.0, 120.5),                                                      # Celebes
    "jay": (-3.5, 139.0), "pmo": (-7.5, 145.0),                                # New Guinea
    "per": (-27.0, 119.0), "noa": (-19.0, 132.5), "tow": (-17.5, 143.3),       # Australia
    "cai": (-23.0, 147.5), "bri": (-27.5, 143.0), "syd": (-33.3, 148.5), "ade": (-32.0, 137.0),
    "hob": (-42.0, 146.6),                                                     # Tasmania
    "wni": (-37.2, 175.0), "wel": (-40.0, 175.8), "chc": (-43.2, 172.0),       # New Zealand
    "sou": (-45.6, 168.9),
    "sch": (25.0, 111.0), "tai": (23.7, 121.0),
    # island chains
    "ryu": (26.5, 127.8), "nsh": (27.0, 142.2), "tim": (-9.5, 124.5), "sor": (-0.9, 131.0),
    "mol": (0.3, 128.2), "wci": (8.0, 136.5), "mau": (16.0, 145.5), "bis": (-4.0, 151.5),
    "emi": (6.5, 158.5), "nsi": (-6.3, 155.8), "ssi": (-9.5, 160.0), "coi": (-17.0, 151.0),
    "sci": (-10.7, 166.0), "van": (-16.0, 167.5), "nou": (-21.5, 165.5), "fij": (-17.5, 178.3),
    "sfi": (-19.3, 181.2), "tog": (-20.5, 184.8), "sao": (-13.3, 187.6), "stu": (-15.0, 190.3),
    "kir": (1.5, 173.0), "pho": (-4.0, 188.5), "kwa": (9.0, 167.2), "smi": (5.6, 168.8),
    "maj": (7.1, 171.6), "mem": (10.5, 170.8), "chr": (1.9, 202.6), "hon": (21.3, 202.2),
    "mid": (28.2, 182.6), "ava": (-21.2, 200.2), "soi": (-16.6, 207.8), "pap": (-18.0, 210.6),
    "eat": (-16.5, 216.5), "fsp": (-23.3, 211.0), "mar": (-9.5, 220.0), "pit": (-25.0, 229.0),
    "kei": (-29.3, 182.1), "cha": (-44.0, 183.4),
    # seas
    "scs": (12.0, 114.0), "sul": (8.5, 120.3), "phs": (17.0, 130.5), "cls": (3.2, 122.0),
    "mak": (-2.5, 118.2), "fls": (-7.3, 120.5), "mls": (0.7, 125.3), "bnd": (-5.5, 127.5),
    "tms": (-12.5, 125.5), "ioc": (-17.0, 111.0), "ars": (-9.5, 136.5), "tos": (-10.8, 142.6),
    "nco": (-13.0, 153.5), "sco": (-22.0, 156.5), "sos": (-8.5, 152.5), "bsm": (-2.5, 146.5),
    "cas": (3.5, 140.0), "wms": (19.0, 138.5), "sms": (6.0, 151.5), "wak": (18.5, 162.0),
    "wem": (5.0, 163.0), "ems": (11.5, 178.0), "kis": (-1.0, 177.0), "tus": (-8.5, 176.0),
    "fis": (-17.0, 172.0), "efs": (-15.5, 183.0), "ton": (-24.5, 178.5), "sas": (-15.0, 194.0),
    "nis": (-32.0, 172.0), "tas": (-38.5, 160.0), "sio": (-42.0, 128.0), "ens": (-40.5, 184.5),
    "spc": (-32.5, 196.0), "cos": (-20.5, 203.5), "fps": (-22.0, 221.0), "lis": (-6.0, 207.0),
    "pas": (8.0, 190.0), "hws": (24.0, 196.0), "nps": (27.0, 165.0),
}
OCEANIA_TOWNSVILLE_COASTS = {"wc": (-15.5, 141.2), "ec": (-18.6, 146.6)}

#: Rough real coastlines (latitude, longitude) of the large landmasses, clockwise.
OCEANIA_LAND: dict[str, list[tuple[float, float]]] = {
    "Australia": [
        (-12.4, 130.8), (-11.2, 132.5), (-12.2, 136.8), (-14.8, 135.5), (-17.5, 140.8),
        (-15.0, 141.5), (-12.5, 141.8), (-10.7, 142.5), (-14.0, 143.7), (-16.9, 145.8),
        (-19.3, 146.8), (-22.5, 150.5), (-24.9, 152.4), (-27.5, 153.1), (-30.3, 153.1),
        (-33.9, 151.2), (-37.5, 149.9), (-37.8, 148.0), (-38.5, 145.0), (-38.8, 143.5),
        (-38.0, 140.8), (-35.6, 138.3), (-34.9, 138.6), (-32.5, 137.8), (-35.0, 136.0),
        (-32.1, 133.6), (-31.5, 131.0), (-31.7, 128.0), (-33.9, 123.5), (-35.0, 118.0),
        (-34.3, 115.1), (-31.9, 115.8), (-28.8, 114.6), (-26.0, 113.5), (-21.8, 114.2),
        (-20.7, 116.8), (-19.5, 121.0), (-17.9, 122.2), (-16.2, 123.5), (-14.3, 126.5),
        (-14.9, 128.3), (-13.5, 129.7),
    ],
    "Tasmania": [(-40.8, 144.7), (-40.9, 148.3), (-43.2, 148.0), (-43.6, 146.8), (-42.2, 145.2)],
    "North Island": [
        (-34.4, 172.7), (-36.3, 174.8), (-37.5, 176.0), (-37.7, 178.5), (-39.5, 177.9),
        (-41.5, 175.3), (-41.3, 174.7), (-39.9, 174.9), (-39.3, 173.8), (-38.0, 174.7),
        (-36.3, 174.0),
    ],
    "South Island": [
        (-40.5, 172.7), (-41.0, 174.3), (-42.4, 173.7), (-43.7, 172.8), (-45.0, 171.0),
        (-46.6, 169.0), (-46.3, 166.5), (-45.0, 167.0), (-43.0, 170.5), (-41.8, 171.5),
    ],
    "New Guinea": [
        (-2.6, 134.6), (-1.6, 137.0), (-2.5, 140.7), (-3.5, 143.5), (-5.2, 145.8),
        (-6.8, 147.8), (-8.0, 148.2), (-10.2, 150.5), (-10.5, 149.0), (-9.4, 147.2),
        (-8.0, 145.0), (-8.0, 143.0), (-9.1, 142.0), (-8.5, 140.0), (-7.5, 138.5),
        (-5.0, 137.5), (-4.2, 135.2),
    ],
    "Borneo": [
        (7.0, 116.8), (5.5, 118.5), (4.2, 117.9), (1.0, 118.8), (-1.5, 116.5), (-3.6, 116.0),
        (-3.8, 114.5), (-3.0, 111.5), (-2.9, 110.2), (-1.0, 109.5), (1.6, 109.6), (2.0, 111.0),
        (3.2, 113.0), (4.5, 114.5), (5.0, 115.5), (6.0, 116.1),
    ],
    "Celebes": [
        (1.4, 125.0), (0.8, 123.0), (0.6, 120.8), (-0.8, 121.0), (-1.0, 123.3), (-2.6, 122.2),
        (-4.0, 123.1), (-5.5, 122.7), (-5.6, 120.3), (-3.5, 119.4), (-0.9, 119.7), (0.8, 120.2),
    ],
    "Philippines": [
        (18.5, 120.6), (18.5, 122.2), (16.5, 122.3), (14.2, 122.5), (13.0, 124.0), (12.5, 125.3),
        (11.0, 125.6), (9.8, 126.2), (7.0, 126.6), (6.0, 126.2), (5.6, 125.3), (6.9, 124.0),
        (7.3, 122.1), (8.3, 123.0), (9.6, 122.5), (10.5, 122.0), (11.5, 121.9), (12.5, 121.3),
        (13.8, 120.6), (14.5, 120.6), (16.0, 119.8), (17.5, 120.4),
    ],
    "South China": [
        (32.5, 104.0), (32.5, 122.5), (30.5, 122.0), (27.5, 120.6), (25.0, 119.5),
        (23.0, 116.5), (22.2, 113.5), (21.5, 110.0), (21.5, 108.0), (20.0, 106.0), (20.0, 104.0),
    ],
    "Taiwan": [(25.2, 121.5), (24.0, 120.1), (22.0, 120.7), (23.5, 121.6)],
}
OCEANIA_LANDMASS = {
    "Australia": ["per", "noa", "tow", "cai", "bri", "syd", "ade"], "Tasmania": ["hob"],
    "North Island": ["wni", "wel"], "South Island": ["chc", "sou"], "New Guinea": ["jay", "pmo"],
    "Borneo": ["mal", "sam"], "Celebes": ["cel"], "Philippines": ["man", "ceb", "dav"],
    "South China": ["sch"], "Taiwan": ["tai"],
}
OCEANIA_COLOURS = {
    "Australia": "#2fa84f", "France": "#3a64d8", "Indonesia": "#d83a3a", "Japan": "#f2f2f2",
    "New Zealand": "#333333", "USA": "#9b59d0", "Marshall Islands": "#f08a24",
}
OCEANIA_FRAME = (104.0, 232.5, 32.5, -50.0)  # west, east, north, south


def oceania() -> None:
    m = load_map("oceania")
    west, east, north, south = OCEANIA_FRAME
    kx = 1000 / (east - west)
    ky = kx / math.cos(math.radians(20))

    def proj(lat: float, lon: float) -> Pt:
        return ((lon - west) * kx, (north - lat) * ky)

    height = round((north - south) * ky)
    frame = box(0, 0, 1000, height)
    points = {a: proj(*ll) for a, ll in OCEANIA_PLACES.items()}
    provinces: dict[str, dict] = {}
    masses = {}
    for mass, outline in OCEANIA_LAND.items():
        poly = Polygon([proj(*ll) for ll in outline]).buffer(0).intersection(frame)
        masses[mass] = poly
        members = OCEANIA_LANDMASS[mass]
        parts = cells({a: points[a] for a in members}, frame) if len(members) > 1 else {members[0]: frame}
        for a in members:
            provinces[a] = {"shape": parts[a].intersection(poly)}
    land = unary_union(list(masses.values()))
    chains = [a for a, p in m.provinces.items() if p.kind == "dual"]
    links = [LineString([points[a], points[b]]).buffer(5)
             for chain in m.rules.get("island_hopping", {}).get("chains", [])
             for a, b in zip(chain, chain[1:], strict=False)]
    # the parts of one chain touch: join consecutive listed parts with a narrow band
    blobs = unary_union([Point(points[a]).buffer(17, 24) for a in chains] + links).difference(land)
    chain_cells = cells({a: points[a] for a in chains}, frame)
    for a in chains:
        provinces[a] = {"shape": chain_cells[a].intersection(blobs).buffer(0)}
    water = frame.difference(land).difference(blobs)
    seas = [a for a, p in m.provinces.items() if p.kind == "sea"]
    sea_cells = cells({a: points[a] for a in seas}, frame)
    for a in seas:
        provinces[a] = {"shape": sea_cells[a].intersection(water).buffer(0)}
    for a, p in provinces.items():
        shape, unit = p["shape"], points[a]
        if not shape.contains(Point(unit)):
            raise SystemExit(f"{a}: its point lies outside its shape")
        p["unit"] = unit
        p["label"] = label_below(shape, unit, -14)
        if m.provinces[a].supply:
            p["centre"] = (unit[0], unit[1] + 12)
    provinces["tow"]["coasts"] = {c: proj(*ll) for c, ll in OCEANIA_TOWNSVILLE_COASTS.items()}
    header = """# Map art of the Oceania board: one shape per space, unit points per space and coast.
# Drawn by tools/map_art.py from real geography (public facts): each space stands at the real
# latitude and longitude of the place it is named for (or, for seas, between the spaces it
# borders in maps/oceania.toml), on an equirectangular projection true at 20 degrees south;
# the large landmasses are rough real coastlines cut between their provinces, island chains
# are light blue discs (seed 003), and the seas share the remaining water.
# Format: maps/README.md ("Map art")."""
    write_art("oceania", header, 1000, height, OCEANIA_COLOURS, provinces,
              decorations_from_rules(m, provinces))


if __name__ == "__main__":
    for which in sys.argv[1:] or ["standard", "colonial", "oceania"]:
        globals()[which]()
