"""The bundled maps load, and the loader says exactly what is wrong with a bad map."""

from __future__ import annotations

import pytest

from judge.engine.mapfile import MapError, parse_map
from judge.maps import available_maps, load_map


def test_standard_map_facts() -> None:
    m = load_map("standard")
    assert [p.letter for p in m.powers] == list("AEFGIRT")
    assert len(m.supply_centres) == 34
    assert sum(len(p.home) for p in m.powers) == 22
    assert sum(len(p.units) for p in m.powers) == 22
    assert m.victory == 18 and m.start == "S1901M"
    assert m.fleet_adj["stp/sc"] == {"bot", "fin", "lvn"}
    assert m.fleet_adj["stp/nc"] == {"bar", "nwy"}
    assert "spa/nc" in m.fleet_adj["mao"] and "spa/sc" in m.fleet_adj["mao"]
    assert "ven" in m.army_adj["rom"] and "ven" not in m.fleet_adj["rom"]
    assert m.provinces["swi"].kind == "impassable"
    assert m.aliases["north sea"] == "nth"


@pytest.mark.parametrize("name", ["standard", "colonial", "oceania"])
def test_bundled_maps_load(name: str) -> None:
    assert name in available_maps()
    m = load_map(name)
    for pw in m.powers:
        for h in pw.home:
            assert m.provinces[h].supply


MINIMAL = """
[map]
name = "tiny"
start = "S1901M"
victory = 2
[[power]]
name = "Red"
letter = "R"
home = ["aaa"]
units = ["A aaa"]
[province.aaa]
name = "Aland"
type = "coast"
supply = true
army = ["bbb"]
fleet = ["sea"]
[province.bbb]
name = "Bland"
type = "land"
supply = true
army = ["aaa"]
[province.sea]
name = "The Sea"
type = "sea"
fleet = ["aaa"]
"""


def test_minimal_map_is_valid() -> None:
    m = parse_map(MINIMAL)
    assert m.name == "tiny" and m.army_adj["aaa"] == {"bbb"}


def test_loader_names_every_problem() -> None:
    broken = (
        MINIMAL.replace('army = ["aaa"]\n[province.sea]', 'army = []\n[province.sea]')   # asymmetric
        .replace('units = ["A aaa"]', 'units = ["F bbb"]')                               # fleet inland
        .replace('fleet = ["aaa"]', 'fleet = ["aaa", "bbb"]')                            # fleet to land
    )
    with pytest.raises(MapError) as err:
        parse_map(broken)
    problems = err.value.problems
    assert "aaa: army move to bbb, but bbb does not list aaa (adjacency must be symmetric)" in problems
    assert "power Red: 'F bbb' stands where such a unit cannot" in problems
    assert "sea: fleet move into land province bbb" in problems


def test_duplicate_names_are_refused() -> None:
    dup = MINIMAL.replace('name = "Bland"', 'name = "Aland"')
    with pytest.raises(MapError, match="name 'Aland' is used by both aaa and bbb"):
        parse_map(dup)
