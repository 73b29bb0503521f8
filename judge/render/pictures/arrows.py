"""The orders of a phase as arrows: where each line runs and how it is marked.

Moves run from the unit's point to the destination's (its coast's point on a split coast);
a move along the Trans-Siberian Railroad follows the line through the stations it passes,
a canal move runs through the canal province, an Oceania island hop is a curved arc (it is
no border); supports and convoys end on the middle of the move they help, hold supports on
the unit held. An order that failed (any note: ``bounce``, ``cut``, ``void``, ``no
convoy``, ``dislodged``...) is drawn dashed and red, with a cross at its end (DPjudge and
jDip mark failed orders the same way).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.map import ARMY, Map, province_of
from ...engine.orders import Convoy, Hold, Move, Retreat, Support
from ...engine.results import OrderResult
from .art import Art, Point

#: How far from a unit's point its icon reaches, so that lines start and end at its edge.
UNIT_RADIUS = 10.0
#: Where a dislodged unit is drawn, from its province's unit point.
DISLODGED_OFFSET = (13.0, -12.0)


@dataclass(frozen=True, slots=True)
class Arrow:
    """One order drawn: ``d`` is SVG path data; ``kind`` is move, hop, railway, canal,
    convoyed, support, hold-support, convoy, retreat or hold; ``end`` is where a
    failed order's cross goes."""

    d: str
    kind: str
    failed: bool
    end: Point
    order: str
    power: str


def _fmt(points: Sequence[Point]) -> str:
    return "M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _toward(a: Point, b: Point, distance: float) -> Point:
    """The point ``distance`` from ``a`` on the way to ``b`` (``a`` itself if they meet)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    if n <= distance * 2 or n == 0:
        return a
    return (a[0] + dx / n * distance, a[1] + dy / n * distance)


def _trimmed(points: list[Point], start: float, end: float) -> list[Point]:
    pts = list(points)
    pts[0] = _toward(pts[0], pts[1], start)
    pts[-1] = _toward(pts[-1], pts[-2], end)
    return pts


def dislodged_point(art: Art, location: str) -> Point:
    x, y = art.provinces[province_of(location)].unit
    return (x + DISLODGED_OFFSET[0], y + DISLODGED_OFFSET[1])


class ArrowMaker:
    """Draws the orders of one phase on one board."""

    def __init__(self, board: Map, art: Art, results: Sequence[OrderResult]) -> None:
        self.board = board
        self.art = art
        self.moves: dict[str, tuple[Point, Point]] = {}
        for r in results:
            if isinstance(r.order, Move):
                self.moves[r.order.unit.province] = self._ends(r.order)
        rail = art.decoration("railway")
        self.stations = list(rail.provinces) if rail else []
        canal = art.decoration("canal")
        self.canal = list(canal.provinces) if canal else []

    def _ends(self, move: Move) -> tuple[Point, Point]:
        return self.art.point(move.unit.location), self.art.point(move.dest)

    def _route(self, move: Move) -> tuple[str, list[Point]]:
        src, dst = move.unit.location, move.dest
        a, b = self._ends(move)
        sp, dp = province_of(src), province_of(dst)
        if move.via == "railway" or (move.via is None and move.unit.type == ARMY and sp in self.stations
                                     and dp in self.stations and not self.board.adjacent(ARMY, src, dst)):
            i, j = self.stations.index(sp), self.stations.index(dp)
            step = 1 if j > i else -1
            return "railway", [self.art.point(s) for s in self.stations[i:j + step:step]]
        if self.canal and (move.via == "canal" or (sp, dp) in ((self.canal[0], self.canal[2]),
                                                              (self.canal[2], self.canal[0]))):
            return "canal", [a, self.art.point(self.canal[1]), b]
        if move.unit.type == ARMY and dst in self.board.army_hops.get(src, ()):
            return "hop", [a, b]
        if move.via_convoy or not self.board.adjacent(move.unit.type, src, dst):
            return "convoyed", [a, b]
        return "move", [a, b]

    def arrow(self, r: OrderResult) -> Arrow | None:
        """The arrow of one result (None for orders drawn otherwise: builds, removals,
        disbands, waives)."""
        o = r.order
        failed = bool(r.notes)
        if isinstance(o, Move):
            kind, pts = self._route(o)
            pts = _trimmed(pts, UNIT_RADIUS, UNIT_RADIUS + 2)
            if kind == "hop":
                d = _arc(pts[0], pts[-1])
            else:
                d = _fmt(pts)
            return Arrow(d, kind, failed, pts[-1], f"{o.unit} - {o.dest}", r.power)
        if isinstance(o, Support):
            start = self.art.point(o.unit.location)
            target = self.art.provinces[o.target].unit
            if o.dest is None:
                pts = _trimmed([start, target], UNIT_RADIUS, UNIT_RADIUS + 3)
                return Arrow(_fmt(pts), "hold-support", failed, pts[-1], f"{o.unit} S {o.target}", r.power)
            a, b = self.moves.get(o.target, (target, self.art.provinces[o.dest].unit))
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            pts = _trimmed([start, mid], UNIT_RADIUS, 2)
            return Arrow(_fmt(pts), "support", failed, pts[-1], f"{o.unit} S {o.target} - {o.dest}", r.power)
        if isinstance(o, Convoy):
            start = self.art.point(o.unit.location)
            target = self.art.provinces[o.target].unit
            a, b = self.moves.get(o.target, (target, self.art.provinces[o.dest].unit))
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            pts = _trimmed([start, mid], UNIT_RADIUS, 2)
            return Arrow(_fmt(pts), "convoy", failed, pts[-1], f"{o.unit} C {o.target} - {o.dest}", r.power)
        if isinstance(o, Retreat):
            pts = _trimmed([dislodged_point(self.art, o.unit.location), self.art.point(o.dest)],
                           UNIT_RADIUS - 2, UNIT_RADIUS + 2)
            return Arrow(_fmt(pts), "retreat", failed, pts[-1], f"{o.unit} R {o.dest}", r.power)
        if isinstance(o, Hold):
            x, y = self.art.point(o.unit.location)
            return Arrow(_ring(x, y, UNIT_RADIUS + 4), "hold", failed, (x, y + UNIT_RADIUS + 4),
                         f"{o.unit} H", r.power)
        return None


def _arc(a: Point, b: Point) -> str:
    """A quadratic curve from ``a`` to ``b``, bowed to the left by a fifth of its length."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    cx, cy = mx + dy * 0.2, my - dx * 0.2
    return f"M{a[0]:.1f},{a[1]:.1f} Q{cx:.1f},{cy:.1f} {b[0]:.1f},{b[1]:.1f}"


def _ring(x: float, y: float, r: float) -> str:
    return (f"M{x - r:.1f},{y:.1f} a{r:.1f},{r:.1f} 0 1,0 {2 * r:.1f},0 "
            f"a{r:.1f},{r:.1f} 0 1,0 {-2 * r:.1f},0")
