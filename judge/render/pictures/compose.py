"""A phase's picture made from the kept board and small tiles, not rasterised whole.

Rasterising a whole picture takes resvg about 150 ms, most of it for the parts that never
change: the sea, the provinces' shapes and borders, the decorations. So the picture of a
``board.svg.j2`` SVG is composed (:func:`compose`):

- **the board**, drawn once per map and size and kept in memory (:class:`KeptBoard`, keyed
  by what it draws: the picture's size, the sea, every province's shape and kind, the
  decorations, and :data:`~judge.render.pictures.edition.DRAWING`): the sea and every province in its unowned
  colour; a mask per supply centre's province (the only provinces with an owner); and
  the borders and decorations on a transparent layer;
- **the ownership tints**: each owned province's colour painted through its mask, then the
  borders laid over them, as the whole SVG draws a province's fill under its border;
- **the phase's own parts** (names, centres, units, orders and legend), each element drawn
  alone by resvg on a tile just its size, at whole-pixel places so that every edge falls
  as it does in the whole picture, and laid on in the SVG's order; the tiles that come
  again (a name, a centre or a unit in the same colour, the same place) are kept too,
  found by the elements they draw (tag, attributes, text), so a kept tile costs no XML
  written;
- **the picture above the legend** (all but the legend, which carries the game's name), kept
  by what it draws: a deadline burst's games at one position compose it once, and each lays
  only its legend, on the strip the legend covers.

The result differs from the whole SVG rasterised only in the anti-aliased edges where a
tint meets its border (``tests/test_picture_compose.py`` bounds the difference on each
map). An SVG that is not a board's picture is rasterised whole.
"""

from __future__ import annotations

import io
import math
import re
import threading
import xml.etree.ElementTree as ET
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image, ImageChops, _imaging

from . import palette
from .board import FILL, LAND_COLOUR

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)
#: The layers drawn as tiles, in the SVG's order; everything before them is the board, and
#: all but the legend are kept together as the picture above it (:meth:`Composer._above`).
ABOVE = ("labels", "centres", "units", "orders")
TILED = (*ABOVE, "legend")
#: How far each kind of tile reaches beyond its element's points (strokes, markers, arcs).
UNIT_REACH, CENTRE_REACH, ORDER_REACH = 17, 7, 12
#: Tiles kept per process, the least recently used dropped first (a name's or a unit's tile is
#: a few kilobytes, an order's up to some tens: at most some tens of megabytes in all; each
#: kept board is two full-size RGBA images, about 8 MB for Standard, and its masks).
KEPT_TILES = 2048
#: Pictures without their legend kept per process, the least recently used dropped first
#: (each about 6 MB for Standard: the picture in RGBA and in RGB).
KEPT_ABOVE = 4
#: Deflated rows kept per kept picture, one per palette (each some 320 KB: the zlib state
#: and the rows deflated so far).
KEPT_DEFLATED = 16

Rasterise = Callable[[str], bytes]
Box = tuple[int, int, int, int]
#: What a tile draws: an element inside groups with these attributes (as :func:`_attrs`
#: writes them), outermost first.
Body = tuple[tuple[str, ...], ET.Element]


def _tag(name: str) -> str:
    return f"{{{SVG_NS}}}{name}"


def _xml(element: ET.Element) -> str:
    return ET.tostring(element, encoding="unicode").replace(f' xmlns="{SVG_NS}"', "")


def _attrs(element: ET.Element) -> str:
    return "".join(f' {k}="{_escape(v)}"' for k, v in element.attrib.items() if not k.startswith("data-"))


def _key(element: ET.Element) -> tuple[object, ...]:
    """A hashable key of what ``element`` draws, made without writing XML: its tag,
    attributes, text and tail, and its children's."""
    return (element.tag, tuple(element.attrib.items()), element.text, element.tail,
            tuple(_key(c) for c in element))


def _body_xml(body: Body) -> str:
    """The XML of ``body`` (see :data:`Body`)."""
    wraps, element = body
    return "".join(f"<g{w}>" for w in wraps) + _xml(element) + "</g>" * len(wraps)


