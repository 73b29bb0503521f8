"""Map art and pictures: every province and coast is drawn, and a whole random game on each
map is drawn phase by phase with exactly the units, dislodged units, owners and orders of
the position (read back from the SVG's data- attributes)."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET

import pytest

from judge.engine import centre_counts, initial_position
from judge.engine.map import province_of
from judge.engine.position import Position
from judge.engine.results import Adjudication
from judge.maps import load_board, load_map
from judge.randomgame import play
from judge.render.pictures import check_art, load_art, parse_art, phase_picture
from judge.render.pictures.arrows import ArrowMaker

MAPS = ["standard", "colonial", "oceania"]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", MAPS)
def test_every_province_and_coast_is_drawn_and_nothing_else(name: str) -> None:
    m = load_map(name)
    art = load_art(m)
    assert check_art(art, m) == []
    assert set(art.provinces) == set(m.provinces)
    for abbr, drawn in art.provinces.items():
        assert drawn.shape.startswith("M"), abbr
        for x, y in [drawn.unit, drawn.label, *drawn.coasts.values()]:
            assert 0 <= x <= art.width and 0 <= y <= art.height, abbr
    assert set(art.colours) == {p.name for p in m.powers}


def test_check_art_names_what_is_missing_or_extra() -> None:
    m = load_map("standard")
    text = (load_art(m).provinces and _art_text("standard"))
    broken = text.replace("[province.bul.coast]", "[province.bul.gone]").replace("coast.ec =", "coast.xx =")
    broken += '\n[province.atl]\nunit = [1, 1]\nlabel = [1, 1]\nshape = "M0,0 1,0 1,1Z"\n'
    problems = check_art(parse_art(broken), m)
    assert "coast bul/ec has no unit point" in problems
    assert "bul/xx is drawn but the map has no such coast" in problems
    assert "atl is drawn but the map has no such province" in problems


def _art_text(name: str) -> str:
    from judge.render.pictures.art import art_path

    return art_path(name).read_text(encoding="utf-8")


def _read(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _units(root: ET.Element) -> set[tuple[str, str, str, str]]:
    return {(g.get("data-power", ""), g.get("data-type", ""), g.get("data-location", ""), g.get("data-state", ""))
            for g in root.iter(f"{SVG}g") if g.get("data-unit")}


def _expected_units(shown: Position, adjudication: Adjudication | None) -> set[tuple[str, str, str, str]]:
    from judge.engine.orders import Build, Disband, Remove

    built = set()
    out = set()
    if adjudication is not None:
        for r in adjudication.results:
            o = r.order
            if isinstance(o, Build) and r.succeeded:
                built.add(o.unit.location)
            if isinstance(o, Remove) and r.succeeded or isinstance(o, Disband):
                out.add((o.unit.power, o.unit.type, o.unit.location, "removed"))
    out |= {(u.power, u.type, u.location, "built" if u.location in built else "") for u in shown.units.values()}
    out |= {(d.unit.power, d.unit.type, d.unit.location, "dislodged") for d in shown.dislodged.values()}
    return out


def _check_picture(svg: str, board, position: Position, adjudication: Adjudication | None) -> None:  # type: ignore[no-untyped-def]
    m = board.map
    root = _read(svg)
    shown = adjudication.next if adjudication is not None else position
    assert _units(root) == _expected_units(shown, adjudication)
    centres = {c.get("data-centre"): c.get("data-owner") for c in root.iter(f"{SVG}circle") if c.get("data-centre")}
    assert set(centres) == set(m.supply_centres)
    assert {c: o for c, o in centres.items() if o} == dict(shown.owners)
    provinces = {p.get("data-province"): p.get("data-owner") for p in root.iter(f"{SVG}path") if p.get("data-province")}
    assert set(provinces) == set(m.provinces)
    for abbr, owner in provinces.items():
        assert owner == (shown.owners.get(abbr) if m.provinces[abbr].supply else None), abbr
    legend = {g.get("data-legend"): int(g.get("data-centres", "-1")) for g in root.iter(f"{SVG}g") if g.get("data-legend")}
    counts = centre_counts(board, shown.owners)
    assert legend == {p.name: counts.get(p.name, 0) for p in m.powers}
    orders = [g for g in root.iter(f"{SVG}g") if g.get("data-order")]
    if adjudication is None:
        assert orders == []
        return
    maker = ArrowMaker(m, load_art(m), adjudication.results)
    drawn = [r for r in adjudication.results if maker.arrow(r) is not None]
    assert len(orders) == len(drawn)
    for g, r in zip(orders, drawn, strict=True):
        assert g.get("data-power") == r.power
        assert g.get("data-result") == ("failed" if r.notes else "succeeded")


@pytest.mark.parametrize(("name", "seed", "phases"), [("standard", 11, 60), ("colonial", 12, 60), ("oceania", 13, 60)])
def test_a_whole_random_game_is_drawn_phase_by_phase(name: str, seed: int, phases: int) -> None:
    board = load_board(name)
    m = board.map
    kinds: set[str] = set()
    count = 0
    for played in play(board, initial_position(m), seed, phases):
        picture = phase_picture(board, played.position, played.adjudication, game="g1")
        _check_picture(picture.svg, board, played.position, played.adjudication)
        _check_picture(phase_picture(board, played.position).svg, board, played.position, None)
        root = _read(picture.svg)
        assert root.get("data-phase") == played.position.phase.code
        kinds |= {g.get("data-kind", "") for g in root.iter(f"{SVG}g") if g.get("data-order")}
        count += 1
    assert count >= 20
    assert {"move", "support", "hold-support", "retreat"} <= kinds or {"move", "support"} <= kinds


def test_variant_routes_are_drawn_along_the_railway_the_canal_and_as_hops() -> None:
    from judge.engine import adjudicate
    from judge.engine.parser import parse_orders
    from judge.engine.phase import Phase
    from judge.engine.position import Unit

    colonial_board = load_board("colonial")
    colonial = colonial_board.map
    start = initial_position(colonial)
    pos = Position.build(start.phase, [*start.units.values(), Unit("Britain", "F", "med"), Unit("Britain", "A", "egy")],
                         owners=start.owners)
    orders = parse_orders(colonial_board, pos, "Russia", "A mos - tsr - kra")
    orders += parse_orders(colonial_board, pos, "Britain", "F med - red, A egy S F med - red")
    adj = adjudicate(colonial_board, pos, [o for o in orders if not isinstance(o, Exception)])
    root = _read(phase_picture(colonial_board, pos, adj).svg)
    kinds = {g.get("data-order"): g.get("data-kind") for g in root.iter(f"{SVG}g") if g.get("data-order")}
    assert kinds["A mos - kra"] == "railway"
    assert kinds["F med - red"] == "canal"
    rail = next(g for g in root.iter(f"{SVG}g") if g.get("data-order") == "A mos - kra")
    path = [p for p in rail.iter(f"{SVG}path")][1].get("d", "")
    assert path.count("L") == 3  # mos -> prm -> oms -> kra: through the stations it passes

    oceania_board = load_board("oceania")
    pos = Position.build(Phase.parse("S2000M"), [Unit("New Zealand", "A", "kei")])
    adj = adjudicate(oceania_board, pos, [o for o in parse_orders(oceania_board, pos, "New Zealand", "A kei - tog")
                                          if not isinstance(o, Exception)])
    root = _read(phase_picture(oceania_board, pos, adj).svg)
    hop = next(g for g in root.iter(f"{SVG}g") if g.get("data-order") == "A kei - tog")
    assert hop.get("data-kind") == "hop"
    assert " Q" in [p for p in hop.iter(f"{SVG}path")][1].get("d", "")
    assert province_of("tow/ec") == "tow"


def test_png_is_the_svg_drawn_with_the_bundled_font() -> None:
    board = load_board("standard")
    m = board.map
    picture = phase_picture(board, initial_position(m), game="fontcheck")
    png = picture.png
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    art = load_art(m)
    assert width == art.width and height > art.height
    # The title is drawn: without it the image differs (no font would draw neither).
    blank = phase_picture(board, initial_position(m), game="").svg.replace("Spring 1901 Movement", "")
    from judge.render.pictures import svg_to_png

    assert svg_to_png(blank) != png
