"""The bot (judge.bots): every order it writes is legal and none is void, on every map and
option preset, in every phase kind; its orders are a function of the seed; it plays."""

from __future__ import annotations

import pytest

from judge.bots import bot_orders, bot_texts, phase_seed
from judge.engine import Options, adjudicate, initial_position
from judge.engine.parser import parse_order
from judge.engine.phase import ADJUSTMENT, MOVEMENT, RETREAT
from judge.engine.results import VOID
from judge.engine.validation import Legality
from judge.maps import load_board

BOARDS = [("standard", {}), ("colonial", {}), ("colonial", {"colonial_rules": "moulmein"}),
          ("oceania", {}), ("oceania", {"hop_supports": False, "strait_counts_for_retreat": False})]


@pytest.mark.parametrize(("name", "options"), BOARDS)
def test_seven_bots_write_only_legal_orders_that_are_never_void(name: str, options: dict[str, object]) -> None:
    board = load_board(name, Options(options))
    pos = initial_position(board.map)
    kinds: set[str] = set()
    for _ in range(40):
        legality = Legality(board, pos)
        orders = []
        for power in board.map.power_names:
            mine = bot_orders(board, pos, power, phase_seed("u", pos.phase.code))
            for order in mine:
                legality.check(order)
            orders.extend(mine)
        kinds.add(pos.phase.kind)
        result = adjudicate(board, pos, orders)
        assert not [r for r in result.results if VOID in r.notes]
        if result.winners:
            break
        pos = result.next
    assert kinds == {MOVEMENT, RETREAT, ADJUSTMENT}


def test_orders_are_a_function_of_the_seed_and_read_back_as_written() -> None:
    board = load_board("standard", Options())
    pos = initial_position(board.map)
    first = bot_texts(board, pos, "France", 11)
    assert first == bot_texts(board, pos, "France", 11)
    assert any(bot_texts(board, pos, p, s) != bot_texts(board, pos, p, 11)
               for p in board.map.power_names for s in range(12, 16))
    for text in first:
        assert parse_order(board, pos, "France", text) in bot_orders(board, pos, "France", 11)
    assert phase_seed("g", "S1901M") == phase_seed("g", "S1901M") != phase_seed("g", "F1901M")


def test_the_bot_takes_centres_from_six_holding_powers() -> None:
    board = load_board("standard", Options())
    pos = initial_position(board.map)
    while pos.phase.year < 1906:
        result = adjudicate(board, pos, bot_orders(board, pos, "Russia", phase_seed("h", pos.phase.code)))
        pos = result.next
    assert len(pos.centres_of("Russia")) >= 10
