"""Reading orders: every example of njudge's syntax help (data/syntax.txt), DPjudge's order
format page, the DATC 4.B/4.C choices, and the usual mistakes with their exact messages."""

from __future__ import annotations

import pytest

from judge.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    OrderError,
    Remove,
    Retreat,
    Support,
    Waive,
)
from judge.engine.parser import find_location, parse_order, parse_orders, split_orders
from judge.engine.phase import Phase
from judge.engine.position import Dislodged, Position, Unit
from judge.maps import load_board

BOARD = load_board("standard")
M = BOARD.map


def _u(power: str, text: str) -> Unit:
    t, loc = text.split()
    return Unit(power, t, loc)


MOVE_UNITS = [
    _u("Germany", "A mun"), _u("Germany", "A ber"), _u("Germany", "F kie"),
    _u("England", "F lon"), _u("England", "F nth"), _u("England", "A yor"), _u("England", "F wal"),
    _u("France", "A bre"), _u("France", "F mao"), _u("France", "F wes"), _u("France", "F lyo"),
    _u("France", "F gas"), _u("France", "A par"), _u("France", "A mar"), _u("France", "F iri"),
    _u("Russia", "F stp/sc"), _u("Russia", "A mos"), _u("Turkey", "F bla"), _u("Turkey", "F con"),
    _u("Italy", "F tun"), _u("Austria", "F ion"),
]
MOVE_POS = Position.build(Phase.parse("S1901M"), MOVE_UNITS)
RETREAT_POS = Position.build(
    Phase.parse("F1901R"),
    [_u("Germany", "A mun")],
    [
        Dislodged(_u("Austria", "A boh"), ("gal", "vie")),
        Dislodged(_u("Russia", "F lvn"), ("stp/sc", "pru")),
        Dislodged(_u("England", "F stp/sc"), ("bot",)),
    ],
)
_owners = {c: M.home_of[c] for c in M.home_of}
BUILD_POS = Position.build(
    Phase.parse("F1901B"),
    [_u("Germany", "A mun"), _u("Germany", "F kie"), _u("France", "A par")],
    owners=_owners,
)


def parse(text: str, power: str = "Germany", pos: Position = MOVE_POS):  # type: ignore[no-untyped-def]
    return parse_order(BOARD, pos, power, text)


def error(text: str, power: str = "Germany", pos: Position = MOVE_POS) -> str:
    with pytest.raises(OrderError) as info:
        parse_order(BOARD, pos, power, text)
    return info.value.message


MUN = _u("Germany", "A mun")
KIE = _u("Germany", "F kie")
NTH = _u("England", "F nth")
LON = _u("England", "F lon")


# -- njudge syntax.txt: movement ----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "A mun h", "A mun hold", "A mun holds", "A mun stand", "A mun stands",
    "army mun h", "mun h", "Army Munich holds.", "MUNICH HOLD",
])
def test_holds(text: str) -> None:
    assert parse(text) == Hold(MUN)


@pytest.mark.parametrize("text", [
    "A mun - boh", "A mun -> boh", "A mun m boh", "A mun move boh", "A mun moves boh",
    "A mun move to boh", "A mun moves to boh", "A mun to boh", "A mun => boh", "A mun-boh",
    "mun - bohemia", "army munich -> bohemia.", "A mun boh", "a MUN - Boh",
])
def test_moves(text: str) -> None:
    assert parse(text) == Move(MUN, "boh")


def test_convoy_route_is_a_convoyed_move() -> None:
    lon = _u("England", "A yor")
    assert parse("A yor-nth-nwy", "England") == Move(lon, "nwy", via_convoy=True, route=("nth",))
    assert parse("A Yor - North Sea - Norway", "England") == Move(lon, "nwy", via_convoy=True, route=("nth",))


