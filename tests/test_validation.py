"""Legality at entry (DATC 4.E.1), with the DATC cases whose answer is "the order is illegal"."""

from __future__ import annotations

import pytest

from judge.engine.convoys import ConvoyReach
from judge.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderError,
    Remove,
    Retreat,
    Support,
    Waive,
)
from judge.engine.phase import Phase
from judge.engine.position import Dislodged, Position, Unit
from judge.engine.validation import check_order
from judge.maps import load_board

BOARD = load_board("standard")
M = BOARD.map


def _u(power: str, text: str) -> Unit:
    t, loc = text.split()
    return Unit(power, t, loc)


def pos(*units: str, phase: str = "S1901M", dislodged: tuple[Dislodged, ...] = (),
        owners: dict[str, str] | None = None) -> Position:
    out = []
    for text in units:
        power, _, unit = text.partition(": ")
        out.append(_u(power, unit))
    return Position.build(Phase.parse(phase), out, dislodged, owners)


def refused(position: Position, order: Order) -> str:
    with pytest.raises(OrderError) as info:
        check_order(BOARD, position, order)
    return info.value.message


def accepted(position: Position, order: Order) -> bool:
    """True when ``check_order`` lets ``order`` stand (it raises for an illegal one)."""
    check_order(BOARD, position, order)
    return True


# -- moves ---------------------------------------------------------------------------------

def test_adjacent_moves_are_legal() -> None:
    p = pos("Germany: A mun", "Germany: F kie", "Russia: F stp/sc")
    assert accepted(p, Move(_u("Germany", "A mun"), "boh"))
    assert accepted(p, Move(_u("Germany", "F kie"), "hol"))
    assert accepted(p, Move(_u("Russia", "F stp/sc"), "bot"))


@pytest.mark.parametrize("order, message", [
    (Move(_u("Germany", "A mun"), "mun"), "Army Munich cannot move to its own province."),
    (Move(_u("Germany", "A mun"), "nth"), "Army Munich cannot move to North Sea."),
    (Move(_u("Germany", "F kie"), "mun"), "Fleet Kiel cannot move to Munich."),
    (Move(_u("Germany", "F kie"), "bal"), None),
    (Move(_u("Russia", "F stp/sc"), "bar"), "Fleet St Petersburg (south coast) cannot move to Barents Sea."),
    (Move(_u("Germany", "A mun"), "war"),
     "Army Munich cannot move to Warsaw: it is not adjacent and no fleets stand ready to convoy it."),
    (Move(_u("Germany", "F kie"), "nth", via_convoy=True), "Fleet Kiel is a fleet; only armies are convoyed."),
])
def test_moves(order: Move, message: str | None) -> None:
    p = pos("Germany: A mun", "Germany: F kie", "Russia: F stp/sc")
    if message is None:
        check_order(BOARD, p, order)
    else:
        assert refused(p, order) == message


def test_fleet_to_split_coast_needs_the_coast() -> None:  # DATC 6.B.1, 6.B.3
    p = pos("France: F mao", "France: F gas")
    assert refused(p, Move(_u("France", "F mao"), "spa")) == "Fleet Mid-Atlantic Ocean cannot move to Spain."
    assert refused(p, Move(_u("France", "F gas"), "spa/sc")) == "Fleet Gascony cannot move to Spain (south coast)."
    check_order(BOARD, p, Move(_u("France", "F gas"), "spa/nc"))


def test_convoyed_move_needs_fleets_on_the_board() -> None:  # DATC 6.D.32
    lon_yor = Move(_u("Germany", "A yor"), "hol")
    p = pos("England: F edi", "England: A lvp", "France: F lon", "Germany: A yor")
    assert refused(p, lon_yor) == (
        "Army Yorkshire cannot move to Holland: it is not adjacent and no fleets stand ready to convoy it."
    )
    check_order(BOARD, pos("Germany: A yor", "Russia: F nth"), lon_yor)


def test_long_convoy_route() -> None:
    p = pos("France: A bre", "France: F mao", "France: F wes", "Italy: F lyo")
    move = Move(_u("France", "A bre"), "mar", via_convoy=True, route=("mao", "wes", "lyo"))
    check_order(BOARD, p, move)
    p2 = pos("France: A bre", "France: F mao", "Italy: F lyo")
    assert refused(p2, move).startswith("Army Brest cannot move to Marseilles")


