"""PNG from the SVG, through resvg (``resvg-py`` on PyPI: a wheel with the Rust renderer
inside, no system library needed), then made a palette PNG of 64 colours (``palette.py``). A
board's picture is composed from its kept board and small tiles (``compose.py``), not
rasterised whole.

Text is set in Liberation Sans 2.1.5 (SIL Open Font License 1.1, ``fonts/LICENSE.txt``),
bundled here and loaded with system fonts skipped, so a picture looks the same on every
machine, including a fresh one that has no fonts at all.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import resvg_py
from PIL import Image

from . import palette
from .compose import Composer
from .edition import DRAWING

FONTS = Path(__file__).resolve().parent / "fonts"


@cache
def font_files() -> tuple[str, ...]:
    """The bundled font files."""
    return tuple(str(p) for p in sorted(FONTS.glob("*.ttf")))


@cache
def composer() -> Composer:
    """This process's composer: its kept boards and tiles (``compose.py``)."""
    return Composer(full_png, DRAWING)


def svg_to_png(svg: str) -> bytes:
    """The palette PNG of ``svg`` at its own size: a board's picture composed from its kept
    board and tiles (``compose.py``), any other SVG rasterised whole."""
    made = composer().png(svg)
    if made is not None:
        return made
    with Image.open(io.BytesIO(full_png(svg))) as whole:
        return palette_image(whole.convert("RGB"))


def palette_png(png: bytes) -> bytes:
    """``png`` (full colour) as a palette PNG of :data:`~.palette.COLOURS` colours, undithered."""
    with Image.open(io.BytesIO(png)) as image:
        return palette_image(image.convert("RGB"))


def palette_image(image: Image.Image) -> bytes:
    """``image`` (RGB) as a palette PNG of :data:`~.palette.COLOURS` colours, undithered (:mod:`.palette`)."""
    return palette.palette_png(image)


def full_png(svg: str) -> bytes:
    """The full-colour PNG of ``svg`` as resvg draws it."""
    data = resvg_py.svg_to_bytes(
        svg_string=svg,
        skip_system_fonts=True,
        font_files=list(font_files()),
        font_family="Liberation Sans",
        sans_serif_family="Liberation Sans",
    )
    return bytes(data)