def test_long_convoy_route_from_syntax_help() -> None:
    bre = _u("France", "A bre")
    got = parse("A Bre-Mid-Wes-Lyo-Mar", "France")
    assert got == Move(bre, "mar", via_convoy=True, route=("mao", "wes", "lyo"))


@pytest.mark.parametrize("text", ["A yor-nwy via convoy", "A yor - nwy by convoy", "yor nwy via convoy"])
def test_via_convoy(text: str) -> None:
    assert parse(text, "England") == Move(_u("England", "A yor"), "nwy", via_convoy=True)


def test_move_without_route_is_not_marked_convoyed() -> None:
    assert parse("A yor-nwy", "England") == Move(_u("England", "A yor"), "nwy")


@pytest.mark.parametrize("text", [
    "A mun S A ber", "A mun S ber", "A mun s ber h", "A mun supports A ber holds",
    "A mun support army berlin", "mun s ber", "A mun S german A ber", "A mun s the German army in Berlin",
])
def test_support_hold(text: str) -> None:
    assert parse(text) == Support(MUN, "ber", None, "A", "Germany")


@pytest.mark.parametrize("text", [
    "A mun S A ber-sil", "A mun S A ber - sil", "A mun s ber sil", "A mun supports ber -> silesia",
    "A mun supports the German army in Berlin to Silesia", "A mun S German A ber-sil",
])
def test_support_move(text: str) -> None:
    assert parse(text) == Support(MUN, "ber", "sil", "A", "Germany", "sil")


def test_support_of_foreign_unit_ignores_the_written_nationality() -> None:
    # DATC 4.C.5/4.C.6: the nationality written is ignored; the unit there counts
    got = parse("F nth S english F lon - eng", "England")
    assert got == Support(NTH, "lon", "eng", "F", "England", "eng")
    got = parse("F kie S french F lon - nth")
    assert got == Support(KIE, "lon", "nth", "F", "England", "nth")


def test_support_of_an_empty_province_keeps_what_was_written() -> None:
    assert parse("A mun S russian A sil - boh") == Support(MUN, "sil", "boh", "A", "Russia", "boh")
    assert parse("A mun S sil") == Support(MUN, "sil", None, None, None)


def test_support_with_coast_names_the_province() -> None:
    # DATC 4.B.4: supports go to provinces; the written coast is kept in target_dest
    got = parse("F mao S F gas - spa/nc", "France")
    assert got == Support(_u("France", "F mao"), "gas", "spa", "F", "France", "spa/nc")


@pytest.mark.parametrize("word", [
    "c", "convoy", "convoys", "transport", "transports", "t", "fast ferry", "ferry", "ff", "f",
])
def test_convoy_words(word: str) -> None:
    got = parse(f"F nth {word} A yor - nwy", "England")
    assert got == Convoy(NTH, "yor", "nwy", "England")


def test_convoys_from_syntax_help() -> None:
    yor = Convoy(NTH, "yor", "nwy", "England")
    assert parse("F Nth C A Yor-Nwy", "England") == yor
    for fleet in ("Mid", "Wes", "Lyo"):
        got = parse(f"F {fleet} C A Bre-Mar", "France")
        assert isinstance(got, Convoy) and (got.target, got.dest) == ("bre", "mar")
    assert parse("F nth c yor nwy", "England") == yor
    assert parse("F nth C A yor-nth-nwy", "England") == yor


def test_conditional_examples_from_syntax_help() -> None:
    assert parse("Kiel -> Berlin") == Move(KIE, "ber")
    assert parse("Munich support Kiel -> Berlin") == Support(MUN, "kie", "ber", "F", "Germany", "ber")
    assert parse("Kiel -> Ruhr") == Move(KIE, "ruh")  # legal or not is validation's business


@pytest.mark.parametrize("text, message", [
    ("A mun p france", "Proxy orders are not used in this game."),
    ("A mun proxy to France", "Proxy orders are not used in this game."),
    ("F kie transforms to A", "Transform orders are not used in this game."),
    ("F kie tr a", "Transform orders are not used in this game."),
    ("wing mun h", "Wings are not used in this game."),
])
def test_unsupported_njudge_orders(text: str, message: str) -> None:
    assert error(text) == message


