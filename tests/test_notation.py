"""Orders as njudge's result mails print them (docs/frog-*.txt, and the adjustment lines of
njudge results: "Builds an army in ...", "Removes the fleet in the ...", "Build waived.")."""

from __future__ import annotations

import pytest

from judge.engine.notation import describe, describe_dislodged, describe_unit
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, Waive
from judge.engine.position import Dislodged, Unit
from judge.maps import load_map

M = load_map("standard")


def _u(power: str, text: str) -> Unit:
    t, loc = text.split()
    return Unit(power, t, loc)


@pytest.mark.parametrize("order, text", [
    (Move(_u("Austria", "A arm"), "smy"), "Army Armenia -> Smyrna."),
    (Move(_u("Russia", "F stp/sc"), "bot"), "Fleet St Petersburg (south coast) -> Gulf of Bothnia."),
    (Move(_u("Russia", "F bot"), "stp/sc"), "Fleet Gulf of Bothnia -> St Petersburg (south coast)."),
    (Move(_u("France", "F por"), "spa/sc"), "Fleet Portugal -> Spain (south coast)."),
    (Move(_u("Turkey", "A con"), "gre", via_convoy=True, route=("aeg",)), "Army Constantinople -> Aegean Sea -> Greece."),
    (Move(_u("England", "A lon"), "nwy", via_convoy=True), "Army London -> Norway."),
    (Hold(_u("Italy", "A ven")), "Army Venice HOLD."),
    (Support(_u("Austria", "F ion"), "tun", None, "F", "France"), "Fleet Ionian Sea SUPPORT French Fleet Tunis."),
    (Support(_u("Austria", "A ukr"), "gal", "war", "A", "Austria"), "Army Ukraine SUPPORT Army Galicia -> Warsaw."),
    (Support(_u("England", "A nwy"), "lvn", "stp", "A", "Russia", "stp"),
     "Army Norway SUPPORT Russian Army Livonia -> St Petersburg."),
    (Support(_u("Russia", "F sev"), "rum", None, "A", "Russia"), "Fleet Sevastopol SUPPORT Army Rumania."),
    (Support(_u("Germany", "A mun"), "sil", None, None, None), "Army Munich SUPPORT Silesia."),
    (Convoy(_u("France", "F lvp"), "hol", "lon", "Germany"), "Fleet Liverpool CONVOY German Army Holland -> London."),
    (Convoy(_u("Germany", "F stp/nc"), "tyr", "swi", "Austria"),
     "Fleet St Petersburg (north coast) CONVOY Austrian Army Tyrolia -> Switzerland."),
    (Convoy(_u("England", "F nth"), "lon", "nwy", "England"), "Fleet North Sea CONVOY Army London -> Norway."),
    (Retreat(_u("Austria", "A boh"), "gal"), "Army Bohemia -> Galicia."),
    (Disband(_u("Austria", "A boh")), "Army Bohemia DISBAND."),
    (Build(_u("Germany", "A ber")), "Builds an army in Berlin."),
    (Build(_u("Russia", "F stp/nc")), "Builds a fleet in St Petersburg (north coast)."),
    (Remove(_u("Austria", "F tri")), "Removes the fleet in Trieste."),
    (Remove(_u("England", "F nwg")), "Removes the fleet in the Norwegian Sea."),
    (Remove(_u("France", "A bur")), "Removes the army in Burgundy."),
    (Waive("Germany"), "Build waived."),
])
def test_describe(order: Order, text: str) -> None:
    assert describe(M, order) == text


def test_railway_move() -> None:
    colonial = load_map("colonial")
    move = Move(_u("Russia", "A oms"), "vla", via="railway")
    assert describe(colonial, move) == "Army Omsk -> Trans-Siberian Railroad -> Vladivostok."
    # a map without railway data still prints the classic name
    assert describe(M, Move(_u("Russia", "A mos"), "war", via="railway")) == (
        "Army Moscow -> Trans-Siberian Railroad -> Warsaw."
    )


def test_describe_unit() -> None:
    assert describe_unit(M, _u("Germany", "A ber")) == "Army Berlin"
    assert describe_unit(M, _u("France", "F ion"), article=True) == "the French Fleet in the Ionian Sea"
    assert describe_unit(M, _u("Russia", "F stp/nc"), article=True) == (
        "the Russian Fleet in St Petersburg (north coast)"
    )


def test_dislodged_lines() -> None:
    ion = Dislodged(_u("Austria", "F ion"), ("apu", "gre", "eas"))
    assert describe_dislodged(M, ion) == (
        "The Austrian Fleet in the Ionian Sea can retreat to Apulia or Greece or Eastern Mediterranean."
    )
    eng = Dislodged(_u("England", "F eng"), ("iri", "wal"))
    assert describe_dislodged(M, eng) == "The English Fleet in the English Channel can retreat to Irish Sea or Wales."
    aeg = Dislodged(_u("Turkey", "F aeg"), ())
    assert describe_dislodged(M, aeg) == "The Turkish Fleet in the Aegean Sea with no valid retreats was destroyed."


def test_describe_rejects_non_orders() -> None:
    with pytest.raises(TypeError):
        describe(M, "A mun - ber")  # type: ignore[arg-type]
