"""Result mails rendered from real engine adjudications, compared line for line with the
classic njudge layout, and read back the way jDip reads them (mapper-compat.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from judge.engine import Position, adjudicate, initial_position
from judge.engine.parser import parse_orders
from judge.maps import load_board, load_map
from judge.render import GameContext, game_over_text, results_mail

PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture(scope="module")
def m():
    return load_map("standard")


def ctx_for(m, game="mygame"):
    return GameContext(judge_code="PYJD", judge_address="judge@example.org", game=game, m=m, tz=PARIS)


def play(m, pos, orders):
    board = load_board(m.name)
    given = []
    for power, text in orders.items():
        for order in parse_orders(board, pos, power, text):
            assert not isinstance(order, Exception), order
            given.append(order)
    return adjudicate(board, pos, given)


@pytest.fixture(scope="module")
def game(m):
    """Spring 1901 to Winter 1901 of a small game: a bounce, a dislodgement with two
    retreats, a retreat, builds and waives."""
    s01 = play(m, initial_position(m), {
        "Austria": "A vie-gal\nA bud-ser\nF tri-alb",
        "Russia": "A war-gal\nF sev-rum\nA mos-ukr",
        "Turkey": "F ank-bla\nA con-bul",
        "Germany": "A mun-bur", "France": "A par-bur", "Italy": "A ven-tyr",
    })
    f01 = play(m, s01.next, {
        "Austria": "A ser-rum\nA vie-gal\nF alb-gre",
        "Turkey": "A bul s austrian a ser-rum\nF bla-con",
        "Russia": "A war-gal\nF rum-bul/ec\nA ukr s f rum",
        "Italy": "A tyr-mun", "Germany": "A mun-ruh\nF kie-den",
    })
    f01r = play(m, f01.next, {"Russia": "F rum-sev"})
    w01 = play(m, f01r.next, {"Austria": "build f tri\nwaive", "Italy": "build a ven"})
    return {"S1901M": s01, "F1901M": f01, "F1901R": f01r, "F1901B": w01}


def deadline(day):
    return datetime(2026, 3, day, 22, 30, tzinfo=UTC)


def test_movement_results_line_for_line(m, game):
    mail = results_mail(ctx_for(m), game["F1901M"], 2, deadline(4))
    assert mail.subject == "PYJD:mygame - F1901M Results"
    assert mail.body.splitlines() == """\
:: Judge: PYJD  Game: Mygame  Variant: Standard
:: Deadline: F1901R Wed Mar 04 2026 23:30:00 +0100\x20\x20

Movement results for Fall of 1901.  (mygame.002)

Austria: Army Serbia -> Rumania.
Austria: Army Vienna -> Galicia.  (*bounce*)
Austria: Fleet Albania -> Greece.

England: Army Liverpool, No Order Processed.
England: Fleet Edinburgh, No Order Processed.
England: Fleet London, No Order Processed.

France: Army Marseilles, No Order Processed.
France: Army Paris, No Order Processed.
France: Fleet Brest, No Order Processed.

Germany: Army Berlin, No Order Processed.
Germany: Army Munich -> Ruhr.
Germany: Fleet Kiel -> Denmark.

Italy: Army Rome, No Order Processed.
Italy: Army Tyrolia -> Munich.
Italy: Fleet Naples, No Order Processed.

Russia: Army Ukraine SUPPORT Fleet Rumania.  (*void*)
Russia: Army Warsaw -> Galicia.  (*bounce*)
Russia: Fleet Rumania -> Bulgaria (east coast).  (*bounce, dislodged*)
Russia: Fleet St Petersburg (south coast), No Order Processed.

Turkey: Army Bulgaria SUPPORT Austrian Army Serbia -> Rumania.
Turkey: Army Smyrna, No Order Processed.
Turkey: Fleet Black Sea -> Constantinople.


The following units were dislodged:

The Russian Fleet in Rumania can retreat to Black Sea or Sevastopol.

