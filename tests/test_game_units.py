"""Pure parts of the game layer: deadline dates, power assignment, order merging."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from judge.engine import initial_position
from judge.engine.phase import Phase
from judge.engine.position import Position
from judge.game import orders
from judge.game.assign import PreferenceError, assign, read_preferences, seed_for, weights
from judge.game.deadlines import DeadlineError, default_deadline, parse_deadline, zone
from judge.game.view import board_for

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(("text", "expected"), [
    ("2026-12-01 18:00 UTC", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
    ("2026-12-01T18:00:00+01:00", datetime(2026, 12, 1, 17, 0, tzinfo=UTC)),
    ("2026-12-01", datetime(2026, 12, 1, 23, 30, tzinfo=UTC)),
    ("Mon Dec 1 2026 18:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
    ("Dec 15", datetime(2026, 12, 15, 23, 30, tzinfo=UTC)),
    ("15 dec 20:00", datetime(2026, 12, 15, 20, 0, tzinfo=UTC)),
    ("tue", datetime(2026, 12, 1, 23, 30, tzinfo=UTC)),
    ("mon", datetime(2026, 12, 7, 23, 30, tzinfo=UTC)),
    ("5", datetime(2026, 12, 5, 23, 30, tzinfo=UTC)),
    ("jan 10", datetime(2027, 1, 10, 23, 30, tzinfo=UTC)),
])
def test_deadline_forms(text: str, expected: datetime) -> None:
    assert parse_deadline(text, NOW) == expected


def test_deadline_zone_of_the_judge() -> None:
    assert parse_deadline("2026-12-01 18:00", NOW, zone("Europe/Paris")) == datetime(2026, 12, 1, 17, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", ["2020-01-01 10:00", "someday", "apr 10", "2026-13-01", "", "25:00"])
def test_bad_deadlines(text: str) -> None:
    with pytest.raises(DeadlineError):
        parse_deadline(text, NOW)


def test_default_deadline_rounds_up() -> None:
    assert default_deadline(datetime(2026, 1, 1, 10, 0, 30, tzinfo=UTC), 24) == datetime(2026, 1, 2, 10, 1,
                                                                                        tzinfo=UTC)


def test_preferences() -> None:
    letters = "AEFGIRT"
    assert read_preferences("e[fgr][tai]", letters) == [["E"], ["F", "G", "R"], ["T", "A", "I"]]
    assert read_preferences("*", letters) == []
    with pytest.raises(PreferenceError):
        read_preferences("EX", letters)
    with pytest.raises(PreferenceError):
        read_preferences("EE", letters)
    w = weights([["E"], ["F", "G"]], letters)
    assert w["E"] == 7 and w["F"] == w["G"] == 5.5 and w["A"] == 2.5


def test_a_star_in_a_preference_list_is_every_power_it_does_not_name() -> None:
    letters = list("AEFGIRT")
    assert read_preferences("FG*", letters) == [["F"], ["G"], ["A", "E", "I", "R", "T"]]
    assert read_preferences("F*G", letters) == [["F"], ["A", "E", "I", "R", "T"], ["G"]]
    assert weights(read_preferences("FG*", letters), letters) == weights(read_preferences("FG", letters), letters)
    got = assign(["ann", "bob"], ["FG*", "F*"], letters, seed_for("x"))
    assert got[0] in ("F", "G") and got[1] in ("F", *"AEIRT") and got[0] != got[1]


def test_assignment_follows_preferences_and_is_stable() -> None:
    letters = list("AEFGIRT")
    players = [f"p{i}" for i in range(7)]
    prefs = ["E", "E", "F", "", "*", "RT", "T"]
    got = assign(players, prefs, letters, seed_for("dt"))
    assert sorted(got) == sorted(letters)
    assert got[2] == "F" and got[6] == "T" and "E" in got[:2]
    assert got == assign(players, prefs, letters, seed_for("dt"))


def _lines(entries: list[orders.Entry]) -> list[str]:
    return [e.line for e in entries]


def test_merge_replaces_orders_per_unit() -> None:
    b = board_for("standard", {})
    pos = initial_position(b.map)
    first = orders.merge(b, pos, "France", [], ["A par - bur", "A mar - spa", "F bre - xyz"])
    assert _lines(first.entries) == ["A par - bur", "A mar - spa"] and first.errors == 1
    assert [r.errors for r in first.lines][:2] == [(), ()] and first.lines[2].errors
    assert not orders.is_complete(b, pos, "France", first.entries)
    second = orders.merge(b, pos, "France", first.entries, ["A par - pic", "F bre - mao"])
    assert _lines(second.entries) == ["A mar - spa", "A par - pic", "F bre - mao"]
    assert orders.is_complete(b, pos, "France", second.entries)
    assert "Army Paris -> Picardy." in orders.echo(b, pos, "France", second.entries)


def test_merge_refuses_other_powers_units() -> None:
    b = board_for("standard", {})
    result = orders.merge(b, initial_position(b.map), "France", [], ["A mun - bur"])
    assert result.entries == [] and result.errors == 1


def test_errors_stay_on_their_own_line() -> None:
    b = board_for("standard", {})
    pos = initial_position(b.map)
    result = orders.merge(b, pos, "France", [], ["F mao - spa", "F bre - mao", "A", "A par - bur"])
    assert [bool(r.errors) for r in result.lines] == [True, False, True, False]
    assert result.errors == 2


def test_adjustments_keep_the_latest_and_say_what_was_dropped() -> None:
    b = board_for("standard", {})
    start = initial_position(b.map)
    owners = dict(start.owners, bel="France", spa="France")
    units = [u for u in start.units.values() if u.province not in ("par", "mar")]
    pos = Position.build(Phase(1901, "F", "B"), units, owners=owners)
    assert orders.required(b, pos)["France"] == 2
    result = orders.merge(b, pos, "France", [], ["build a par", "build a mar", "build f mar"])
    assert _lines(result.entries) == ["build a par", "build f mar"]
    assert result.allowed == 2 and _lines(result.dropped) == []
    assert orders.is_complete(b, pos, "France", result.entries)
    more = orders.merge(b, pos, "France", result.entries, ["waive"])
    assert _lines(more.entries) == ["build f mar", "waive"] and _lines(more.dropped) == ["build a par"]


def test_a_day_no_month_has_is_said_once() -> None:
    """Day 32 of no month is refused in those words, not wrapped as an invalid date."""
    with pytest.raises(DeadlineError) as refused:
        parse_deadline("32", NOW)
    assert str(refused.value) == "No month has a day 32."
