"""Colonial Diplomacy: both case files case by case, the option presets of the two readings,
Hong Kong's count, the calendars, the TSR order forms and how railway and canal moves are
reported."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from judge.datc import read_cases, run_case
from judge.engine import (
    Board,
    Move,
    Options,
    OrderError,
    Phase,
    Position,
    Unit,
    adjudicate,
    initial_position,
    victors,
)
from judge.engine.adjudicator import Movement
from judge.engine.adjustments import adjustment_counts
from judge.engine.notation import describe
from judge.engine.options import option_specs
from judge.engine.parser import parse_order
from judge.engine.routes import PARADOX_FAIL, PARADOX_HOLD, VariantParadox, VariantRoute
from judge.engine.rules import Ruleset
from judge.engine.rules.colonial import READINGS
from judge.engine.validation import check_order, check_order_set
from judge.game.orders import merge
from judge.maps import load_board, load_map

HERE = Path(__file__).parent / "colonial"
ROOT = Path(__file__).parent.parent
SEEDS = read_cases((HERE / "seed_examples.txt").read_text(encoding="utf-8"))
RULES = read_cases((HERE / "rules.txt").read_text(encoding="utf-8"))


def test_the_case_files_hold_what_the_readme_lists() -> None:
    assert len(SEEDS) == 46 and len({c.name for c in SEEDS}) == 46
    assert len(RULES) == 89 and len({c.name for c in RULES}) == 89
    for case in SEEDS + RULES:
        assert case.options.get("colonial_rules") in ("adjudicator", "moulmein"), case.name


@pytest.mark.parametrize("case", SEEDS, ids=[c.name for c in SEEDS])
def test_seed_example(case) -> None:  # type: ignore[no-untyped-def]
    assert run_case(case) is None


@pytest.mark.parametrize("case", RULES, ids=[c.name for c in RULES])
def test_rule_case(case) -> None:  # type: ignore[no-untyped-def]
    assert run_case(case) is None


# -- options --------------------------------------------------------------------------


def _board(**options: object) -> Board:
    return load_board("colonial", Options(options))


def test_readings_match_the_map_file() -> None:
    data = tomllib.loads((ROOT / "maps" / "colonial.toml").read_text(encoding="utf-8"))
    readings = data["rules"]["readings"]
    assert {k: v for k, v in readings.items() if k != "default"} == READINGS


def test_no_option_plays_the_adjudicator_reading() -> None:
    plain = Options()
    for name, value in READINGS["adjudicator"].items():
        assert plain[name] == value, name


def test_a_reading_sets_every_finer_option() -> None:
    opts = Options({"colonial_rules": "moulmein"})
    for name, value in READINGS["moulmein"].items():
        assert opts[name] == value, name
    assert opts.explicit == {"colonial_rules": "moulmein"}


def test_a_gm_overrides_one_finer_option_of_a_reading() -> None:
    opts = Options({"colonial_rules": "moulmein", "tsr_static_break": "void"})
    assert opts["tsr_static_break"] == "void"
    assert opts["tsr_temporary_leave"] == "off_route"  # the rest of the reading stays
    assert opts["suez_mode"] == "permission"
    # written the other way round, the explicit option still wins
    opts = Options({"tsr_static_break": "void", "colonial_rules": "moulmein"})
    assert opts["tsr_static_break"] == "void"


def test_tsr_reading_is_finer_than_colonial_rules() -> None:
    for given in ({"colonial_rules": "adjudicator", "tsr_reading": "seed001"},
                  {"tsr_reading": "seed001", "colonial_rules": "adjudicator"}):
        opts = Options(given)
        assert opts["tsr_attack_occupied"] is False and opts["tsr_static_break"] == "fallback"
        assert opts["suez_mode"] == "kiel" and opts["colonial_map"] == "seed000"


def test_options_are_colonial_only_and_checked() -> None:
    assert option_specs()["suez_mode"].maps == ("colonial",)
    with pytest.raises(ValueError):
        Options({"colonial_rules": "webdip"})
    with pytest.raises(ValueError):
        Options({"tsr_temporary_leave": "sometimes"})


def test_a_finer_option_changes_the_adjudication() -> None:
    """The same orders under the moulmein reading, then with tsr_static_break=void."""
    for extra, where in (({}, "oms"), ({"tsr_static_break": "void"}, "mos")):
        m = _board(colonial_rules="moulmein", **extra)
        pos = Position.build(Phase.parse("S1870M"), [Unit("Russia", "A", "mos"), Unit("China", "A", "kra")])
        order = parse_order(m, pos, "Russia", "A mos - TSR - vla")
        check_order(m, pos, order)
        result = adjudicate(m, pos, [order])
        assert result.next.units[where] == Unit("Russia", "A", where)


def test_the_board_holds_the_map_version_of_its_options() -> None:
    m = _board(colonial_rules="moulmein")
    assert m.options == Options({"colonial_rules": "moulmein"})
    assert "aki" in m.map.army_adj["ota"] and "soj" in m.map.fleet_adj["sak"]
    base = _board()
    assert "aki" not in base.map.army_adj["ota"] and "soj" not in base.map.fleet_adj["sak"]
    assert _board(colonial_rules="moulmein") is m  # load_board keeps one board per option set
    assert Board.of(load_map("colonial"), Options({"colonial_rules": "moulmein"})) is not m


# -- Hong Kong ------------------------------------------------------------------------


def _china_owns(*extra: str) -> dict[str, str]:
    return {c: "China" for c in ("can", "mac", "pek", "sha", "sik", *extra)}


def test_hong_kong_counts_for_nobody_in_chinese_hands() -> None:
    units = [Unit("China", "A", p) for p in ("can", "mac", "pek", "sha", "sik")]
    pos = Position.build(Phase.parse("F1870B"), units, owners={**_china_owns("hon"), "tok": "Japan"})
    m = _board(colonial_rules="moulmein")
    assert adjustment_counts(m, pos)["China"] == 0
    adj = _board(colonial_rules="adjudicator")
    assert adjustment_counts(adj, pos)["China"] == 1
    assert adj.rules.centre_value is None


def test_hong_kong_counts_for_japan_under_the_rule() -> None:
    m = _board(colonial_rules="moulmein")
    pos = Position.build(Phase.parse("F1870B"), [Unit("Japan", "A", "kyo")], owners={"kyo": "Japan", "hon": "Japan"})
    assert adjustment_counts(m, pos)["Japan"] == 1


def test_hong_kong_and_victory() -> None:
    neutral = [c for c in load_map("colonial").supply_centres if c not in _china_owns("hon")]
    owners = {**_china_owns("hon"), **{c: "China" for c in neutral[:24]}}  # 30 with Hong Kong
    m = _board(colonial_rules="moulmein")
    assert victors(m, owners) == ()
    adj = _board(colonial_rules="adjudicator")
    assert victors(adj, owners) == ("China",)
    owners["hon"] = "Britain"
    owners[neutral[24]] = "China"
    assert victors(m, owners) == ("China",)


def test_validation_refuses_a_chinese_build_hong_kong_does_not_pay_for() -> None:
    m = _board(colonial_rules="moulmein")
    units = [Unit("China", "A", p) for p in ("hon", "mac", "pek", "sha", "sik")]
    pos = Position.build(Phase.parse("F1870B"), units, owners=_china_owns("hon"))
    with pytest.raises(OrderError, match="no builds"):
        check_order(m, pos, parse_order(m, pos, "China", "Build A can"))


# -- calendar -------------------------------------------------------------------------


@pytest.mark.parametrize(("calendar", "codes", "titles"), [
    ("whole_year", ["S1870M", "F1871M", "F1871B", "S1872M", "F1873M", "S1874M"],
     ["Movement for Spring of 1870", "Movement for Fall of 1871", "Adjustments for Winter of 1871",
      "Movement for Spring of 1872", "Movement for Fall of 1873", "Movement for Spring of 1874"]),
    ("standard", ["S1870M", "F1870M", "F1870B", "S1871M", "F1871M", "S1872M"],
     ["Movement for Spring of 1870", "Movement for Fall of 1870", "Adjustments for Winter of 1870",
      "Movement for Spring of 1871", "Movement for Fall of 1871", "Movement for Spring of 1872"]),
    ("even_years", ["S1870M", "F1870M", "F1871B", "S1872M", "F1872M", "S1874M"],
     ["Movement for Spring of 1870", "Movement for Fall of 1870", "Adjustments for Winter of 1871",
      "Movement for Spring of 1872", "Movement for Fall of 1872", "Movement for Spring of 1874"]),
])
def test_calendar_codes_and_names(calendar: str, codes: list[str], titles: list[str]) -> None:
    """Two years of a calendar: with builds after the first, none after the second. The
    code carries the year players read, and the names keep "<Season> of <year>" for mappers."""
    m = _board(colonial_calendar=calendar)
    cal = m.rules.calendar
    spring = Phase.parse("S1870M")
    fall = cal.next_movement(spring)
    builds = cal.adjustment_phase(fall)
    spring2 = cal.next_movement(builds)
    fall2 = cal.next_movement(spring2)
    spring3 = cal.next_movement(fall2)  # no adjustments this time
    phases = [spring, fall, builds, spring2, fall2, spring3]
    assert [p.code for p in phases] == codes
    assert [cal.phase_title(p) for p in phases] == titles


def test_whole_year_is_the_adjudicator_default_and_a_game_counts_its_years() -> None:
    m = _board(colonial_rules="adjudicator")
    pos = initial_position(m.map)
    spring = adjudicate(m, pos, [])
    assert spring.next.phase.code == "F1871M"
    fall = adjudicate(m, spring.next, [])
    assert fall.next.phase.code in ("F1871B", "S1872M")
    m = _board(colonial_rules="moulmein")
    assert adjudicate(m, initial_position(m.map), []).next.phase.code == "F1870M"


# -- order forms and results ----------------------------------------------------------


@pytest.mark.parametrize("text", [
    "A Omsk TSR Vladivostok", "Army Omsk TSR Vla", "A oms - TSR - vla", "A Oms -> TSR -> Vla",
    "A Omsk - Trans Siberian Railway - Vladivostok", "a oms tsr vla",
])
def test_tsr_order_forms(text: str) -> None:
    m = _board()
    pos = initial_position(m.map)
    order = parse_order(m, pos, "Russia", text)
    assert order == Move(Unit("Russia", "A", "oms"), "vla", via="railway")
    check_order(m, pos, order)


@pytest.mark.parametrize("text", ["A ore S A mos TSR oms", "A ore S A mos - oms", "A ore S A mos - TSR - oms"])
def test_supports_of_a_tsr_move(text: str) -> None:
    m = _board()
    pos = Position.build(Phase.parse("S1870M"), [Unit("Russia", "A", "mos"), Unit("Russia", "A", "ore")],
                         owners={"mos": "Russia", "oms": "Russia"})
    order = parse_order(m, pos, "Russia", text)
    check_order(m, pos, order)
    assert (order.target, order.dest) == ("mos", "oms")  # type: ignore[union-attr]


@pytest.mark.parametrize(("power", "text", "message"), [
    ("China", "A kra TSR mos", "Only Russia may use"),
    ("Russia", "F vla TSR mos", "A fleet cannot use"),
    ("Russia", "A ore TSR vla", "Orenburg is not on"),
])
def test_tsr_legality_messages(power: str, text: str, message: str) -> None:
    m = _board()
    pos = Position.build(Phase.parse("S1870M"), [Unit("China", "A", "kra"), Unit("Russia", "F", "vla"),
                                                 Unit("Russia", "A", "ore")])
    with pytest.raises(OrderError, match=message):
        check_order(m, pos, parse_order(m, pos, power, text))


def test_omsk_owned_by_china_breaks_the_line_in_the_adjudicator_reading() -> None:
    m = _board(colonial_rules="adjudicator")
    pos = Position.build(Phase.parse("S1870M"), [Unit("Russia", "A", "mos")], owners={"oms": "China"})
    with pytest.raises(OrderError, match="broken at Omsk"):
        check_order(m, pos, parse_order(m, pos, "Russia", "A mos TSR kra"))
    check_order(m, pos, parse_order(m, pos, "Russia", "A mos TSR oms"))


def test_a_blocked_tsr_army_bounces_and_the_result_says_where_it_stopped() -> None:
    m = _board(colonial_rules="moulmein")
    pos = Position.build(Phase.parse("S1870M"), [Unit("Russia", "A", "mos"), Unit("China", "A", "mon")])
    orders = [parse_order(m, pos, "Russia", "A mos - TSR - vla"), parse_order(m, pos, "China", "A mon - kra")]
    result = adjudicate(m, pos, orders)
    russian = next(r for r in result.results if r.power == "Russia")
    assert russian.notes == ("bounce",) and russian.stopped == "oms"
    assert describe(m.map, russian.order) == "Army Moscow -> Trans-Siberian Railroad -> Vladivostok."
    assert result.next.units["oms"] == Unit("Russia", "A", "oms") and "mos" not in result.next.units


def test_a_void_tsr_order_is_reported_void() -> None:
    m = _board(colonial_rules="adjudicator")
    pos = Position.build(Phase.parse("S1870M"), [Unit("Russia", "A", "mos"), Unit("China", "A", "kra")],
                         owners={"oms": "Russia"})
    result = adjudicate(m, pos, [parse_order(m, pos, "Russia", "A mos TSR vla")])
    russian = next(r for r in result.results if r.power == "Russia")
    assert russian.notes == ("void",) and russian.stopped is None


def test_a_canal_move_is_reported_through_the_canal() -> None:
    m = _board(colonial_rules="moulmein")
    pos = Position.build(Phase.parse("S1870M"), [Unit("Turkey", "A", "egy"), Unit("Turkey", "F", "med")])
    order = parse_order(m, pos, "Turkey", "F med - red")
    check_order(m, pos, order)
    result = adjudicate(m, pos, [order])
    fleet = next(r for r in result.results if r.order.unit.type == "F")  # type: ignore[union-attr]
    assert fleet.notes == ()
    assert describe(m.map, fleet.order) == "Fleet Mediterranean Sea -> Suez Canal -> Red Sea."


def test_the_canal_move_is_illegal_in_the_adjudicator_reading() -> None:
    m = _board(colonial_rules="adjudicator")
    pos = Position.build(Phase.parse("S1870M"), [Unit("Turkey", "A", "egy"), Unit("Turkey", "F", "med")])
    with pytest.raises(OrderError):
        check_order(m, pos, parse_order(m, pos, "Turkey", "F med - red"))


@pytest.mark.parametrize("through", [True, False])
def test_supports_and_retreats_through_the_canal(through: bool) -> None:
    m = _board(colonial_rules="moulmein", suez_support_through=through)
    units = [Unit("Turkey", "A", "egy"), Unit("Turkey", "F", "red"), Unit("Britain", "F", "red"),
             Unit("France", "F", "ade"), Unit("France", "F", "goa")]
    pos = Position.build(Phase.parse("S1870M"), [*units[:2], Unit("Turkey", "F", "med")])
    own = parse_order(m, pos, "Turkey", "F red S F med")
    if through:
        check_order(m, pos, own)
    else:
        with pytest.raises(OrderError):
            check_order(m, pos, own)
    # a British fleet dislodged in the Red Sea, Egypt Turkish then British
    for keeper in ("Turkey", "Britain"):
        pos = Position.build(Phase.parse("S1870M"), [Unit(keeper, "A", "egy"), *units[2:]])
        orders = [parse_order(m, pos, "France", t) for t in ("F goa - red", "F ade S F goa - red")]
        result = adjudicate(m, pos, orders)
        (dislodged,) = result.dislodged
        assert ("med" in dislodged.retreats) == (through and keeper == "Britain")


# -- paradoxes (tsr_paradox=hold, VariantRoute.on_paradox) ------------------------------


class _SelfDenying(VariantRoute):
    """A route open exactly when its own move fails: no consistent outcome."""

    def open(self, mv: Movement, prov: str) -> bool:
        return not mv.resolve(prov)

    def on_paradox(self, mv: Movement, prov: str) -> str | None:
        return PARADOX_HOLD


class _SelfAffirming(_SelfDenying):
    """A route open exactly when its own move succeeds: two consistent outcomes."""

    def open(self, mv: Movement, prov: str) -> bool:
        return mv.resolve(prov)


def _standard_move(route: VariantRoute):  # type: ignore[no-untyped-def]
    m = load_map("standard")
    pos = Position.build(Phase.parse("S1901M"), [Unit("France", "A", "par"), Unit("Germany", "A", "mun")])
    orders = [Move(Unit("France", "A", "par"), "bur", via="x"), Move(Unit("Germany", "A", "mun"), "ruh")]
    return Board(m, Options(), Ruleset(route_rules={"x": route})), pos, orders


def test_a_route_contradicting_its_own_success_raises_the_variant_paradox() -> None:
    board, pos, orders = _standard_move(_SelfDenying())
    chosen = {o.unit.province: o for o in orders}
    with pytest.raises(VariantParadox) as exc:
        Movement(board, pos, chosen).run()
    assert exc.value.provinces == frozenset({"par"})


def test_the_turn_processor_holds_the_paradoxical_variant_move_and_reports_it_void() -> None:
    board, pos, orders = _standard_move(_SelfDenying())
    result = adjudicate(board, pos, orders)
    french = next(r for r in result.results if r.power == "France")
    assert french.order == orders[0] and french.notes == ("void",)
    assert result.next.units["par"] == Unit("France", "A", "par")
    assert result.next.units["ruh"] == Unit("Germany", "A", "ruh")  # the rest is adjudicated


def test_of_two_consistent_outcomes_the_variant_mover_moves() -> None:
    board, pos, orders = _standard_move(_SelfAffirming())
    result = adjudicate(board, pos, orders)
    assert result.next.units["bur"] == Unit("France", "A", "bur")


class _FailingOnParadox(_SelfDenying):
    """The canal's backup (spec 2.5): a paradox makes the move fail."""

    def on_paradox(self, mv: Movement, prov: str) -> str | None:
        return PARADOX_FAIL