The next phase of 'mygame' will be Retreats for Fall of 1901.
The deadline for orders will be Wed Mar 04 2026 23:30:00 +0100 (Europe/Paris).
""".splitlines()


def test_spring_results_have_no_ownership_block(m, game):
    body = results_mail(ctx_for(m), game["S1901M"], 1, deadline(2)).body
    assert "Ownership of supply centers:" not in body
    assert body.endswith(
        "Turkey: Fleet Ankara -> Black Sea.\n\n\n"
        "The next phase of 'mygame' will be Movement for Fall of 1901.\n"
        "The deadline for orders will be Mon Mar 02 2026 23:30:00 +0100 (Europe/Paris).\n"
    )


def test_retreat_results_line_for_line(m, game):
    mail = results_mail(ctx_for(m), game["F1901R"], 3, deadline(5))
    assert mail.subject == "PYJD:mygame - F1901R Results"
    assert mail.body.splitlines() == """\
:: Judge: PYJD  Game: Mygame  Variant: Standard
:: Deadline: F1901B Thu Mar 05 2026 23:30:00 +0100\x20\x20

Retreat orders for Fall of 1901.  (mygame.003)

Russia: Fleet Rumania -> Sevastopol.


Ownership of supply centers:

Austria:   Budapest, Greece, Rumania, Trieste, Vienna.
England:   Edinburgh, Liverpool, London.
France:    Brest, Marseilles, Paris.
Germany:   Berlin, Denmark, Kiel.
Italy:     Munich, Naples, Rome, Venice.
Russia:    Moscow, Sevastopol, St Petersburg, Warsaw.
Turkey:    Ankara, Bulgaria, Constantinople, Smyrna.
Unowned:   Belgium, Holland, Norway, Portugal, Serbia, Spain, Sweden, Tunis.

Austria:   5 Supply centers,  3 Units:  Builds   2 units.
England:   3 Supply centers,  3 Units:  Builds   0 units.
France:    3 Supply centers,  3 Units:  Builds   0 units.
Germany:   3 Supply centers,  3 Units:  Builds   0 units.
Italy:     4 Supply centers,  3 Units:  Builds   1 unit.
Russia:    4 Supply centers,  4 Units:  Builds   0 units.
Turkey:    4 Supply centers,  3 Units:  Builds   1 unit.

The next phase of 'mygame' will be Adjustments for Winter of 1901.
The deadline for orders will be Thu Mar 05 2026 23:30:00 +0100 (Europe/Paris).
""".splitlines()


def test_adjustment_results_line_for_line(m, game):
    mail = results_mail(ctx_for(m), game["F1901B"], 4, deadline(9))
    assert mail.subject == "PYJD:mygame - F1901B Results"
    assert mail.body.splitlines() == """\
:: Judge: PYJD  Game: Mygame  Variant: Standard
:: Deadline: S1902M Mon Mar 09 2026 23:30:00 +0100\x20\x20

Adjustment orders for Winter of 1901.  (mygame.004)

Austria:   Builds a fleet in Trieste.
Austria:   Build waived.

Italy:     Builds an army in Venice.

Turkey:    Build waived.


