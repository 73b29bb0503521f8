"""Oceania (seed 003): the map's facts, the island hops it derives, its three options, and
every case of tests/oceania/ (the seed's examples and the spec's rules), one test each."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from judge.datc import read_cases, run_case
from judge.engine import Board, Options, adjudicate, option_specs
from judge.engine.mapfile import MapError, build_map
from judge.engine.orders import Convoy, Move, OrderError, Support
from judge.engine.phase import Phase
from judge.engine.position import Position, Unit
from judge.engine.rules import Ruleset, island_hopping, ruleset_for, straits
from judge.engine.validation import check_order
from judge.maps import load_map, maps_dir

HERE = Path(__file__).parent / "oceania"
SEED_CASES = read_cases((HERE / "seed_examples.txt").read_text(encoding="utf-8"))
RULE_CASES = read_cases((HERE / "rules.txt").read_text(encoding="utf-8"))

BASE = load_map("oceania")
BOARD = Board.of(BASE)
M = BOARD.map
RAW = Board(BASE, Options(), Ruleset())  # the map file as it is, no rule module's edit

#: Seed 003, rule I, word for word (abbreviations as the seed writes them).
SEED_UNITS = {
    "Australia": {"F cai", "F bri", "A coi"},
    "France": {"A ava", "F pap", "A pit"},
    "Indonesia": {"A sor", "F tim", "F jay"},
    "Japan": {"F man", "A ryu", "F nsh"},
    "New Zealand": {"F chc", "F wel", "A kei"},
    "USA": {"F mid", "A hon", "F chr"},
    "Marshall Islands": {"F kwa", "F smi", "A maj"},
}
#: Seed 003, rule II.6: the large landmasses.
LANDMASSES = {
    "wni", "wel", "chc", "sou", "per", "noa", "tow", "cai", "bri", "syd", "ade", "hob", "cel",
    "jay", "pmo", "man", "ceb", "dav", "mal", "sam",
}


# -- the cases ------------------------------------------------------------------------------

def test_case_files_hold_every_case_once() -> None:
    seed = [c.name.split()[0] for c in SEED_CASES]
    rules = [c.name.split()[0] for c in RULE_CASES]
    assert len(seed) == len(set(seed)) == 49
    assert len(rules) == len(set(rules)) == 58
    assert all(c.variant.lower() == "oceania" for c in SEED_CASES + RULE_CASES)


@pytest.mark.parametrize("case", SEED_CASES, ids=[c.name.split()[0] for c in SEED_CASES])
def test_seed_example(case) -> None:  # type: ignore[no-untyped-def]
    assert run_case(case) is None


@pytest.mark.parametrize("case", RULE_CASES, ids=[c.name.split()[0] for c in RULE_CASES])
def test_rule_case(case) -> None:  # type: ignore[no-untyped-def]
    assert run_case(case) is None


# -- the map --------------------------------------------------------------------------------

def test_map_facts() -> None:
    assert BASE.title == "Oceania" and BASE.start == "S2000M" and BASE.victory == 20
    assert len(BASE.supply_centres) == 39
    homes = [h for p in BASE.powers for h in p.home]
    assert len(homes) == len(set(homes)) == 21
    assert all(BASE.provinces[h].supply for h in homes)
    assert {p.name: set(p.units) for p in BASE.powers} == SEED_UNITS
    assert [p.name for p in BASE.powers] == list(SEED_UNITS)
    assert sum(len(p.units) for p in BASE.powers) == 21


def test_impassable_and_townsville() -> None:
    for abbr, name in (("sch", "South China"), ("tai", "Taiwan")):
        prov = BASE.provinces[abbr]
        assert prov.kind == "impassable" and prov.name == name
        assert not any(abbr in adj for adj in (*BASE.army_adj.values(), *BASE.fleet_reach.values()))
    tow = BASE.provinces["tow"]
    assert tow.coasts == ("wc", "ec")
    assert [p.abbr for p in BASE.provinces.values() if p.coasts] == ["tow"]
    assert "tos" in BASE.fleet_adj["tow/wc"] and "tos" in BASE.fleet_adj["tow/ec"]
    assert {"tow/wc", "tow/ec"} <= BASE.fleet_adj["tos"]
    assert "nco" in BASE.fleet_adj["tow/ec"] and "nco" not in BASE.fleet_adj["tow/wc"]


def test_landmasses_are_no_hop_coasts_and_chains_are_dual() -> None:
    assert set(BASE.rules["island_hopping"]["no_hop"]) == LANDMASSES
    assert all(BASE.provinces[p].kind == "coast" for p in LANDMASSES)
    kinds = [p.kind for p in BASE.provinces.values()]
    assert kinds.count("dual") == 38 and kinds.count("land") == 0
    for chain in BASE.rules["island_hopping"]["chains"]:
        assert all(BASE.provinces[p].kind == "dual" for p in chain)


def test_rule_data_checks_pass() -> None:
    assert island_hopping.check_data(BASE) == []
    assert straits.check_data(BASE) == []


def _data() -> dict:  # type: ignore[type-arg]
    return tomllib.loads((maps_dir() / "oceania.toml").read_text(encoding="utf-8"))


def test_rule_data_checks_find_problems() -> None:
    data = _data()
    data["rules"]["island_hopping"]["no_hop"] += ["kei", "xyz"]
    data["rules"]["island_hopping"]["chains"] += [["kei", "tog"], ["kei", "wel"]]
    data["rules"]["straits"]["pairs"] += [["kei", "tog"]]
    bad = build_map(data)
    assert island_hopping.check_data(bad) == [
        "island_hopping.no_hop: kei is an island chain (dual), not a landmass",
        "island_hopping.no_hop: unknown province 'xyz'",
        "island_hopping.chains: tog not joined to the rest of ['kei', 'tog'] by direct army and fleet borders",
        "island_hopping.chains: ['kei', 'wel'] has parts that are not island chains (dual): wel",
    ]
    assert straits.check_data(bad) == [
        "straits.pairs: kei-tog is not an army border both ways",
        "straits.pairs: kei-tog is not a fleet border both ways",
    ]
    with pytest.raises(MapError):
        Board.of(bad)
    with pytest.raises(MapError):
        ruleset_for(bad, Options())


# -- the hops -------------------------------------------------------------------------------

def test_seed_hop_examples() -> None:
    # seed II.3: kei to tog, cha, sfi, sao and ava; ava to fsp; not kei to fij
    assert M.army_hops["kei"] == {"tog", "cha", "sfi", "sao", "ava"}
    assert "fsp" in M.army_hops["ava"]
    assert "fij" not in M.army_hops["kei"]
    # seed II.4: pap-pit is a hop (a move), pap-eat a direct border (a retreat too)
    assert "pit" in M.army_hops["pap"] and "pit" not in M.army_adj["pap"]
    assert "eat" in M.army_adj["pap"] and "eat" not in M.army_hops["pap"]


def test_hops_are_derived_as_the_spec_says() -> None:
    seas = {c: {s for s in M.fleet_reach[c] if M.provinces[s].kind == "sea"} for c in M.army_hops}
    for x, ys in M.army_hops.items():
        assert M.provinces[x].kind == "dual" and x not in LANDMASSES
        for y in ys:
            assert x in M.army_hops[y]                        # symmetric
            assert y not in M.army_adj[x] and y != x          # never a drawn border
            assert seas[x] & seas[y]                          # a common sea
    # a chain is never the common sea: nsi and ssi border each other, and ssi borders
    # coi's seas, but nsi shares no sea with coi
    assert "coi" in M.army_hops["ssi"] and "coi" not in M.army_hops.get("nsi", ())
    # no hop onto or off a landmass, though coi and cai share the North Coral Sea
    assert not LANDMASSES & set(M.army_hops)
    assert not M.army_adj["coi"] and not M.adjacent("A", "coi", "cai")


def test_no_hop_provinces_are_never_endpoints() -> None:
    # Every landmass is a coast province, so the kind alone keeps them out on this map; the
    # no_hop list must exclude a province even where the kind would not (the data check
    # refuses such a map for play, hop_edges itself does not rely on it).
    data = _data()
    data["rules"]["island_hopping"]["no_hop"] += ["tog"]
    edges = island_hopping.hop_edges(build_map(data))
    assert "tog" not in edges and all("tog" not in ys for ys in edges.values())
    assert edges["kei"] == {"cha", "sfi", "sao", "ava"}


def test_hops_are_army_moves_only() -> None:
    assert M.adjacent("A", "kei", "tog") and not M.adjacent("F", "kei", "tog")
    assert not BASE.army_hops and not BASE.adjacent("A", "kei", "tog")
    assert M.reaches("A", "kei", "tog") and not M.reaches("F", "kei", "tog")
    # hops are moves for distances (civil disorder), though not drawn
    assert "tog" in M.any_adj["kei"] and "tog" not in BASE.any_adj["kei"]


def test_other_maps_are_untouched() -> None:
    std = load_map("standard")
    assert Board.of(std).map is std and not std.army_hops


def _pos(*units: str, phase: str = "S2000M") -> Position:
    out = []
    for text in units:
        power, _, unit = text.partition(": ")
        t, loc = unit.split()
        out.append(Unit(power, t, loc))
    return Position.build(Phase.parse(phase), out)


def test_validation_sees_hops_only_on_the_game_board() -> None:
    pos = _pos("New Zealand: A kei", "New Zealand: F tog")
    check_order(BOARD, pos, Move(Unit("New Zealand", "A", "kei"), "sao"))
    with pytest.raises(OrderError):
        check_order(RAW, pos, Move(Unit("New Zealand", "A", "kei"), "sao"))
    with pytest.raises(OrderError):
        check_order(BOARD, pos, Move(Unit("New Zealand", "F", "tog"), "kei"))  # fleets never hop
    # a fleet on a chain convoys; on a landmass it cannot
    conv = _pos("Australia: A ssi", "Australia: F nsi", "Australia: F sms", "Australia: A bri",
                "Australia: F cai")
    check_order(BOARD, conv, Convoy(Unit("Australia", "F", "nsi"), "ssi", "emi", "Australia"))  # seed II.5
    with pytest.raises(OrderError, match="not at sea"):
        check_order(BOARD, conv, Convoy(Unit("Australia", "F", "cai"), "bri", "tow", "Australia"))


# -- the options ----------------------------------------------------------------------------

def test_options_are_declared_as_the_spec_names_them() -> None:
    specs = option_specs()
    assert (specs["hop_supports"].default, specs["hop_supports"].values) == (True, None)
    assert (specs["strait_counts_for_retreat"].default, specs["strait_counts_for_retreat"].values) == (True, None)
    assert (specs["ambiguous_coast"].default, specs["ambiguous_coast"].values) == ("void", ("void",))
    for name in ("hop_supports", "strait_counts_for_retreat", "ambiguous_coast"):
        assert specs[name].maps == ("oceania",)
        assert "Oceania only" in specs[name].help
    opts = Options()
    assert opts["hop_supports"] is True and opts["strait_counts_for_retreat"] is True
    assert opts["ambiguous_coast"] == "void"
    assert Options({"hop_supports": "no"})["hop_supports"] is False
    with pytest.raises(ValueError):
        Options({"ambiguous_coast": "first"})


def test_hop_supports_false_keeps_hop_moves_but_not_hop_supports() -> None:
    off = Board.of(BASE, Options({"hop_supports": "false"}))
    assert off.map.army_hops == M.army_hops and not off.map.support_hops
    assert off.map.adjacent("A", "kei", "tog") and not off.map.reaches("A", "kei", "tog")
    assert off.map.reaches("A", "pap", "eat")  # drawn borders still support
    pos = _pos("New Zealand: A kei", "New Zealand: A sao", "France: F tog")
    sup = Support(Unit("New Zealand", "A", "sao"), "kei", "tog", "A", "New Zealand")
    check_order(BOARD, pos, sup)
    with pytest.raises(OrderError, match="cannot move there"):
        check_order(off, pos, sup)


def test_strait_counts_for_retreat_after_a_movement() -> None:
    # A wel dislodged from the North Island Sea: it may retreat to wni, and to chc across
    # the strait unless the option is off.
    pos = _pos("New Zealand: A wel", "Australia: F nis", "Australia: F ens")
    orders = [
        Move(Unit("Australia", "F", "nis"), "wel"),
        Support(Unit("Australia", "F", "ens"), "nis", "wel", "F", "Australia"),
    ]
    for value, expected in ((True, ("chc", "wni")), (False, ("wni",))):
        opts = Options({"strait_counts_for_retreat": value})
        result = adjudicate(Board.of(BASE, opts), pos, orders)
        (d,) = result.dislodged
        assert d.unit.location == "wel" and d.retreats == expected
    assert Board.of(load_map("standard"), Options({"strait_counts_for_retreat": False})).rules.retreat_rules == ()


def test_army_retreats_never_hop() -> None:
    # A pap dislodged: eat, fsp and soi are drawn borders; ava, mar, pit and stu are hops
    pos = _pos("France: A pap", "USA: F cos", "USA: F fps")
    orders = [
        Move(Unit("USA", "F", "cos"), "pap"),
        Support(Unit("USA", "F", "fps"), "cos", "pap", "F", "USA"),
    ]
    result = adjudicate(BOARD, pos, orders)
    (d,) = result.dislodged
    assert d.retreats == ("eat", "fsp", "soi")
