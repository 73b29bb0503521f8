"""The judge's bot in the game life, over real SMTP (LiveJudge): SET CD BOT, a resigned
power played by the bot on each map (the results show its orders and say who wrote them),
a takeover giving it back to a person at once, a person's orders winning over the bot's,
LIST naming the bot, SET BOT in a forming game, and a practice game by mail."""

from __future__ import annotations

import re
import time

import pytest
import test_e2e_harness as harness
from sqlalchemy import func, select
from test_e2e_harness import LiveJudge, Mail, reply_among, start_game

from judge.bots import bot_texts
from judge.engine import Options, Position
from judge.maps import load_board
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import find_game
from judge.store.mail import OutboxMessage
from judge.web.archive import phase_detail

live = harness.live
_LAST: list[Mail] = []
BOT_LINE = "Orders for {power} were written by the judge's bot."


def _drain(live: LiveJudge, timeout: float = 30.0) -> list[Mail]:
    """Every mail the judge has sent since the last collected, once it has settled: nothing
    unread, nothing pending, nothing held for its picture."""
    deadline = time.monotonic() + timeout
    engine = make_engine(live.url)
    try:
        while True:
            live.settle(timeout)
            with make_sessionmaker(engine)() as s:
                held = s.scalar(select(func.count()).select_from(OutboxMessage)
                                .where(OutboxMessage.status.in_(("held", "pending"))))
            if not held:
                break
            assert time.monotonic() < deadline, f"{held} mails held"
            live.relay.wait_for(len(live.relay.messages) + 1, timeout=0.05, strict=False)
    finally:
        engine.dispose()
    return live.collect(len(live.relay.messages) - live._seen)


def _position(live: LiveJudge, game: str, variant: str) -> tuple[object, Position]:
    board = load_board(variant, Options(live.game_value(game, "options") or {}))
    return board, Position.from_json(board.map, live.game_value(game, "position"))


def _order_all(live: LiveJudge, game: str, variant: str, powers: dict[str, str], skip: set[str]) -> list[Mail]:
    """Each player but those of ``skip`` sends legal orders (written by the bot, as a person
    could) and SET NOWAIT; the mails that follow."""
    board, pos = _position(live, game, variant)
    owing = {u.power for u in pos.units.values()} if pos.phase.kind == "M" else \
        {d.unit.power for d in pos.dislodged.values()} if pos.phase.kind == "R" else set(powers)
    for power, address in powers.items():
        if power in skip:
            continue
        texts = bot_texts(board, pos, power, 99) if power in owing else []  # type: ignore[arg-type]
        if texts or pos.phase.kind != "M":  # (SET NOWAIT: a takeover sets a wait on everyone)
            live.send(address, f"signon {board.map.power(power).letter}{game} pw\nset nowait\n" + "\n".join(texts))  # type: ignore[attr-defined]
    _LAST[:] = _drain(live)
    return list(_LAST)


def _results(mails: list[Mail]) -> list[Mail]:
    return [m for m in mails if "Results" in m.subject]


@pytest.mark.parametrize("variant", ["standard", "colonial", "oceania"])
def test_a_resigned_power_is_played_by_the_bot_until_a_takeover(live: LiveJudge, variant: str) -> None:
    game = f"b{variant[:3]}"
    letters = [pw.letter.lower() for pw in load_board(variant, Options()).map.powers]
    powers = start_game(live, game, variant, players=[f"player-{x}@players.test" for x in letters])
    _drain(live)
    master = "gm@players.test"
    reply = live.reply(master, f"signon m{game} gmpw\nset cd bot")
    assert "the judge's bot plays a power in civil disorder" in reply.body
    quitter = list(powers)[2]
    letter = load_board(variant, Options()).map.power(quitter).letter
    live.send(powers[quitter], f"signon {letter}{game} pw\nresign")
    _drain(live)
    listing = live.reply(master, f"list {game}").body
    assert f"played by the judge's bot: SIGNON {letter}{game} password takes it over" in listing
    assert "Civil Disorder" in listing
    # the others order; the quitter's power is not waited for: the bot orders for it
    board, before = _position(live, game, variant)
    results = _results(_order_all(live, game, variant, powers, {quitter}))
    assert results, [(m.to, m.subject, m.body[-600:]) for m in _LAST]
    body = results[0].body
    assert BOT_LINE.format(power=quitter) in body
    lines = [x for x in body.splitlines() if x.startswith(f"{quitter}: ")]
    assert lines and not any("No Order Processed" in x for x in lines)
    assert any("->" in x for x in lines), lines  # played, not held
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            row = find_game(s, game)
            assert row is not None
            page = phase_detail(s, row, before.phase.code, public=True)  # the web archive's phase page
            assert page is not None and BOT_LINE.format(power=quitter) in page.results
    finally:
        engine.dispose()
    assert live.game_value(game, "phase") != before.phase.code
    # a takeover gives the power back to a person at once
    newcomer = "newcomer@players.test"
    live.send(newcomer, f"signon {letter}{game} pw")
    _drain(live)
    powers[quitter] = newcomer
    results = _results(_order_all(live, game, variant, powers, set()))
    assert results
    assert BOT_LINE.format(power=quitter) not in results[0].body
    assert "played by the judge's bot: SIGNON" not in live.reply(master, f"list {game}").body


