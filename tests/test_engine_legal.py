"""The enumeration of legal orders (judge.engine.legal) and their plain text (plain.py):
every order enumerated is legal, reads back from its text as the same order, and the
variant routes (railway, canal, hops, convoy chains) are among them."""

from __future__ import annotations

import pytest

from judge.engine import Hold, Move, Options, Order, Support, Waive, initial_position
from judge.engine.legal import LegalOrders, adjustment_orders, retreat_orders
from judge.engine.parser import parse_order
from judge.engine.phase import ADJUSTMENT, MOVEMENT
from judge.engine.plain import plain
from judge.engine.position import Position, unit_of
from judge.engine.validation import check_order
from judge.maps import load_board
from judge.randomgame import play

BOARDS = [("standard", {}), ("colonial", {}), ("colonial", {"colonial_rules": "moulmein"}),
          ("oceania", {}), ("oceania", {"hop_supports": False})]


def _power(order: Order) -> str:
    return order.power if isinstance(order, Waive) else order.unit.power


@pytest.mark.parametrize(("name", "options"), BOARDS)
def test_every_enumerated_order_is_legal_and_reads_back(name: str, options: dict[str, object]) -> None:
    board = load_board(name, Options(options))
    kinds: set[str] = set()
    for played in play(board, initial_position(board.map), seed=7, phases=14):
        pos = played.position
        kinds.add(pos.phase.kind)
        if pos.phase.kind == MOVEMENT:
            legal = LegalOrders(board, pos)
            orders = [o for u in list(pos.units.values())[:8] for o in legal.orders(u)]
        elif pos.phase.kind == ADJUSTMENT:
            orders = [o for p in board.map.power_names for o in adjustment_orders(board, pos, p)]
        else:
            orders = [o for prov in pos.dislodged for o in retreat_orders(board, pos, prov)]
        for order in orders:
            check_order(board, pos, order)
            assert parse_order(board, pos, _power(order), plain(order)) == order, plain(order)
    assert MOVEMENT in kinds and ADJUSTMENT in kinds


def test_railway_canal_convoy_and_hops_are_enumerated() -> None:
    board = load_board("colonial", Options({"colonial_rules": "moulmein"}))
    pos = initial_position(board.map)
    mos = pos.units["mos"]
    assert any(m.via == "railway" for m in LegalOrders(board, pos).moves(mos))
    fleet = unit_of("Britain", "F", "med")
    keeper = unit_of("Britain", "A", "egy")
    canal = Position.build(pos.phase, [fleet, keeper])
    legal = LegalOrders(board, canal)
    assert Move(fleet, "red") in legal.moves(fleet)
    assert plain(Move(fleet, "red")) == "F med - red"
    assert Support(keeper, "med", "red", "F", "Britain", "red") in legal.supports(keeper, [fleet])
    std = load_board("standard", Options())
    lon, nth, eng = unit_of("England", "A", "lon"), unit_of("England", "F", "nth"), unit_of("England", "F", "eng")
    chain = Position.build(pos.phase.__class__.parse("S1901M"), [lon, nth, eng])
    moves = LegalOrders(std, chain).moves(lon)
    assert Move(lon, "nwy") in moves and Move(lon, "bre") in moves
    oce = load_board("oceania", Options())
    start = initial_position(oce.map)
    hops = [(u, d) for u in start.units.values() if u.type == "A"
            for d in oce.map.army_hops.get(u.location, ())]
    assert hops, "Oceania has island hops"
    unit, dest = hops[0]
    assert Move(unit, dest) in LegalOrders(oce, start).moves(unit)
    assert Hold(unit) in LegalOrders(oce, start).orders(unit)
