"""The ratings' model (judge.ratings): ranks from a game's end, partial play, the bot as one
player, and that the library's own numbers come out for a lone player."""

from __future__ import annotations

import pytest

from judge.game.ratings import bot_played
from judge.ratings import BOT, MODEL, NOBODY, Rating, Seat, conservative, fresh, rank_seats, rate_game
from judge.store.games import PhaseRecord

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


def test_ranks_a_solo_a_draw_and_a_concession_as_the_anchors_do() -> None:
    centres = {"France": 18, "Italy": 6, "Turkey": 6, "Russia": 4}
    solo = rank_seats(POWERS, ["France"], centres, ["France", "Italy", "Turkey", "Russia"])
    assert solo == {"France": 0, "Italy": 1, "Turkey": 1, "Russia": 2, "Austria": 3, "England": 3, "Germany": 3}
    draw = rank_seats(POWERS, ["Italy", "Turkey"], {"Italy": 10, "Turkey": 9, "Russia": 3},
                      ["Italy", "Turkey", "Russia"])
    assert draw["Italy"] == draw["Turkey"] == 0 and draw["Russia"] == 1 and draw["France"] == 2
    conceded = rank_seats(POWERS, ["Russia"], {"Russia": 12, "England": 12}, ["Russia", "England"])
    assert conceded["Russia"] == 0 and conceded["England"] == 1 and conceded["Austria"] == 2


def seats(ranks: list[int], shares: dict[str, dict[str, float]] | None = None) -> list[Seat]:
    return [Seat(p, r, (shares or {}).get(p, {p.lower(): 1.0})) for p, r in zip(POWERS, ranks, strict=True)]


def test_a_lone_player_moves_exactly_as_the_library_moves_them() -> None:
    ranks = [0, 1, 1, 2, 3, 3, 3]
    ours = {c.player: c.after for c in rate_game({}, seats(ranks))}
    theirs = MODEL.rate([[MODEL.rating()] for _ in POWERS], ranks=[float(r) for r in ranks])
    for power, [rated] in zip(POWERS, theirs, strict=True):
        assert ours[power.lower()].mu == pytest.approx(rated.mu, abs=1e-12)
        assert ours[power.lower()].sigma == pytest.approx(rated.sigma, abs=1e-12)
        assert ours[power.lower()].games == 1


def test_partial_play_shares_the_result_by_the_part_played() -> None:
    whole = {c.player: c for c in rate_game({}, seats([0, 1, 1, 1, 1, 1, 1]))}
    shared = {c.player: c for c in rate_game({}, seats([0, 1, 1, 1, 1, 1, 1],
                                                       {"England": {"leaver": 0.75, "saviour": 0.25}}))}
    lone_loss = fresh().mu - whole["england"].after.mu
    assert lone_loss > 0
    assert fresh().mu - shared["saviour"].after.mu < lone_loss / 2, "taking over late costs little"
    assert fresh().mu - shared["leaver"].after.mu > lone_loss / 2, "leaving is no shelter"
    assert shared["leaver"].share == 0.75 and shared["saviour"].powers == ("England",)
    unplayed = {c.player for c in rate_game({}, seats([0, 1, 1, 1, 1, 1, 1], {"Turkey": {NOBODY: 1.0}}))}
    assert NOBODY not in unplayed and "turkey" not in unplayed


def test_the_bot_is_one_player_and_adds_up_its_seats() -> None:
    changes = {c.player: c for c in rate_game({BOT: Rating(30.0, 4.0, 10)},
                                              seats([0, 1, 1, 1, 1, 1, 1], {"England": {BOT: 1.0},
                                                                            "Turkey": {BOT: 1.0}}))}
    bot = changes[BOT]
    assert bot.powers == ("England", "Turkey") and bot.before.mu == 30.0 and bot.after.games == 11
    assert bot.after.mu < 30.0 and bot.after.sigma < 4.0
    record = PhaseRecord(game_id=1, seq=0, phase="S1901M", position={})
    assert bot_played(record) == frozenset()
    record.bot_powers = ["England"]  # the bot branch's column (issue 25)
    assert bot_played(record) == {"England"}


def test_the_display_value_is_conservative() -> None:
    assert conservative(25.0, 25.0 / 3.0) == pytest.approx(0.0)
    assert Rating(30.0, 2.0).display == 24.0