def test_a_persons_orders_win_and_hold_is_the_default(live: LiveJudge) -> None:
    powers = start_game(live, "bhold")
    _drain(live)
    # CD HOLD (the default): the resigned power's units hold, nobody writes for it
    live.send(powers["Russia"], "signon Rbhold pw\nresign")
    _drain(live)
    body = _results(_order_all(live, "bhold", "standard", powers, {"Russia"}))[0].body
    assert "judge's bot" not in body
    assert re.search(r"^Russia: .*No Order Processed", body, re.M)
    # CD BOT, but Italy's player ordered before resigning: those orders stand
    live.reply("gm@players.test", "signon mbhold gmpw\nset cd bot")
    board, pos = _position(live, "bhold", "standard")
    italian = bot_texts(board, pos, "Italy", 7)  # type: ignore[arg-type]
    live.send(powers["Italy"], "signon Ibhold pw\n" + "\n".join(italian) + "\nresign")
    _drain(live)
    body = _results(_order_all(live, "bhold", "standard", powers, {"Russia", "Italy"}))[0].body
    assert BOT_LINE.format(power="Russia") in body
    assert BOT_LINE.format(power="Italy") not in body


def test_a_practice_game_and_bot_seats_by_mail(live: LiveJudge) -> None:
    player = "solo@players.test"
    mails = _drain(live) + live.mail(player, "practice ?solo pw standard France", expect=2)
    assert any("A practice game: you play France (SIGNON Fsolo password)" in m.body for m in mails)
    _drain(live)
    assert live.game_value("solo", "status") == "active"
    listing = live.reply(player, "list solo").body
    assert listing.count("played by the judge's bot: SIGNON") == 6
    results = _results(_order_all(live, "solo", "standard", {"France": player}, set()))
    assert results, "processed as soon as the person's orders were in"
    assert all(BOT_LINE.format(power=p) in results[0].body
               for p in ("Austria", "England", "Germany", "Italy", "Russia", "Turkey"))
    assert BOT_LINE.format(power="France") not in results[0].body
    # a ROLLBACK and the same turn played again: the bot writes the same orders, and says so
    first = [x for x in results[0].body.splitlines() if re.match(r"(Austria|England|Germany|Italy|Russia|Turkey): ", x)]
    live.send(player, "signon msolo pw\nrollback")
    _drain(live)
    again = _results(_order_all(live, "solo", "standard", {"France": player}, set()))
    assert again and BOT_LINE.format(power="Russia") in again[0].body
    assert [x for x in again[0].body.splitlines() if x in first] == first
    # SET BOT: a master seats the bot in a forming game; it starts when the persons fill the rest
    live.send("gm@players.test", "create ?seats gmpw standard\nset bot england\nset bot turkey")
    _drain(live)
    assert live.game_value("seats", "bot_powers") == ["England", "Turkey"]
    live.send("gm@players.test", "signon mseats gmpw\nset bot france")
    reply = reply_among(_drain(live), "gm@players.test")
    assert "The judge's bot takes the seat of France" in reply.body
    for i in range(4):  # four persons fill the other seats: the game starts
        live.send(f"p{i}@players.test", "signon ?seats pw")
    _drain(live)
    assert live.game_value("seats", "status") == "active"
    assert live.game_value("seats", "bot_powers") == ["England", "Turkey", "France"]