class _AffirmingFailOnParadox(_FailingOnParadox):
    def open(self, mv: Movement, prov: str) -> bool:
        return mv.resolve(prov)


@pytest.mark.parametrize("route", [_FailingOnParadox(), _AffirmingFailOnParadox()], ids=["none", "two"])
def test_a_route_that_fails_on_paradox_fails_with_no_or_two_consistent_outcomes(route: VariantRoute) -> None:
    board, pos, orders = _standard_move(route)
    result = adjudicate(board, pos, orders)
    french = next(r for r in result.results if r.power == "France")
    assert french.order == orders[0] and french.notes[0] in ("bounce", "void", "no convoy")
    assert result.next.units["par"] == Unit("France", "A", "par")
    assert result.next.units["ruh"] == Unit("Germany", "A", "ruh")


def test_the_canal_fails_on_paradox() -> None:
    from judge.engine.rules.canal import Canal

    m = _board(colonial_rules="moulmein")
    assert Canal("egy", ("med", "red"), m.options).on_paradox(None, "med") == PARADOX_FAIL  # type: ignore[arg-type]


def test_the_tsr_paradox_case_reports_the_tsr_order_void() -> None:
    m = _board(colonial_rules="adjudicator")
    units = [Unit("Russia", "A", "mos"), Unit("Russia", "A", "prm"), Unit("China", "A", "kra"),
             Unit("China", "A", "akm"), Unit("Turkey", "A", "ore")]
    pos = Position.build(Phase.parse("S1870M"), units, owners={"mos": "Russia", "oms": "Russia"})
    texts = [("Russia", "A mos TSR kra"), ("Russia", "A prm S A ore-oms"), ("China", "A kra S A akm-oms"),
             ("China", "A akm-oms"), ("Turkey", "A ore-oms")]
    result = adjudicate(m, pos, [parse_order(m, pos, p, t) for p, t in texts])
    tsr = next(r for r in result.results if r.order.unit.province == "mos")  # type: ignore[union-attr]
    assert isinstance(tsr.order, Move) and tsr.order.via == "railway" and tsr.notes == ("void",)
    support = next(r for r in result.results if r.order.unit.province == "kra")  # type: ignore[union-attr]
    assert support.notes == ()  # the held army cuts nothing
    assert dict(result.next.units) == dict(pos.units)