def test_written_route_must_be_water() -> None:
    p = pos("England: A lon", "England: F nth")
    move = Move(_u("England", "A lon"), "nwy", via_convoy=True, route=("yor",))
    assert refused(p, move) == "Army London cannot be convoyed through Yorkshire: it is not a sea."


def test_a_railway_move_on_a_map_without_railway() -> None:
    p = pos("Germany: A mun")
    assert refused(p, Move(_u("Germany", "A mun"), "ber", via="railway")) == "There is no railway on this map."


def test_the_unit_must_be_there_and_be_the_powers() -> None:
    p = pos("Germany: A mun", "France: F nth")
    assert refused(p, Hold(_u("Germany", "A bur"))) == "No unit in Burgundy."
    assert refused(p, Hold(_u("Germany", "F nth"))) == "The unit in the North Sea is not yours."
    assert refused(p, Hold(_u("Germany", "F mun"))) == "The unit in Munich is Army Munich, not Fleet Munich."
    check_order(BOARD, p, Hold(_u("Germany", "A mun")))


def test_orders_of_another_phase() -> None:
    p = pos("Germany: A mun")
    assert refused(p, Waive("Germany")) == "That is an adjustment order, but this is the movement phase."
    message = refused(p, Disband(_u("Germany", "A mun")))
    assert message == "That is a retreat order, but this is the movement phase."


# -- supports ------------------------------------------------------------------------------

def test_supports() -> None:
    p = pos("Germany: A mun", "Germany: A ber", "Germany: F kie", "Austria: A tyr")
    mun = _u("Germany", "A mun")
    check_order(BOARD, p, Support(mun, "ber"))
    check_order(BOARD, p, Support(mun, "ber", "sil"))
    check_order(BOARD, p, Support(mun, "tyr", "boh"))
    check_order(BOARD, p, Support(_u("Germany", "F kie"), "ber"))
    assert refused(p, Support(mun, "ber", "pru")) == "Army Munich cannot support into Prussia: it cannot move there."
    assert refused(p, Support(mun, "kie", "hol")) == "Army Munich cannot support into Holland: it cannot move there."
    assert refused(p, Support(mun, "sil")) == "Army Munich cannot support: there is no unit in Silesia."
    assert refused(p, Support(mun, "mun")) == "Army Munich cannot support a unit into its own province."
    assert refused(p, Support(mun, "tyr", "mun")) == "Army Munich cannot support a unit into its own province."
    assert refused(p, Support(mun, "ber", "boh")) == (
        "Army Munich cannot support Army Berlin to Bohemia: it cannot get there."
    )


def test_support_of_a_fleet_ignores_coasts() -> None:  # DATC 6.B.4: support to an unreachable coast
    p = pos("France: F gas", "France: F mar", "Italy: F wes")
    assert accepted(p, Support(_u("France", "F mar"), "gas", "spa"))


def test_support_to_own_area_is_illegal() -> None:  # DATC 6.D.34
    p = pos("Italy: A pru", "Russia: A lvn")
    assert refused(p, Support(_u("Italy", "A pru"), "lvn", "pru")) == (
        "Army Prussia cannot support a unit into its own province."
    )


def test_tricky_impossible_support() -> None:  # DATC 6.D.31
    p = pos("Austria: A rum", "Turkey: F bla")
    check_order(BOARD, p, Move(_u("Austria", "A rum"), "arm"))
    assert refused(p, Support(_u("Turkey", "F bla"), "rum", "arm")) == (
        "Fleet Black Sea cannot support Army Rumania to Armenia: it cannot get there."
    )


def test_support_of_a_convoyed_army() -> None:
    p = pos("England: A lon", "England: F nth", "Germany: F hel")
    assert accepted(p, Support(_u("Germany", "F hel"), "lon", "hol"))


# -- convoys -------------------------------------------------------------------------------

