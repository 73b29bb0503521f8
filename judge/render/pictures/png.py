"""PNG from the SVG, through resvg (``resvg-py`` on PyPI: a wheel with the Rust renderer
inside, no system library needed).

Text is set in Liberation Sans 2.1.5 (SIL Open Font License 1.1, ``fonts/LICENSE.txt``),
bundled here and loaded with system fonts skipped, so a picture looks the same on every
machine, including a fresh one that has no fonts at all.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import resvg_py

FONTS = Path(__file__).resolve().parent / "fonts"


@cache
def font_files() -> tuple[str, ...]:
    """The bundled font files."""
    return tuple(str(p) for p in sorted(FONTS.glob("*.ttf")))


def svg_to_png(svg: str) -> bytes:
    """The PNG of ``svg`` at its own size."""
    data = resvg_py.svg_to_bytes(
        svg_string=svg,
        skip_system_fonts=True,
        font_files=list(font_files()),
        font_family="Liberation Sans",
        sans_serif_family="Liberation Sans",
    )
    return bytes(data)