# -- two TSR orders at entry (tsr_multiple, spec 2.3 rule 3) ----------------------------


@pytest.mark.parametrize("multiple, flagged", [("none", ["mos", "vla"]), ("first", ["vla"])])
def test_check_order_set_flags_a_second_tsr_order(multiple: str, flagged: list[str]) -> None:
    m = _board(colonial_rules="moulmein", tsr_multiple=multiple)
    pos = Position.build(Phase.parse("S1870M"), [Unit("Russia", "A", "mos"), Unit("Russia", "A", "vla")])
    one = parse_order(m, pos, "Russia", "A mos TSR kra")
    two = parse_order(m, pos, "Russia", "A vla TSR irk")
    assert check_order_set(m, pos, [one]) == []
    found = check_order_set(m, pos, [one, two])
    assert [o.unit.province for o, _ in found] == flagged  # type: ignore[union-attr]
    assert all("Only one army may use the Trans-Siberian Railroad each turn" in why for _, why in found)


def test_the_order_reply_warns_of_a_second_tsr_order_and_keeps_both() -> None:
    board = _board(colonial_rules="moulmein")
    pos = Position.build(Phase.parse("S1870M"), [Unit("Russia", "A", "mos"), Unit("Russia", "A", "vla")])
    first = merge(board, pos, "Russia", [], ["A mos TSR kra"])
    assert first.errors == 0 and [e.line for e in first.entries] == ["A mos TSR kra"]
    second = merge(board, pos, "Russia", first.entries, ["A vla TSR irk"])
    assert [e.line for e in second.entries] == ["A mos TSR kra", "A vla TSR irk"]  # stored: adjudication decides
    assert second.errors == 0, "a warning is not an error"
    (line,) = second.lines
    assert line.errors == () and len(line.warnings) == 1 and "Trans-Siberian Railroad" in line.warnings[0]