def test_convoys() -> None:
    p = pos("England: A lon", "England: F nth", "England: F eng", "England: F edi", "France: A par")
    nth = _u("England", "F nth")
    check_order(BOARD, p, Convoy(nth, "lon", "nwy"))
    assert refused(p, Convoy(_u("England", "F edi"), "lon", "nwy")) == "Fleet Edinburgh is not at sea, so it cannot convoy."
    assert refused(p, Convoy(nth, "yor", "nwy")) == "Fleet North Sea cannot convoy: there is no unit in Yorkshire."
    assert refused(p, Convoy(nth, "edi", "nwy")) == "Fleet North Sea cannot convoy Fleet Edinburgh: only armies are convoyed."
    assert refused(p, Convoy(nth, "lon", "mun")) == "Fleet North Sea cannot convoy an army to Munich."
    assert refused(p, Convoy(nth, "lon", "lon")) == "Fleet North Sea cannot convoy Army London to its own province."
    assert refused(p, Convoy(nth, "par", "lon")) == "Fleet North Sea cannot convoy Army Paris: it is not on a coast."
    assert refused(p, Convoy(nth, "lon", "bre")) == (
        "Fleet North Sea cannot convoy Army London to Brest: it is not on a convoy route there."
    )
    check_order(BOARD, p, Convoy(_u("England", "F eng"), "lon", "bre"))


def test_convoy_off_any_route() -> None:  # DATC 6.G.7
    p = pos("England: F ska", "England: F nwy", "Russia: A swe", "Russia: F bot")
    check_order(BOARD, p, Convoy(_u("England", "F ska"), "swe", "nwy"))
    assert "it is not on a convoy route there" in refused(p, Convoy(_u("Russia", "F bot"), "swe", "nwy"))


def test_unneeded_fleet_is_not_on_a_route() -> None:  # DATC 6.G.19
    p = pos("France: A mar", "France: F wes", "Italy: F lyo", "Italy: A spa")
    check_order(BOARD, p, Convoy(_u("Italy", "F lyo"), "mar", "spa"))
    assert "it is not on a convoy route there" in refused(p, Convoy(_u("France", "F wes"), "mar", "spa"))
    assert ConvoyReach(M, p.units).route_fleets("mar", "spa") == {"lyo"}


def test_convoy_chains_skip_missing_fleets() -> None:
    p = pos("France: A bre", "France: F mao", "France: F wes", "Italy: F lyo", "Italy: F tys")
    chains = ConvoyReach(M, p.units)
    assert chains.route_fleets("bre", "mar") == {"mao", "wes", "lyo"}
    assert chains.reaches("bre", "mar") and not chains.reaches("bre", "mar", without="wes")
    assert chains.reached("bre") == {"mao", "wes", "lyo", "tys"}


def test_a_longer_chain_without_shortcut_is_a_route_beside_a_shorter_one() -> None:
    """Norway to Brest through the Norwegian Sea, the North Atlantic and the Mid-Atlantic:
    each of the three is needed on that route, though the North Sea and the Channel make a
    shorter one (DATC 4.E.1: a convoy is illegal only where the fleet is needed on no route)."""
    p = pos("England: A nwy", "England: F nwg", "England: F nao", "England: F mao", "England: F nth",
            "England: F eng")
    assert ConvoyReach(M, p.units).route_fleets("nwy", "bre") == {"nwg", "nao", "mao", "nth", "eng"}
    check_order(BOARD, p, Convoy(_u("England", "F nao"), "nwy", "bre"))


# -- retreats ------------------------------------------------------------------------------

def test_retreats() -> None:
    boh = _u("Austria", "A boh")
    p = pos("Germany: A mun", phase="F1901R", dislodged=(Dislodged(boh, ("gal", "vie")),
                                                         Dislodged(_u("Italy", "F ion"), ())))
    check_order(BOARD, p, Retreat(boh, "gal"))
    check_order(BOARD, p, Disband(boh))
    assert refused(p, Retreat(boh, "mun")) == "Army Bohemia cannot retreat to Munich; it can retreat to Galicia or Vienna."
    assert refused(p, Retreat(_u("Italy", "F ion"), "tun")) == "Fleet Ionian Sea cannot retreat anywhere; it can only disband."
    assert refused(p, Retreat(_u("Germany", "A mun"), "boh")) == "No dislodged unit in Munich."
    assert refused(p, Support(_u("Germany", "A mun"), "boh")) == (
        "That is a movement order, but this is the retreat phase."
    )


# -- adjustments ---------------------------------------------------------------------------

HOME = {c: M.home_of[c] for c in M.home_of}


def adj(*units: str, owners: dict[str, str] | None = None) -> Position:
    return pos(*units, phase="F1901B", owners=HOME if owners is None else owners)


