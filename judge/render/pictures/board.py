"""The picture of a phase: a board, a position and (when adjudicated) its orders, as SVG.

:func:`board_svg` is pure: from the board map, the position before the phase and, when the
phase has been adjudicated, its :class:`~judge.engine.results.Adjudication`, it draws the
position that follows (units where they now stand, dislodged units beside their province,
centres and land in their owners' colours) with the phase's orders as arrows from where the
units stood (``arrows.py``): what a player sees on a DPjudge or jDip results map. Without
an adjudication it draws the position as it stands (the orders not yet known). The layout
and every word are in ``templates/pictures/board.svg.j2``.

Every province, centre and unit element carries ``data-`` attributes (``data-province``,
``data-owner``, ``data-power``, ``data-type``, ``data-location``) so that tools and tests can
read the picture back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from markupsafe import Markup, escape

from ...engine.adjustments import tally
from ...engine.board import Board
from ...engine.map import COAST, DUAL, IMPASSABLE, LAND, SEA
from ...engine.orders import Build, Disband, Remove
from ...engine.position import Position
from ...engine.results import Adjudication
from ..markup import render_markup
from .arrows import Arrow, ArrowMaker, dislodged_point
from .art import Art, Point, load_art

LAND_COLOUR = "#e9dcae"
SEA_COLOUR = "#9cc3e4"
CHAIN_COLOUR = "#cdeefa"
IMPASSABLE_COLOUR = "#a29f96"
NEUTRAL_CENTRE = "#fbfbf4"
LEGEND_HEIGHT = 64
FILL = {LAND: LAND_COLOUR, COAST: LAND_COLOUR, SEA: SEA_COLOUR, DUAL: CHAIN_COLOUR, IMPASSABLE: IMPASSABLE_COLOUR}


@dataclass(frozen=True, slots=True)
class UnitMark:
    """A unit drawn: ``state`` is ``""``, ``dislodged``, ``built`` or ``removed``."""

    x: float
    y: float
    type: str
    power: str
    location: str
    colour: str
    state: str = ""


@dataclass(frozen=True, slots=True)
class ProvinceMark:
    """A province drawn: its shape (escaped once, :func:`_shape`), its fill and owner, and
    where its name goes."""

    abbr: str
    d: Markup
    fill: str
    kind: str
    owner: str
    label: Point
    sea: bool


@cache
def _shape(d: str) -> Markup:
    """A province's path data escaped for the SVG once, not in every picture (its shapes are
    the map's: a few hundred kilobytes in all)."""
    return escape(d)


@dataclass(frozen=True, slots=True)
class LegendEntry:
    power: str
    colour: str
    centres: int
    units: int
    x: float