# -- unit types and coasts (DATC 4.B, 4.C) -----------------------------------------------

def test_wrong_or_missing_unit_type_is_ignored() -> None:
    assert parse("F mun - boh") == Move(MUN, "boh")  # DATC 4.C.1/4.C.2
    assert parse("kie - hol") == Move(KIE, "hol")


@pytest.mark.parametrize("text", [
    "F mao - spa/nc", "F mao - spa(nc)", "F mao - spa (nc)", "F mao - spa nc", "F mao - spa north coast",
    "F mao - spa (north coast)", "F mao - spa/north coast", "F mao - spa n.c.", "F mao - spa/north",
    "F mao - spa/n", "F mao - Spain (North Coast)", "F mao - spain/nc", "F Mid-Atlantic Ocean - spa nc",
])
def test_coast_spellings(text: str) -> None:
    assert parse(text, "France") == Move(_u("France", "F mao"), "spa/nc")


def test_other_coasts() -> None:
    assert parse("F mao - spa/sc", "France") == Move(_u("France", "F mao"), "spa/sc")
    assert parse("F con - bul(ec)", "Turkey") == Move(_u("Turkey", "F con"), "bul/ec")
    assert parse("F con - bulgaria (south coast)", "Turkey") == Move(_u("Turkey", "F con"), "bul/sc")


def test_missing_coast_with_two_choices_is_an_error() -> None:  # DATC 4.B.1
    assert error("F mao - spa", "France") == (
        "Fleet Mid-Atlantic Ocean must specify a coast to move to Spain: north coast or south coast."
    )


def test_missing_coast_with_one_choice_is_filled_in() -> None:  # DATC 4.B.2
    assert parse("F gas - spa", "France") == Move(_u("France", "F gas"), "spa/nc")
    assert parse("F bla - bul", "Turkey") == Move(_u("Turkey", "F bla"), "bul/ec")


def test_unreachable_coast_is_an_error() -> None:  # DATC 4.B.3
    assert error("F gas - spa/sc", "France") == "Fleet Gascony cannot reach Spain (south coast)."


def test_wrong_coast_of_the_ordered_unit_is_ignored() -> None:  # DATC 4.B.5
    stp = _u("Russia", "F stp/sc")
    assert parse("F stp/nc - bot", "Russia") == Move(stp, "bot")
    assert parse("F stp - bot", "Russia") == Move(stp, "bot")


def test_coast_on_army_or_unknown_coast_is_ignored() -> None:  # DATC 4.B.6
    assert parse("A mar - spa/nc", "France") == Move(_u("France", "A mar"), "spa")
    assert parse("F gas - spa/wc", "France") == Move(_u("France", "F gas"), "spa/nc")
    assert parse("F mao - nao/nc", "France") == Move(_u("France", "F mao"), "nao")


# -- names ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, dest", [
    ("F lon - north sea", "nth"), ("F lon - English Channel", "eng"), ("F lon - eng ch", "eng"),
    ("F lon - ech", "eng"), ("F lon - channel", "eng"),
])
def test_multi_word_names_and_aliases(text: str, dest: str) -> None:
    assert parse(text, "England") == Move(LON, dest)


@pytest.mark.parametrize("text, dest", [
    ("F lyo - gulf of lyon", None), ("F wes - gulf of lyon", "lyo"), ("F mao - mid-atlantic ocean", None),
    ("F iri - mid-atlantic ocean", "mao"), ("F iri - Mid-Atlantic", "mao"), ("F iri - mid atlantic", "mao"),
    ("F iri-mid", "mao"), ("F iri -mid", "mao"), ("F iri - north atlantic", "nao"), ("F iri - nat", "nao"),
    ("F bre - st petersburg", None),
])
def test_greedy_names(text: str, dest: str | None) -> None:
    got = parse(text, "France")
    assert isinstance(got, Move)
    if dest is not None:
        assert got.dest == dest


