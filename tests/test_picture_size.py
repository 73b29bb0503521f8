"""Issue 27, item 4: a result mail with its picture weighs under 120,000 bytes on every map,
the picture still at the map's full width (legibility kept: a palette PNG, not a smaller one).
The mail is built as the sender builds it (``build_message``: base64 attachment beside the
text), with a results text longer than a busy phase's, and measured on the wire."""

from __future__ import annotations

import struct

import pytest

from judge.config import Config
from judge.engine import initial_position
from judge.mail.outgoing import build_message, wire_bytes
from judge.maps import load_board
from judge.randomgame import play
from judge.render.pictures import load_art, phase_picture
from judge.store.base import utcnow
from judge.store.mail import Attachment, OutboxMessage

LIMIT = 120_000
PALETTE = 3  # PNG colour type: indexed colour


@pytest.mark.parametrize("name", ["standard", "colonial", "oceania"])
def test_a_result_mail_with_its_picture_is_light(name: str) -> None:
    board = load_board(name)
    phases = list(play(board, initial_position(board.map), 7, 10))
    busiest = max(phases, key=lambda p: len(p.position.units))
    png = phase_picture(board, busiest.position, busiest.adjudication, game="light").png
    width, _ = struct.unpack(">II", png[16:24])
    assert width == load_art(board.map).width, "the picture keeps the map's full size"
    assert png[25] == PALETTE, "a palette PNG"
    row = OutboxMessage(to_addr="ann@example.org", subject="JUDGE:light - S1903M Results", body="x" * 70 + "\n",
                        headers={}, game="light", phase="S1903M", kind="result", created_at=utcnow(),
                        message_id="<light.1@judge.test>")
    row.body = row.body * 150  # 10,650 bytes of results text
    row.files = [Attachment(digest="0" * 64, filename="light-S1903M.png", content_type="image/png", data=png,
                            created_at=utcnow())]
    size = len(wire_bytes(build_message(row, Config(address="judge@judge.test"))))
    assert size < LIMIT, f"{name}: a result mail of {size} bytes"


@pytest.mark.parametrize("name", ["standard", "colonial", "oceania"])
def test_the_palette_keeps_the_picture(name: str) -> None:
    """The 64 colours lose no more than anti-aliasing shades: against the full-colour
    picture, a mean error under 2.5 a channel and no pixel off by more than 64."""
    import io

    from PIL import Image, ImageChops, ImageStat

    from judge.render.pictures.png import composer, palette_image

    board = load_board(name)
    phases = list(play(board, initial_position(board.map), 3, 6))
    busiest = max(phases, key=lambda p: len(p.position.units))
    full = composer().compose(phase_picture(board, busiest.position, busiest.adjudication, game="kept").svg)
    assert full is not None
    with Image.open(io.BytesIO(palette_image(full))) as png:
        difference = ImageChops.difference(full, png.convert("RGB"))
    assert max(ImageStat.Stat(difference).mean) < 2.5
    assert max(high for _, high in difference.getextrema()) <= 64