The next phase of 'mygame' will be Movement for Spring of 1902.
The deadline for orders will be Mon Mar 09 2026 23:30:00 +0100 (Europe/Paris).
""".splitlines()


# -- crafted positions: removals, destroyed units, unordered retreats, victory -------------


def position(m, data):
    return Position.from_json(m, data)


def test_unit_without_retreat_is_destroyed_and_unordered_retreat_disbands(m):
    # The French fleet in the Ionian Sea is dislodged with nowhere to go (the Adriatic and
    # Naples are held); the Austrian army in Bohemia is dislodged with retreats, no order.
    pos = position(m, {
        "phase": "F1902M",
        "units": {
            "Italy": ["F tys", "F apu", "F gre", "F nap"], "Turkey": ["F eas", "F aeg", "F alb"],
            "France": ["F ion", "F tun"], "Germany": ["A mun", "A sil"], "Austria": ["A boh", "F adr"],
        },
        "centres": {"France": ["tun"], "Italy": ["gre"], "Germany": ["mun"], "Austria": ["vie"]},
    })
    adj = play(m, pos, {
        "Italy": "F tys s f apu-ion\nF apu-ion\nF gre s f apu-ion",
        "Germany": "A mun-boh\nA sil s a mun-boh",
        "Turkey": "F eas h\nF aeg h\nF alb h",
    })
    body = results_mail(ctx_for(m), adj, 5, deadline(10)).body
    assert "France: Fleet Ionian Sea, No Order Processed.  (*dislodged*)" in body.splitlines()
    assert "Austria: Army Bohemia, No Order Processed.  (*dislodged*)" in body.splitlines()
    assert (
        "\n\n\nThe following units were dislodged:\n\n"
        "The Austrian Army in Bohemia can retreat to Galicia or Tyrolia or Vienna.\n"
        "The French Fleet in the Ionian Sea with no valid retreats was destroyed.\n\n"
        "The next phase of 'mygame' will be Retreats for Fall of 1902.\n"
    ) in body
    retreat = play(m, adj.next, {})
    lines = results_mail(ctx_for(m), retreat, 6, deadline(11)).body.splitlines()
    assert lines[3:6] == ["Retreat orders for Fall of 1902.  (mygame.006)", "", "Austria: Army Bohemia DISBAND."]
    assert not any("No Order Processed" in line for line in lines)


def test_long_dislodged_entry_wraps_without_a_line_starting_with_the(m):
    pos = position(m, {
        "phase": "S1903M",
        "units": {"Austria": ["F ion"], "France": ["F tun", "F tys"],
                  "Italy": ["F adr", "F nap", "A alb"], "Turkey": ["F aeg"]},
        "centres": {},
    })
    adj = play(m, pos, {"France": "F tun-ion\nF tys s f tun-ion"})
    body = results_mail(ctx_for(m), adj, 7, deadline(12)).body
    assert (
        "The Austrian Fleet in the Ionian Sea can retreat to Apulia or Eastern\n"
        "Mediterranean or Greece.\n"
    ) in body


def test_two_retreats_to_one_place_bounce_and_are_destroyed(m):
    pos = position(m, {
        "phase": "F1902R",
        "units": {"Germany": ["A war", "A sil"], "Russia": ["A pru"]},
        "dislodged": {"Russia": [{"unit": "A war", "retreats": ["lvn", "mos"]}],
                      "Germany": [{"unit": "A pru", "retreats": ["lvn", "ber"]}]},
        "centres": {"Germany": ["ber", "war"], "Russia": ["mos"]},
    })
    adj = play(m, pos, {"Russia": "A war-lvn", "Germany": "A pru-lvn"})
    lines = results_mail(ctx_for(m), adj, 4, deadline(6)).body.splitlines()
    assert lines[3:9] == [
        "Retreat orders for Fall of 1902.  (mygame.004)",
        "",
        "Germany: Army Prussia -> Livonia.  (*bounce, destroyed*)",
        "",
        "Russia: Army Warsaw -> Livonia.  (*bounce, destroyed*)",
        "",
    ]


def test_removals_in_adjustments(m):
    # Russia orders one removal; civil disorder removes the other (farthest unit first).
    pos = position(m, {
        "phase": "F1902B",
        "units": {"Russia": ["A mos", "A war", "F sev", "A ukr"], "Turkey": ["A ank"]},
        "centres": {"Russia": ["mos", "sev"], "Turkey": ["ank", "con", "smy"]},
    })
    adj = play(m, pos, {"Russia": "remove a ukr", "Turkey": "build f con\nbuild a smy"})
    lines = results_mail(ctx_for(m), adj, 8, deadline(12)).body.splitlines()
    assert lines[3:12] == [
        "Adjustment orders for Winter of 1902.  (mygame.008)",
        "",
        "Russia:    Removes the army in Ukraine.",
        "Russia:    Removes the army in Warsaw.",
        "",
        "Turkey:    Builds a fleet in Constantinople.",
        "Turkey:    Builds an army in Smyrna.",
        "",
        "",
    ]


def test_count_table_removes_and_victory(m):
    # France takes its 18th centre in the Fall: the count line says VICTORY and the mail
    # ends with the game over text instead of a next phase.
    centres = ["bre", "par", "mar", "spa", "por", "bel", "hol", "ser", "kie", "ber", "den", "lon",
               "lvp", "edi", "nwy", "swe", "tun"]
    pos = position(m, {
        "phase": "F1910M",
        "units": {"France": ["A bur", "F nth", "A pic"], "Italy": ["A rom", "A ven", "A pie", "A tus"]},
        "centres": {"France": centres, "Italy": ["rom", "nap", "ven"]},
    })
    adj = play(m, pos, {"France": "A bur-mun"})
    assert adj.winners == ("France",)
    mail = results_mail(ctx_for(m), adj, 20, None, game_over=game_over_text(m, adj.winners))
    lines = mail.body.splitlines()
    assert not any(line.startswith(":: Deadline:") for line in lines)
    assert "France:   18 Supply centers,  3 Units:  Builds  15 units.  (* VICTORY!! *)" in lines
    assert "Italy:     3 Supply centers,  4 Units:  Removes  1 unit." in lines
    assert lines[-2:] == ["The game is over.", "Congratulations to France for a solo victory.  Thank you for playing."]
    assert "The next phase" not in mail.body


def test_blocked_railway_move_reads_as_a_bounce():
    from judge.engine import Adjudication, Hold, Move, OrderResult, Unit
    from judge.engine.results import NO_CONVOY

    col = load_map("colonial")
    start = initial_position(col)
    move = Move(Unit("Russia", "A", "oms"), "vla", via="railway")
    results = tuple(
        OrderResult(move, (NO_CONVOY,)) if u.location == "oms" else OrderResult(Hold(u), (), default=True)
        for u in start.units.values()
    )
    adj = Adjudication(start, results, start)
    lines = results_mail(ctx_for(col), adj, 1, deadline(3)).body.splitlines()
    assert "Russia: Army Omsk -> Trans-Siberian Railroad -> Vladivostok.  (*bounce*)" in lines
    assert lines[0] == ":: Judge: PYJD  Game: Mygame  Variant: Colonial Diplomacy"


def test_engine_notes_outside_the_allowed_list_are_never_printed(m, game):
    from judge.render.formats import notes_suffix

    assert notes_suffix(["void", "disbanded"]) == "  (*void, destroyed*)"
    assert notes_suffix(["illegal"]) == "  (*void*)"
    assert notes_suffix([]) == ""
    body = results_mail(ctx_for(m), game["F1901M"], 2, deadline(4)).body
    for note in re.findall(r"\(\*(.+?)\*\)", body):
        assert set(note.split(", ")) <= {"bounce", "cut", "dislodged", "destroyed", "no convoy", "void"}


def test_a_railway_army_that_stops_short_is_reported_where_it_stopped():
    """Issue: the results say where a blocked railway army stopped, while its order line keeps
    the plain (*bounce*) mapping tools read."""
    from judge.engine import Options, Position, adjudicate
    from judge.engine.parser import parse_orders

    board = load_board("colonial", Options({"colonial_rules": "moulmein"}))  # a holding foreign unit: the army falls back
    col = board.map
    pos = Position.from_json(col, {"phase": "S1870M", "units": {"Russia": ["A mos"], "China": ["A kra"]},
                                   "centres": {"Russia": ["mos"]}})
    adj = adjudicate(board, pos, parse_orders(board, pos, "Russia", "A mos - TSR - vla"))
    assert "oms" in adj.next.units
    lines = results_mail(ctx_for(col), adj, 1, deadline(3)).body.splitlines()
    assert "Russia: Army Moscow -> Trans-Siberian Railroad -> Vladivostok.  (*bounce*)" in lines
    block = lines.index("The following units stopped short of their destination:")
    assert lines[block + 1] == ""
    assert lines[block + 2] == "The Russian Army from Moscow stopped in Omsk, short of Vladivostok."