def test_st_petersburg_spellings() -> None:
    for name in ("st petersburg", "St. Petersburg", "saint petersburg", "stp", "ST.PETERSBURG"):
        assert find_location(M, name) == "stp"
    assert find_location(M, "St Petersburg (north coast)") == "stp/nc"
    assert find_location(M, "stp/sc") == "stp/sc"


def test_unique_prefix_is_accepted() -> None:
    assert parse("A mun - bohem") == Move(MUN, "boh")
    assert find_location(M, "tyrolia") == "tyr"


def test_dpjudge_format_examples() -> None:
    assert parse("Army London Holds", "England") == Hold(LON)
    assert parse("paris H", "France") == Hold(_u("France", "A par"))
    assert parse("fleet nth sea C yor - nwy", "England") == Convoy(NTH, "yor", "nwy", "England")
    assert parse("Fleet Wales support fleet london", "England") == Support(
        _u("England", "F wal"), "lon", None, "F", "England"
    )
    assert parse("irish -mid", "France") == Move(_u("France", "F iri"), "mao")
    assert parse("F mao -> iri", "France") == Move(_u("France", "F mao"), "iri")
    assert parse("f wal s lon eng", "England") == Support(_u("England", "F wal"), "lon", "eng", "F", "England", "eng")
    assert parse("army yonkers move london", "England") == Move(_u("England", "A yor"), "lon")


def test_pasted_power_prefix() -> None:
    assert parse("Germany: A mun-boh") == Move(MUN, "boh")
    assert error("France: A par-bur") == "You cannot order the units of France."


# -- mistakes ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("A mun - xyz", "Unrecognized province 'xyz'."),
    ("A xyz - boh", "Unrecognized province 'xyz'."),
    ("F lon - nort", "'nort' is ambiguous: it could be North Africa, North Atlantic Ocean or North Sea."),
    ("A bur - par", "No unit in Burgundy."),
    ("F nwg - nth", "No unit in the Norwegian Sea."),
    ("A par - bur", "The unit in Paris is not yours."),
    ("F nth - hel", "The unit in the North Sea is not yours."),
    ("A mun suport ber", "Unrecognized word 'suport': expected HOLD, a move, SUPPORT or CONVOY."),
    ("A mun hodl", "Unrecognized word 'hodl': expected HOLD, a move, SUPPORT or CONVOY."),
    ("A mun - boh please", "Unrecognized word 'please' at the end of the order."),
    ("A mun s ber xyz", "Unrecognized word 'xyz': expected HOLD or a move after the supported unit."),
    ("A mun", "The order for Army Munich is missing: add HOLD, a move, SUPPORT or CONVOY."),
    ("A mun -", "The order ends where the destination was expected."),
    ("F mao - spa/xc", "Unrecognized coast 'xc'."),
    ("F mao - spa (nc", "A coast written '(' needs its ')'."),
    ("A mos tsr war", "This map has no railway."),
    ("build A ber", "Builds and waives are ordered only in the adjustment phase."),
    ("A mun disband", "Units are disbanded or retreat only after they are dislodged."),
    ("disband A mun", "Units are disbanded or retreat only after they are dislodged."),
    ("", "Empty order."),
])
def test_mistakes(text: str, message: str) -> None:
    power = {"F lon": "England", "F mao": "France", "A mos": "Russia"}.get(text[:5], "Germany")
    assert error(text, power) == message


def test_error_keeps_the_text() -> None:
    with pytest.raises(OrderError) as info:
        parse("A mun - xyz")
    assert info.value.text == "A mun - xyz"


def test_fleet_cannot_take_a_route() -> None:
    assert error("F lon-nth-nwy", "England") == "Only an army can be convoyed; a fleet moves one province at a time."


