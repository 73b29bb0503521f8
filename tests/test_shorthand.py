"""The shorthand reader for program-written orders gives exactly what the full reader gives."""

from __future__ import annotations

import random

from judge.engine import Phase, Position, Unit, adjudicate, initial_position
from judge.engine.lexicon import Cursor
from judge.engine.parser import _adjustment, _movement, _retreat, parse_orders
from judge.engine.shorthand import read_movement, read_retreat_or_adjustment
from judge.maps import load_board
from judge.randomgame import parse_legal, random_orders


def _full(m, position, power, text):  # type: ignore[no-untyped-def]
    kind = position.phase.kind
    if kind == "M":
        return _movement(Cursor(m, text), position, power)
    if kind == "R":
        return _retreat(Cursor(m, text), position, power)
    [order] = _adjustment(Cursor(m, text), position, power)
    return order


def test_fast_path_agrees_with_the_full_reader_over_random_games() -> None:
    board = load_board("standard")
    m = board.map
    checked = 0
    kinds: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        position = initial_position(m)
        for _ in range(30):
            orders = random_orders(board, position, rng)
            fast_path = read_movement if position.phase.kind == "M" else read_retreat_or_adjustment
            for power, lines in orders.items():
                for text in lines:
                    fast = fast_path(m, position, power, text)
                    assert fast is not None, text
                    assert fast == _full(m, position, power, text), text
                    checked += 1
                    kinds.add(position.phase.kind)
            position = adjudicate(board, position, parse_legal(board, position, orders)).next
    assert checked > 1000
    assert kinds == {"M", "R", "B"}


def test_doubtful_orders_take_the_full_path() -> None:
    board = load_board("standard")
    m = board.map
    position = initial_position(m)
    for text in ("A par - spa/nc", "F bre - spa", "A mun - xyz", "F par - bur", "A ber s a mun - xyz",
                 "A par supports the army in marseilles", "A kie - hol", "Army Paris - Burgundy"):
        assert read_movement(m, position, "France", text) is None, text
    [err] = parse_orders(board, position, "France", "A par - xyz")
    assert isinstance(err, Exception) and "Unrecognized province 'xyz'" in str(err)


def test_via_convoy_and_convoy_orders_agree_with_the_full_reader() -> None:
    board = load_board("standard")
    m = board.map
    position = Position.build(Phase.parse("S1901M"), [
        Unit("France", "A", "bel"), Unit("England", "F", "nth"), Unit("England", "A", "lon"),
        Unit("England", "F", "eng"),
    ])
    for power, text in (("France", "A bel - hol via convoy"), ("England", "A lon - bel via convoy"),
                        ("England", "F nth C A lon - bel"), ("England", "A lon - bel"),
                        ("England", "F eng S A lon - bel"), ("England", "A lon - wal via convoy")):
        fast = read_movement(m, position, power, text)
        assert fast is not None, text
        assert fast == _full(m, position, power, text), text
    assert read_movement(m, position, "England", "F nth - hol via convoy") is None  # fleets are never convoyed