def tint(colour: str, base: str = LAND_COLOUR, share: float = 0.55) -> str:
    """``colour`` mixed into ``base`` (``share`` of the colour): owned land."""
    c = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(base[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(cv * share + bv * (1 - share)):02x}" for cv, bv in zip(c, b, strict=True))


#: A label's text about its point (10 px Liberation Sans, capitalised abbreviation): the
#: width a letter takes, and the height above (capitals) and below (descenders) the point.
LABEL_LETTER, LABEL_ABOVE, LABEL_BELOW = 5.6, 3.7, 5.5
#: Where a label goes when a unit marker covers its place: nearer first, below before above.
LABEL_STEPS = tuple((dx, dy) for r in (4, 8, 12, 16, 20, 24, 30, 36)
                    for dx, dy in ((0, r), (0, -r), (r, 0), (-r, 0), (r, r), (-r, r), (r, -r), (-r, -r)))

Box = tuple[float, float, float, float]


def _mark_box(u: UnitMark) -> Box:
    """The box a unit marker covers (``board.svg.j2``'s shapes, the build ring included)."""
    if u.state == "built":
        half_w = half_h = 12.5
    elif u.type == "A":
        half_w = half_h = 7.0 if u.state == "dislodged" else 8.5
    else:
        half_w, half_h = (9.0, 5.0) if u.state == "dislodged" else (11.0, 6.0)
    return u.x - half_w, u.y - half_h, u.x + half_w, u.y + half_h


def _label_point(abbr: str, point: Point, marks: list[Box]) -> Point:
    """Where the province's name is drawn: its art's point, or the nearest place from there
    that no unit marker covers (a name is never drawn under a unit)."""
    half_w = LABEL_LETTER * len(abbr) / 2

    def free(x: float, y: float) -> bool:
        return not any(x - half_w < right and left < x + half_w and y - LABEL_ABOVE < bottom and top < y + LABEL_BELOW
                       for left, top, right, bottom in marks)

    x, y = point
    if free(x, y):
        return point
    for dx, dy in LABEL_STEPS:
        if free(x + dx, y + dy):
            return x + dx, y + dy
    return point


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 110


def board_svg(board: Board, position: Position, adjudication: Adjudication | None = None, *,
              game: str = "", art: Art | None = None) -> str:
    """The SVG text of the phase ``position`` on ``board`` (the board the game plays on,
    ``judge.maps.load_board(name, options)``: its map and its rules, which count the
    legend's centres), with ``adjudication``'s orders if given."""
    m, calendar = board.map, board.rules.calendar
    art = art or load_art(m)
    shown = adjudication.next if adjudication is not None else position
    results = adjudication.results if adjudication is not None else ()
    colours: Mapping[str, str] = art.colours
    provinces: list[tuple[str, str, str, str, Point]] = []
    for abbr, drawn in art.provinces.items():
        prov = m.provinces[abbr]
        owner = shown.owners.get(abbr) if prov.supply else None
        fill = FILL[prov.kind]
        if owner is not None and prov.kind in (LAND, COAST):
            fill = tint(colours[owner])
        elif owner is not None and prov.kind == DUAL:
            fill = tint(colours[owner], CHAIN_COLOUR, 0.45)
        provinces.append((abbr, drawn.shape, fill, owner or "", drawn.label))
    centres = []
    for abbr in m.supply_centres:
        point = art.provinces[abbr].centre
        if point is not None:
            owner = shown.owners.get(abbr, "")
            centres.append({"abbr": abbr, "x": point[0], "y": point[1], "owner": owner,
                            "fill": colours[owner] if owner else NEUTRAL_CENTRE})
    units = []
    built = {r.order.unit.location for r in results if isinstance(r.order, Build) and r.succeeded}
    for u in shown.units.values():
        x, y = art.point(u.location)
        units.append(UnitMark(x, y, u.type, u.power, u.location, colours[u.power],
                              "built" if u.location in built else ""))
    for d in shown.dislodged.values():
        x, y = dislodged_point(art, d.unit.location)
        units.append(UnitMark(x, y, d.unit.type, d.unit.power, d.unit.location, colours[d.unit.power], "dislodged"))
    crosses: list[Point] = []
    for r in results:
        o = r.order
        if isinstance(o, Remove) and r.succeeded:
            x, y = art.point(o.unit.location)
            units.append(UnitMark(x, y, o.unit.type, o.unit.power, o.unit.location, colours[o.unit.power], "removed"))
            crosses.append((x, y))
        elif isinstance(o, Disband):
            x, y = dislodged_point(art, o.unit.location)
            units.append(UnitMark(x, y, o.unit.type, o.unit.power, o.unit.location, colours[o.unit.power], "removed"))
            crosses.append((x, y))
    boxes = [_mark_box(u) for u in units]
    marks = [ProvinceMark(abbr, _shape(d), fill, m.provinces[abbr].kind, owner, _label_point(abbr, label, boxes),
                          m.provinces[abbr].kind == SEA) for abbr, d, fill, owner, label in provinces]
    maker = ArrowMaker(m, art, results)
    arrows: list[Arrow] = [a for a in (maker.arrow(r) for r in results) if a is not None]
    counts = tally(board, shown)
    step = art.width / max(len(m.powers), 1)
    legend = [LegendEntry(t.power, colours[t.power], t.centres, t.units, 8 + i * step) for i, t in enumerate(counts)]
    drawn_phase = adjudication.phase.phase if adjudication is not None else position.phase
    return render_markup(
        "pictures/board.svg.j2",
        width=art.width, map_height=art.height, height=art.height + LEGEND_HEIGHT,
        map_name=m.name, map_title=m.title, game=game, phase=drawn_phase.code,
        title=calendar.long_name(drawn_phase), adjudicated=adjudication is not None,
        provinces=marks, decor=art.decor, centres=centres, units=units, arrows=arrows,
        crosses=crosses, legend=legend, dark=_dark, sea_colour=SEA_COLOUR, land_colour=LAND_COLOUR,
    )