def test_find_location_errors() -> None:
    with pytest.raises(OrderError, match="Unrecognized province 'atlantis'."):
        find_location(M, "atlantis")
    with pytest.raises(OrderError, match="Spain has no coast 'wc'."):
        find_location(M, "spa/wc")


# -- the railway (Colonial) -----------------------------------------------------------------

COLONIAL = load_board("colonial")
RAIL_POS = Position.build(
    Phase.parse("S1870M"), [_u("Russia", "A oms"), _u("Russia", "A vla"), _u("Russia", "A mos")]
)


@pytest.mark.parametrize("text, src, dest", [
    ("A oms TSR vla", "oms", "vla"),
    ("A mos - TSR - vla", "mos", "vla"),
    ("A Vladivostok - Trans Siberian Railway - Moscow", "vla", "mos"),
    ("A mos-tsr-vla", "mos", "vla"),
    ("A vla - Trans-Siberian Railroad - mos", "vla", "mos"),
])
def test_railway_moves(text: str, src: str, dest: str) -> None:
    got = parse_order(COLONIAL, RAIL_POS, "Russia", text)
    assert got == Move(_u("Russia", f"A {src}"), dest, via="railway")


def test_railway_move_needs_a_destination() -> None:
    with pytest.raises(OrderError) as info:
        parse_order(COLONIAL, RAIL_POS, "Russia", "A oms tsr")
    assert info.value.message == "Write a railway move as 'A mos - TSR - vla'."


# -- retreats -------------------------------------------------------------------------------

BOH = _u("Austria", "A boh")


@pytest.mark.parametrize("text", [
    "A boh - gal", "A boh-gal", "A boh r gal", "A boh retreat gal", "A boh retreats to galicia",
    "boh gal", "retreat A boh - gal", "Army Bohemia -> Galicia.",
])
def test_retreats(text: str) -> None:
    assert parse(text, "Austria", RETREAT_POS) == Retreat(BOH, "gal")


@pytest.mark.parametrize("text", ["A boh d", "A boh disband", "A boh disbands", "disband A boh", "d boh", "boh disband"])
def test_disbands(text: str) -> None:
    assert parse(text, "Austria", RETREAT_POS) == Disband(BOH)


def test_retreat_coast_from_the_retreat_list() -> None:
    lvn = _u("Russia", "F lvn")
    assert parse("F lvn - stp", "Russia", RETREAT_POS) == Retreat(lvn, "stp/sc")
    assert parse("F livonia - stp/sc", "Russia", RETREAT_POS) == Retreat(lvn, "stp/sc")


def test_dpjudge_sentence_retreat() -> None:
    text = "The fleet in St. Petersburg (south coast) retreats to the Gulf of Bothnia"
    assert parse(text, "England", RETREAT_POS) == Retreat(_u("England", "F stp/sc"), "bot")


@pytest.mark.parametrize("text, power, message", [
    ("A mun - boh", "Germany", "No dislodged unit in Munich."),
    ("A boh - gal", "Germany", "The unit in Bohemia is not yours."),
    ("A boh h", "Austria", "A dislodged unit can only retreat or disband."),
    ("A boh s A mun", "Austria", "A dislodged unit can only retreat or disband."),
    ("A boh", "Austria", "The order for the dislodged Army Bohemia is missing: retreat to a province or DISBAND."),
    ("build A vie", "Austria", "Builds and waives are ordered only in the adjustment phase."),
])
def test_retreat_mistakes(text: str, power: str, message: str) -> None:
    assert error(text, power, RETREAT_POS) == message


# -- adjustments ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["build A ber", "b a ber", "BUILD A BER", "build army berlin", "A ber", "ber", "+ A ber",
                                  "A ber build"])
def test_build_army(text: str) -> None:
    assert parse(text, "Germany", BUILD_POS) == Build(_u("Germany", "A ber"))