def test_builds() -> None:
    p = adj("Germany: A mun", "Russia: F stp/sc", "Russia: A war", "Russia: A mos")
    check_order(BOARD, p, Build(_u("Germany", "A ber")))
    check_order(BOARD, p, Build(_u("Germany", "F kie")))
    check_order(BOARD, p, Build(_u("Russia", "F sev")))
    assert refused(p, Build(_u("Germany", "A mun"))) == "There is already a unit in Munich."
    assert refused(p, Build(Unit("Russia", "F", "stp"))) == "There is already a unit in St Petersburg."
    assert refused(p, Build(_u("Germany", "A par"))) == "Paris is not a home supply centre of Germany."
    assert refused(p, Build(_u("Germany", "A ruh"))) == "Ruhr is not a supply centre."
    assert refused(p, Build(_u("Russia", "F mos"))) == "There is already a unit in Moscow."


def test_fleet_cannot_be_built_inland() -> None:  # DATC 6.I.2
    p = adj()
    assert refused(p, Build(_u("Russia", "F mos"))) == "A fleet cannot be built in Moscow."


def test_build_needs_the_coast() -> None:  # DATC 6.B.14
    p = adj()
    assert refused(p, Build(Unit("Russia", "F", "stp"))) == "A fleet built in St Petersburg needs a coast: north coast or south coast."
    check_order(BOARD, p, Build(_u("Russia", "F stp/nc")))


def test_build_in_a_home_centre_not_owned() -> None:  # DATC 6.I.5
    owners = dict(HOME, ber="Russia", war="Russia")
    p = adj("Germany: A mun", owners=owners)
    assert refused(p, Build(_u("Germany", "A ber"))) == "Germany does not own Berlin."


def test_build_needs_a_build_to_make() -> None:
    p = adj("Germany: A mun", "Germany: A ber", "Germany: F kie")
    assert refused(p, Build(_u("Germany", "A ber"))) == "Germany has no builds to make."
    assert refused(p, Waive("Germany")) == "Germany has no builds to waive."
    check_order(BOARD, adj(), Waive("Germany"))


def test_removes() -> None:
    owners = {"ber": "Germany"}
    p = adj("Germany: A mun", "Germany: A ber", "France: A par", owners=owners)
    check_order(BOARD, p, Remove(_u("Germany", "A mun")))
    assert refused(p, Remove(_u("Germany", "A par"))) == "The unit in Paris is not yours."
    assert refused(p, Remove(_u("Germany", "A kie"))) == "No unit in Kiel."
    assert refused(adj("Germany: A mun"), Remove(_u("Germany", "A mun"))) == "Germany has no units to remove."


def test_settled_verdicts_rest_on_the_map_and_the_named_units_alone() -> None:
    """``Legality.settled``: which legal orders stay legal wherever the units they name stand
    as they do now (``judge adjudicate`` keeps those verdicts for lines sent again)."""
    from judge.engine.validation import Legality

    p = pos("England: A lon", "England: F nth", "England: F eng", "France: A par", "France: A bur",
            "Germany: F kie", "Germany: A mun")
    legal = Legality(BOARD, p)
    lon, nth = p.units["lon"], p.units["nth"]
    par, bur, mun = p.units["par"], p.units["bur"], p.units["mun"]
    settled = [Hold(lon), Move(par, "pic"), Move(nth, "nwy"), Support(bur, "par", None, "A", "France"),
               Support(bur, "par", "pic", "A", "France"), Support(mun, "kie", "ber", "F", "Germany")]
    unsettled = [Move(lon, "bel"), Convoy(nth, "lon", "bel", "England"),
                 Support(bur, "lon", "bel", "A", "England")]  # these need the fleets at sea
    for order in settled + unsettled:
        legal.check(order)  # all legal here
    assert [o for o in settled if not legal.settled(o)] == []
    assert [o for o in unsettled if legal.settled(o)] == []
    assert not Legality(BOARD, pos("England: A lon", phase="F1901R")).settled(Hold(lon))
    colonial = load_board("colonial")
    assert colonial.rules.support_checks  # the Suez Canal's permission reads the position
    cp = Position.build(Phase.parse("S1870M"), [Unit("Britain", "A", "del"), Unit("Britain", "A", "bom")])
    support = Support(cp.units["del"], "bom", None, "A", "Britain")
    assert not Legality(colonial, cp).settled(support)
