"""A picture as a palette PNG, and its rows above the legend deflated once.

The picture is flat colours (a few dozen: land, sea, the powers', lines and text) and their
anti-aliased edges, so 64 colours chosen by octree (from a sample of its pixels,
:func:`palette_of`), without dithering, keep it as legible as the full-colour one at the same
size, at a quarter of the bytes (the standard map: 220 KB -> about 55 KB; a result mail with
it well under 120,000 bytes, ``tests/test_picture_size.py``).

The PNG is written here (:func:`png`), each row unfiltered (filter type 0, as Pillow writes a
palette image) and deflated at level 6, so that the rows above a picture's legend, the same
for every game at one position with the same colours, are deflated once and kept
(:class:`Deflated`): the next such game deflates only its legend's rows, after a copy of the
kept deflater.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Protocol

from PIL import Image

COLOURS = 64
LEVEL = 6  # zlib's: levels 4 and 5 save 2 to 3 ms a picture, for 2 to 5% more bytes


class Deflater(Protocol):
    """A zlib compressor (``zlib.compressobj()``)."""

    def compress(self, data: bytes, /) -> bytes: ...
    def flush(self, mode: int = ..., /) -> bytes: ...
    def copy(self) -> Deflater: ...


@dataclass(frozen=True)
class Deflated:
    """Rows deflated so far (``data``) and the deflater after them (``state``: copy it to go on)."""

    data: bytes
    state: Deflater


def palette_of(image: Image.Image) -> Image.Image:
    """The :data:`COLOURS` colours of ``image`` (RGB), as a palette image to quantize with.

    The colours are chosen by octree from every other pixel of every other row (a nearest
    sample: no colour blended away, a line two pixels wide still sampled), and each pixel
    takes the nearest of them. Measured on the busiest phase of each map, against the octree
    of the whole picture: half the time or less (Standard 7 ms against 17), a smaller mean
    and a smaller largest error per pixel, a PNG 1 to 3% larger."""
    sample = image.resize((max(1, image.width // 2), max(1, image.height // 2)), Image.Resampling.NEAREST)
    return sample.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def rows(image: Image.Image, palette: Image.Image) -> bytes:
    """``image``'s rows as a PNG's, before deflating: each pixel the index of its nearest
    colour in ``palette`` (undithered, so each pixel's alone), each row after a 0 byte (no filter)."""
    data = image.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
    width = image.width
    return b"".join(b"\0" + data[i:i + width] for i in range(0, len(data), width))


def deflate(data: bytes) -> Deflated:
    """``data`` deflated, the deflater kept open to go on."""
    state = zlib.compressobj(LEVEL)
    return Deflated(state.compress(data), state)


def finish(start: Deflated, data: bytes) -> bytes:
    """The whole zlib stream: ``start``'s and then ``data`` (``start`` left as it was)."""
    state = start.state.copy()
    return start.data + state.compress(data) + state.flush()


def png(size: tuple[int, int], palette: Image.Image, stream: bytes) -> bytes:
    """The PNG of a palette image of ``size`` with ``palette``'s colours, from its rows'
    zlib ``stream``."""
    colours = bytes(palette.getpalette() or [])[:3 * 256]
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", *size, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", colours), _chunk(b"IDAT", stream), _chunk(b"IEND", b"")))


def palette_png(image: Image.Image) -> bytes:
    """``image`` (RGB) as a palette PNG of :data:`COLOURS` colours, undithered."""
    palette = palette_of(image)
    return png(image.size, palette, finish(deflate(b""), rows(image, palette)))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
