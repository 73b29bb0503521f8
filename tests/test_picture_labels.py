"""Issue 27, item 7: a province's name is never drawn under a unit marker, on any map, in
any phase (units on coasts, dislodged units beside their province, built and removed ones
included). Read back from the SVG: each label's text box against each unit marker's box."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from judge.engine import initial_position
from judge.maps import load_board
from judge.randomgame import play
from judge.render.pictures import phase_picture

SVG = "{http://www.w3.org/2000/svg}"
CHAR_WIDTH = 5.6  # Liberation Sans at 10 px, about
ABOVE, BELOW = 3.7, 5.5  # the text's extent about the label point (capitals; descenders)


def extent(kind: str, state: str) -> tuple[float, float, float, float]:
    """A marker's box about its point: left, top, right, bottom (board.svg.j2's shapes)."""
    if state == "built":
        return -12.5, -12.5, 12.5, 12.5
    if kind == "A":
        r = 7 if state == "dislodged" else 8.5
        return -r, -r, r, r
    return (-9, -5, 9, 5) if state == "dislodged" else (-11, -6, 11, 6)


def collisions(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    labels = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "labels")
    units = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "units")
    marks = []
    for g in units.findall(f"{SVG}g"):
        found = re.match(r"translate\(([-0-9.]+),([-0-9.]+)\)", g.get("transform", ""))
        assert found
        marks.append((float(found.group(1)), float(found.group(2)), g.get("data-unit"),
                      extent(g.get("data-type", "A"), g.get("data-state", ""))))
    out = []
    for text in labels.findall(f"{SVG}text"):
        name = text.text or ""
        x, y = float(text.get("x", 0)), float(text.get("y", 0)) - 3.5
        half_w = CHAR_WIDTH * len(name) / 2
        for mx, my, unit, (left, top, right, bottom) in marks:
            if (x - half_w < mx + right and mx + left < x + half_w
                    and y - ABOVE < my + bottom and my + top < y + BELOW):
                out.append(f"{name} under {unit}")
    return out


@pytest.mark.parametrize("name", ["standard", "colonial", "oceania"])
def test_no_label_under_a_unit(name: str) -> None:
    board = load_board(name)
    found: set[str] = set()
    for phase in play(board, initial_position(board.map), 11, 24):
        found.update(collisions(phase_picture(board, phase.position, phase.adjudication).svg))
    assert not found, sorted(found)
