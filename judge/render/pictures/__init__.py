"""Pictures of a game: the board, the position and the phase's orders, as SVG and PNG.

One call for result mails, ``GET MAP``, ``judge map`` and the web archive::

    from judge.render.pictures import phase_picture
    picture = phase_picture(board, position_before, adjudication, game="mygame")
    picture.svg   # str
    picture.png   # bytes (rendered on first use)

``board`` is the board the game plays on (``judge.maps.load_board(name, options)``); with
``adjudication`` None the picture is the position as it stands. The art of each map is
``maps/art/<name>.toml`` (``art.py``); the layout is ``templates/pictures/board.svg.j2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.board import Board
from ...engine.position import Position
from ...engine.results import Adjudication
from .art import Art, ArtError, check_art, load_art, parse_art
from .board import board_svg
from .edition import DRAWING
from .png import svg_to_png

__all__ = ["DRAWING", "Art", "ArtError", "Picture", "board_svg", "check_art", "load_art", "parse_art",
           "phase_picture", "svg_to_png"]


@dataclass(frozen=True)
class Picture:
    """A phase's picture: the SVG text, and its PNG made from it when first asked for."""

    svg: str
    _png: list[bytes] = field(default_factory=list, repr=False, compare=False)

    @property
    def png(self) -> bytes:
        if not self._png:
            self._png.append(svg_to_png(self.svg))
        return self._png[0]


def phase_picture(board: Board, position: Position, adjudication: Adjudication | None = None, *,
                  game: str = "") -> Picture:
    """The picture of ``position`` (the position before the phase) with ``adjudication``'s
    orders and the position they lead to, or of ``position`` alone; the legend's numbers
    are the engine's (:func:`judge.engine.adjustments.tally`)."""
    return Picture(board_svg(board, position, adjudication, game=game))
