"""Issue 27, item 5: a phase's picture is composed from its map's board, drawn once per
process and kept, and tiles of the phase's own parts (``judge/render/pictures/compose.py``),
and looks as the whole SVG rasterised does: on a mid-game phase of every map, no more than a
small share of pixels differ visibly, and those only at the edges of owned provinces."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from random import Random

import pytest
from PIL import Image, ImageChops

from judge.engine import Adjudication, Position, adjudicate, initial_position
from judge.engine.board import Board
from judge.maps import load_board
from judge.randomgame import play
from judge.render.pictures import DRAWING, compose, load_art, phase_picture
from judge.render.pictures.compose import Composer
from judge.render.pictures.palette import palette_of
from judge.render.pictures.png import full_png, svg_to_png

#: A pixel differs visibly when a channel differs by more than this (of 255).
VISIBLE = 48
#: The share of pixels allowed to differ visibly (anti-aliased edges of owned provinces).
SHARE = 0.01
#: The mean difference allowed over the whole picture (of 255).
MEAN = 1.5


def _mid_game(name: str) -> list[str]:
    board = load_board(name)
    phases = list(play(board, initial_position(board.map), 4, 24))
    return [phase_picture(board, p.position, p.adjudication, game=f"{name}-mid").svg for p in phases[-3:]]


@pytest.mark.parametrize("name", ["standard", "colonial", "oceania"])
def test_the_composed_picture_looks_as_the_whole_one(name: str) -> None:
    svg = _mid_game(name)[0]
    whole = Image.open(io.BytesIO(full_png(svg))).convert("RGB")
    composed = Composer(full_png, DRAWING).compose(svg)
    assert composed is not None, "a board's picture is composed"
    assert composed.size == whole.size
    difference = ImageChops.difference(whole, composed)
    levels = difference.convert("L").histogram()
    pixels = whole.width * whole.height
    per_channel = [difference.getchannel(c).histogram() for c in range(3)]
    visible = max(sum(h[VISIBLE + 1:]) for h in per_channel)
    mean = sum(i * n for i, n in enumerate(levels)) / pixels
    assert visible / pixels < SHARE, f"{name}: {visible} pixels differ visibly"
    assert mean < MEAN, f"{name}: mean difference {mean:.2f}"


def test_the_board_is_drawn_once_per_map_and_a_phase_draws_only_small_tiles() -> None:
    drawn: list[tuple[int, int]] = []

    def rasterise(svg: str) -> bytes:
        png = full_png(svg)
        with Image.open(io.BytesIO(png)) as image:
            drawn.append(image.size)
        return png

    composer = Composer(rasterise, DRAWING)
    first, second, third = _mid_game("standard")
    composer.compose(first)
    width = load_art(load_board("standard").map).width
    assert any(w == width for w, _ in drawn), "the first picture draws the board"
    drawn.clear()
    composer.compose(second)
    composer.compose(third)
    assert drawn, "a phase's own parts are drawn"
    assert all(w * h < width * 100 for w, h in drawn), f"a later phase drew a large piece: {max(drawn)}"


def test_an_svg_that_is_no_board_is_rasterised_whole() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
           '<rect width="40" height="20" fill="#336699"/></svg>')
    assert Composer(full_png, DRAWING).compose(svg) is None
    with Image.open(io.BytesIO(svg_to_png(svg))) as image:
        assert image.size == (40, 20)
        assert image.convert("RGB").getpixel((5, 5)) == (0x33, 0x66, 0x99)


@pytest.mark.parametrize("name", ["standard", "colonial", "oceania"])
def test_games_at_one_position_compose_it_once_and_draw_only_their_legends(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst's games at one position differ only in their legends (each its title): the
    picture above the legend is kept, so a second game draws only its legend's tiles even
    with no tile kept, and its picture is the same, byte for byte, as one composed afresh."""
    monkeypatch.setattr(compose, "KEPT_TILES", 0)
    board = load_board(name)
    start = initial_position(board.map)
    after = adjudicate(board, start, [])
    first, second = (phase_picture(board, start, after, game=game).svg for game in ("one", "the-second-game"))
    later = phase_picture(board, *_moved(board), game="the-second-game").svg
    drawn: list[str] = []

    def rasterise(svg: str) -> bytes:
        drawn.append(svg)
        return full_png(svg)

    composer = Composer(rasterise, DRAWING)
    composer.compose(first)
    assert len(drawn) > 100, "the first game draws every tile"
    drawn.clear()
    kept = composer.compose(second)
    legend = ET.fromstring(second).find(f"{{{compose.SVG_NS}}}g[@id='legend']")
    assert legend is not None
    assert len(drawn) == sum(1 for e in legend.iter() if e.tag != legend.tag), "only the legend is drawn"
    for svg, picture in ((second, kept), (later, composer.compose(later))):
        fresh = Composer(full_png, DRAWING).compose(svg)
        assert picture is not None and fresh is not None
        assert picture.tobytes() == fresh.tobytes()