def _escape(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _open(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    return image.convert("RGBA")


@dataclass(frozen=True)
class KeptBoard:
    """A board drawn once: ``base`` (sea and unowned provinces), each owned province's
    shape as ``masks[abbr] = (box, mask)`` (drawn when first owned), and ``lines`` (borders
    and decorations); ``head`` is its SVG's opening tag."""

    head: str
    border: str
    base: Image.Image
    masks: dict[str, tuple[Box, Image.Image]]
    decor: Image.Image


@dataclass(frozen=True)
class Above:
    """A picture without its legend, as composed (``rgba``) and as given (``rgb``)."""

    rgba: Image.Image
    rgb: Image.Image
    #: Its rows above the legend deflated, by the legend's first row and the picture's colours.
    deflated: OrderedDict[tuple[int, bytes], palette.Deflated] = field(default_factory=OrderedDict)


class Composer:
    """Composes pictures, keeping boards and tiles; one per process (:data:`COMPOSER`)."""

    def __init__(self, rasterise: Rasterise, drawing: str) -> None:
        self.rasterise = rasterise
        self.drawing = drawing
        self._boards: dict[tuple[object, ...], KeptBoard] = {}
        self._tiles: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()
        self._above_kept: OrderedDict[tuple[object, ...], Above] = OrderedDict()
        self._lock = threading.Lock()

    def compose(self, svg: str) -> Image.Image | None:
        """The picture of ``svg`` (RGB), or None when ``svg`` is not a board's picture."""
        made = self._compose(svg)
        return made[0] if made is not None else None

    def png(self, svg: str) -> bytes | None:
        """The palette PNG of ``svg`` (:mod:`.palette`), or None when ``svg`` is not a board's
        picture. The rows above the legend are deflated once per kept picture and palette:
        a burst's games at one position mostly take the same colours, and then deflate only
        their legends' rows."""
        made = self._compose(svg)
        if made is None:
            return None
        picture, above, top = made
        colours = palette.palette_of(picture)
        found = (top, bytes(colours.getpalette() or []))
        with self._lock:
            start = above.deflated.get(found)
            if start is not None:
                above.deflated.move_to_end(found)
        if start is None:
            start = palette.deflate(palette.rows(picture.crop((0, 0, picture.width, top)), colours))
            with self._lock:
                above.deflated[found] = start
                while len(above.deflated) > KEPT_DEFLATED:
                    above.deflated.popitem(last=False)
        legend = palette.rows(picture.crop((0, top, picture.width, picture.height)), colours)
        return palette.png(picture.size, colours, palette.finish(start, legend))

    def _compose(self, svg: str) -> tuple[Image.Image, Above, int] | None:
        """The picture of ``svg`` (RGB), its kept picture above the legend, and the first row
        the legend covers; None when ``svg`` is not a board's picture."""
        try:
            root = ET.fromstring(svg)
        except ET.ParseError:
            return None
        groups = {g.get("id"): g for g in root if g.tag == _tag("g")}
        if "provinces" not in groups or not all(name in groups for name in TILED):
            return None
        width, height = int(float(root.get("width", "0"))), int(float(root.get("height", "0")))
        head = (f'<svg xmlns="{SVG_NS}" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
                f' font-family="{_escape(root.get("font-family", ""))}">')
        font = _escape(root.get("font-family", ""))
        above = self._above(root, head, groups)
        parts = [(body, clipped, keep) for body, box, keep in _legend_parts(groups["legend"], width)
                 if (clipped := _clip(box, width, height)) is not None]
        picture = above.rgb.copy()
        if not parts:
            return picture, above, height
        # The legend is laid on the strip it covers, cut from the kept picture, and only that
        # strip converted: the rest of the picture is the kept one's, pixel for pixel.
        strip = (min(b[0] for _, b, _ in parts), min(b[1] for _, b, _ in parts),
                 max(b[2] for _, b, _ in parts), max(b[3] for _, b, _ in parts))
        legend = above.rgba.crop(strip)
        for body, box, keep in parts:
            _over(legend, self._tile(font, "", body, box, keep), (box[0] - strip[0], box[1] - strip[1]))
        picture.paste(legend.convert("RGB"), strip[:2])
        return picture, above, strip[1]

    def _above(self, root: ET.Element, head: str, groups: dict[str | None, ET.Element]) -> Above:
        """The picture of everything but the legend (the board, its tints, the names, centres,
        units and orders), kept by what it draws: the games of one position due at once
        differ only in their legends (each its own title), so they compose the rest once."""
        legend = groups["legend"]
        found = (head, tuple(_key(e) for e in root if e is not legend and e.tag != _tag("title")))
        with self._lock:
            kept = self._above_kept.get(found)
            if kept is not None:
                self._above_kept.move_to_end(found)
                return kept
        sea = next((e for e in root if e.tag == _tag("rect")), None)
        board = self._board(head, sea, groups["provinces"], groups.get("decor"))
        picture = board.base.copy()
        for path in groups["provinces"]:
            kind, fill = path.get("data-kind", ""), path.get("fill", "")
            if fill != FILL.get(kind, LAND_COLOUR):
                box, mask = self._mask(board, path.get("data-province", ""), path.get("d", ""))
                picture.paste(fill, box, mask)
        picture.alpha_composite(board.decor)
        defs = next((e for e in root if e.tag == _tag("defs")), None)
        font = _escape(root.get("font-family", ""))
        for name in ABOVE:
            group = groups[name]
            wrap = _attrs(group)
            extra = _xml(defs) if name == "orders" and defs is not None else ""
            for element in group:
                reach = _box(name, element, group)
                clipped = _clip(reach, picture.width, picture.height) if reach is not None else None
                if clipped is not None:
                    _over(picture, self._tile(font, extra, ((wrap,), element), clipped), clipped[:2])
        kept = Above(picture, picture.convert("RGB"))
        with self._lock:
            self._above_kept[found] = kept
            while len(self._above_kept) > KEPT_ABOVE:
                self._above_kept.popitem(last=False)
        return kept

    def _tile(self, font: str, defs: str, body: Body, box: Box, keep: bool = True) -> Image.Image:
        """``body`` (its element inside nested groups with the given attributes) drawn on a
        tile covering ``box`` (within the picture). A tile is kept by what it draws
        (:func:`_key`), so a tile drawn before costs no XML written; unless ``keep`` is
        False (a tile not looked for again)."""
        if not keep:
            return self._draw(font, defs, body, box)
        key = (font, defs, *box, body[0], _key(body[1]))
        with self._lock:
            tile = self._tiles.get(key)
            if tile is not None:
                self._tiles.move_to_end(key)
                return tile
        tile = self._draw(font, defs, body, box)
        with self._lock:
            self._tiles[key] = tile
            while len(self._tiles) > KEPT_TILES:
                self._tiles.popitem(last=False)
        return tile

    def _draw(self, font: str, defs: str, body: Body, box: Box) -> Image.Image:
        """``body`` drawn by resvg on a tile covering ``box``."""
        left, top, right, bottom = box
        w, h = right - left, bottom - top
        return _open(self.rasterise(f'<svg xmlns="{SVG_NS}" width="{w}" height="{h}" viewBox="{left} {top} {w} {h}"'
                                    f' font-family="{font}">{defs}{_body_xml(body)}</svg>'))

    def _board(self, head: str, sea: ET.Element | None, provinces: ET.Element,
               decor: ET.Element | None) -> KeptBoard:
        """The kept board of this picture, drawn now if this process has not drawn it (found
        by what it draws, without writing its SVG)."""
        wrap = _attrs(provinces)
        shapes = tuple((path.get("d", ""), FILL.get(path.get("data-kind", ""), LAND_COLOUR)) for path in provinces)
        found = (self.drawing, head, wrap, _key(sea) if sea is not None else None, shapes,
                 _key(decor) if decor is not None else None)
        with self._lock:
            kept = self._boards.get(found)
        if kept is not None:
            return kept
        unowned = [_xml(ET.Element(_tag("path"), {"d": d, "fill": fill})) for d, fill in shapes]
        sea_xml = _xml(sea) if sea is not None else ""
        decor_xml = _xml(decor) if decor is not None else ""
        base_svg = f"{head}{sea_xml}<g{wrap}>{''.join(unowned)}</g></svg>"
        base = _open(self.rasterise(base_svg))
        decor_layer = _open(self.rasterise(f"{head}{decor_xml}</svg>"))
        kept = KeptBoard(head, wrap, base, {}, decor_layer)
        with self._lock:
            self._boards[found] = kept
        return kept

    def _mask(self, board: KeptBoard, abbr: str, shape: str) -> tuple[Box, Image.Image]:
        """Province ``abbr``'s mask on ``board`` (its fill less its own border, so the tint
        leaves the border drawn), made the first time the province is owned."""
        with self._lock:
            kept = board.masks.get(abbr)
        if kept is not None:
            return kept
        d = _escape(shape)
        box = _around(_path_points(shape), 2) if not re.search(r"[a-y]", shape) else None
        left, top, right, bottom = box if box is not None else (0, 0, board.base.width, board.base.height)
        head = board.head.replace(f'viewBox="0 0 {board.base.width} {board.base.height}"',
                                  f'viewBox="{left} {top} {right - left} {bottom - top}"').replace(
            f'width="{board.base.width}" height="{board.base.height}"',
            f'width="{right - left}" height="{bottom - top}"')
        fill = _open(self.rasterise(f'{head}<path d="{d}" fill="#000" fill-rule="evenodd"/></svg>'))
        border = _open(self.rasterise(f'{head}<g{board.border}><path d="{d}" fill="none"/></g></svg>'))
        kept = ((left, top, right, bottom),
                ImageChops.multiply(fill.getchannel("A"), ImageChops.invert(border.getchannel("A"))))
        with self._lock:
            board.masks[abbr] = kept
        return kept


def _over(picture: Image.Image, tile: Image.Image, at: tuple[int, int]) -> None:
    """Lay ``tile`` over ``picture`` with its top left corner ``at``, inside it: what
    ``picture.alpha_composite(tile, at)`` does (the same crop, composite and paste of
    Pillow's core), without its checks and the images it wraps each step in, which took as
    long as the work for a picture's some 260 small tiles."""
    box = (at[0], at[1], at[0] + tile.width, at[1] + tile.height)
    picture.im.paste(_imaging.alpha_composite(picture.im.crop(box), tile.im), box)


def _clip(box: Box, width: int, height: int) -> Box | None:
    """``box`` within a picture of ``width`` by ``height``, or None when nothing of it is."""
    left, top, right, bottom = max(box[0], 0), max(box[1], 0), min(box[2], width), min(box[3], height)
    return (left, top, right, bottom) if right > left and bottom > top else None


def _legend_parts(group: ET.Element, width: int) -> list[tuple[Body, Box, bool]]:
    """The legend's tiles, element by element, each with whether to keep it: its frame, the
    power names and the map's name come again in every picture, a count in many, and are
    kept; its title (its first line of text: the game's name and the phase) is drawn for
    its picture alone, not kept, so a burst's thousands of titles (some 80 KB each) do not
    push out the tiles that come again."""
    wrap = _attrs(group)
    match = re.search(r"translate\(\s*[-\d.]+\s*,\s*([-\d.]+)", group.get("transform", ""))
    top = float(match.group(1)) if match else 0.0
    title = next((e for e in group if e.tag == _tag("text")), None)
    parts: list[tuple[Body, Box, bool]] = []
    for element in group:
        if element.tag == _tag("g"):
            inner = _attrs(element)
            parts.extend((((wrap, inner), child), _legend_box(child, top, width), True) for child in element)
        else:
            parts.append((((wrap,), element), _legend_box(element, top, width), element is not title))
    return parts


def _legend_box(element: ET.Element, top: float, width: int) -> Box:
    """The whole-pixel box of a legend's element (a rectangle or a line of text) drawn
    ``top`` pixels down."""
    x, y = float(element.get("x", "0")), float(element.get("y", "0"))
    if element.tag == _tag("rect"):
        w, h = float(element.get("width", "0")), float(element.get("height", "0"))
        return math.floor(x - 2), math.floor(top + y - 2), math.ceil(x + w + 2), math.ceil(top + y + h + 2)
    size = float(element.get("font-size", "12"))
    reach = 0.7 * size * len(element.text or "") + size
    anchor = element.get("text-anchor", "start")
    left, right = ((x - reach, x + size) if anchor == "end" else (x - reach / 2, x + reach / 2)
                   if anchor == "middle" else (x - size, x + reach))
    return (max(math.floor(left), 0), math.floor(top + y - 1.5 * size), min(math.ceil(right), width),
            math.ceil(top + y + size))


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_COMMAND = re.compile(r"([MLQCSTHVZAmlqcsthvza])([^MLQCSTHVZAmlqcsthvza]*)")


def _path_points(d: str) -> list[tuple[float, float]]:
    """Points whose box holds path data ``d``: every point it passes or bends toward (a
    curve lies within its control points), an arc's ends widened by its radii."""
    points: list[tuple[float, float]] = []
    x = y = 0.0
    for command, args in _COMMAND.findall(d):
        numbers = [float(n) for n in _NUMBER.findall(args)]
        relative, kind = command.islower(), command.upper()
        if kind == "Z":
            continue
        if kind in "HV":
            for n in numbers:
                if kind == "H":
                    x = x + n if relative else n
                else:
                    y = y + n if relative else n
                points.append((x, y))
            continue
        if kind == "A":
            for i in range(0, len(numbers) - 6, 7):
                rx, ry, ex, ey = numbers[i], numbers[i + 1], numbers[i + 5], numbers[i + 6]
                x, y = (x + ex, y + ey) if relative else (ex, ey)
                points.extend(((x - rx, y - ry), (x + rx, y + ry), (x - 2 * rx, y - 2 * ry), (x + 2 * rx, y + 2 * ry)))
            continue
        start_x, start_y = x, y
        per = {"M": 2, "L": 2, "T": 2, "Q": 4, "S": 4, "C": 6}[kind]
        for i in range(0, len(numbers) - 1, 2):
            px, py = numbers[i], numbers[i + 1]
            if relative:
                px, py = start_x + px, start_y + py
            points.append((px, py))
            if (i + 2) % per == 0:
                x, y = px, py
                start_x, start_y = x, y
    return points


def _around(points: list[tuple[float, float]], reach: float) -> Box | None:
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (math.floor(min(xs) - reach), math.floor(min(ys) - reach),
            math.ceil(max(xs) + reach), math.ceil(max(ys) + reach))


def _box(layer: str, element: ET.Element, group: ET.Element) -> Box | None:
    """The whole-pixel box an element of a tiled layer draws in."""
    if layer == "labels":
        size = float(group.get("font-size", "10"))
        x, y = float(element.get("x", "0")), float(element.get("y", "0"))
        half = 0.75 * size * len(element.text or "") / 2 + size
        return math.floor(x - half), math.floor(y - 1.5 * size), math.ceil(x + half), math.ceil(y + size)
    if layer == "centres":
        x, y, r = (float(element.get(k, "0")) for k in ("cx", "cy", "r"))
        return _around([(x, y)], r + CENTRE_REACH)
    if layer == "units":
        match = re.search(r"translate\(\s*([-\d.]+)\s*,\s*([-\d.]+)", element.get("transform", ""))
        return _around([(float(match.group(1)), float(match.group(2)))], UNIT_REACH) if match else None
    points: list[tuple[float, float]] = []
    for e in element.iter():
        if e.get("d"):
            points.extend(_path_points(e.get("d", "")))
        if e.get("cx") is not None:
            points.append((float(e.get("cx", "0")), float(e.get("cy", "0"))))
    return _around(points, ORDER_REACH)