@pytest.mark.parametrize("text", [
    "b f stp/nc", "build fleet st petersburg north coast", "build F stp(nc)", "B F St Petersburg (nc)", "build stp nc",
])
def test_build_fleet_on_a_coast(text: str) -> None:
    assert parse(text, "Russia", BUILD_POS) == Build(_u("Russia", "F stp/nc"))


def test_build_fleet_without_coast_is_left_to_validation() -> None:  # DATC 4.B.7
    assert parse("build f stp", "Russia", BUILD_POS) == Build(Unit("Russia", "F", "stp"))


@pytest.mark.parametrize("text", ["remove A mun", "r a mun", "disband a mun", "d mun", "A mun", "A mun remove",
                                  "remove munich", "- A mun"])
def test_remove(text: str) -> None:
    assert parse(text, "Germany", BUILD_POS) == Remove(MUN)


@pytest.mark.parametrize("text", ["waive", "w", "build waive", "WAIVE", "waive germany", "waive g"])
def test_waive(text: str) -> None:
    assert parse(text, "Germany", BUILD_POS) == Waive("Germany")


def test_waive_count_in_a_list() -> None:
    got = parse_orders(BOARD, BUILD_POS, "Germany", "waive 2\nbuild a ber")
    assert got == [Waive("Germany"), Waive("Germany"), Build(_u("Germany", "A ber"))]
    assert error("waive 2", "Germany", BUILD_POS) == "'waive 2' is 2 orders; send them in a list of orders."


@pytest.mark.parametrize("text, message", [
    ("remove A par", "The unit in Paris is not yours."),
    ("remove A ber", "No unit in Berlin."),
    ("A mun - boh", "Only builds, removals and waives are ordered in the adjustment phase."),
    ("build wing ber", "Wings are not used in this game."),
    ("waive france", "You can only waive builds of Germany."),
    ("transform F kie", "Transform orders are not used in this game."),
    ("build A xyz", "Unrecognized province 'xyz'."),
])
def test_adjustment_mistakes(text: str, message: str) -> None:
    assert error(text, "Germany", BUILD_POS) == message


# -- lists of orders -----------------------------------------------------------------------

def test_split_orders() -> None:
    assert split_orders("A Par-Bur, A Mar-Spa;\n\n  F bre h  \n") == ["A Par-Bur", "A Mar-Spa", "F bre h"]


def test_parse_orders_keeps_errors_in_place() -> None:
    got = parse_orders(BOARD, MOVE_POS, "France", "A Par-Bur, A Mar-Spa; \n\n xx\nF mao h")
    assert got[:2] == [Move(_u("France", "A par"), "bur"), Move(_u("France", "A mar"), "spa")]
    assert isinstance(got[2], OrderError)
    assert (got[2].message, got[2].text) == ("Unrecognized province 'xx'.", "xx")
    assert got[3] == Hold(_u("France", "F mao"))
    assert len(got) == 4


def test_power_names_in_the_forms_players_use() -> None:
    """Seed 001's 'F Egy s ENGLISH F REDS - MEDS' orders a support for Britain's fleet; a
    power's name, adjective and aliases read alike, in every map."""
    from judge.engine import initial_position

    colonial = load_board("colonial")
    pos = Position.build(Phase.parse("S1870M"), [Unit("Britain", "F", "egy"), Unit("Britain", "F", "red")])
    for word in ("ENGLISH", "British", "Britain", "uk", "england"):
        (order,) = parse_orders(colonial, pos, "Britain", f"F Egy s {word} F REDS - MEDS")
        assert not isinstance(order, OrderError) and order.target_power == "Britain", word
    standard = load_board("standard")
    assert standard.map.find_power("turk") is standard.map.find_power("Turkish") is standard.map.power("Turkey")
    assert standard.map.find_power("Britain") is standard.map.power("England")
    (order,) = parse_orders(standard, initial_position(standard.map), "Turkey", "Turk: A con - bul")
    assert not isinstance(order, OrderError)