def _moved(board: Board) -> tuple[Position, Adjudication]:
    """A position after the first, with its orders' adjudication."""
    phase = list(play(board, initial_position(board.map), 2, 3))[-1]
    assert phase.adjudication is not None
    return phase.position, phase.adjudication


def test_a_burst_deflates_the_rows_above_the_legend_once_and_each_png_is_its_picture() -> None:
    """Games at one position in the same colours share the rows above the legend, deflated
    once: each PNG is still its own picture in its colours, pixel for pixel, and the same bytes
    whichever game's picture came first."""
    board = load_board("standard")
    start = initial_position(board.map)
    after = adjudicate(board, start, [])
    svgs = [phase_picture(board, start, after, game=f"burst{g}").svg for g in range(6)]
    svgs.append(phase_picture(board, *_moved(board), game="burst0").svg)
    composer = Composer(full_png, DRAWING)
    made = [composer.png(svg) for svg in svgs]
    kept = sum(len(above.deflated) for above in composer._above_kept.values())
    assert kept < len(svgs), "games in the same colours share their deflated rows"
    other = Composer(full_png, DRAWING)
    assert [other.png(svg) for svg in reversed(svgs)] == made[::-1]
    for svg, png in zip(svgs, made, strict=True):
        assert png is not None
        picture = composer.compose(svg)
        assert picture is not None
        colours = palette_of(picture)
        with Image.open(io.BytesIO(png)) as image:
            assert image.mode == "P" and image.size == picture.size
            assert image.tobytes() == picture.quantize(palette=colours, dither=Image.Dither.NONE).tobytes()
            assert image.getpalette() == colours.getpalette()


def test_a_tile_is_laid_over_as_pillows_alpha_composite_lays_it() -> None:
    """The tiles are laid through Pillow's core (``_over``), the same crop, composite and
    paste as ``Image.alpha_composite``: every pixel the same, edges and corners included."""
    random = Random(27)
    picture = Image.frombytes("RGBA", (60, 40), random.randbytes(60 * 40 * 4))
    tile = Image.frombytes("RGBA", (13, 9), random.randbytes(13 * 9 * 4))
    for at in ((0, 0), (47, 31), (20, 5), (0, 31)):
        laid, expected = picture.copy(), picture.copy()
        compose._over(laid, tile, at)
        expected.alpha_composite(tile, at)
        assert laid.tobytes() == expected.tobytes(), at


def test_a_burst_keeps_no_title_among_the_tiles() -> None:
    """A game's title (some 80 KB a tile) is drawn for its picture alone: thousands of games
    due at once do not fill the kept tiles with titles and push out the tiles that come again."""
    board = load_board("oceania")
    start = initial_position(board.map)
    after = adjudicate(board, start, [])
    composer = Composer(full_png, DRAWING)
    composer.compose(phase_picture(board, start, after, game="title0").svg)
    kept = len(composer._tiles)
    for game in range(1, 5):
        composer.compose(phase_picture(board, start, after, game=f"title{game}").svg)
    assert len(composer._tiles) == kept
