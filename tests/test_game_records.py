"""Player records (issue 11 item 13, njudge data/dedsystems): phases on time, late and
missed, games started, taken over, finished and abandoned, per address; WHOIS, GET
DEDICATION and LIST show them; a game may ask for a minimum record to join or take over."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_game_grace import SPRING
from test_game_helpers import Judge, password_of, start_standard

from judge.game.records import record_of

GM = "gm@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}")


def _order(judge: Judge, power: str, game: str = "dt") -> None:
    address = f"p{'AEFGIRT'.index(power[0])}@example.org"
    judge.reply(address, f"signon {power[0]}{game} {password_of(judge, game, power)}\n{SPRING[power]}")


def _record(judge: Judge, address: str) -> tuple[int, int, int, int, int, int, int, int]:
    with judge.factory() as s:
        r = record_of(s, address)
        return (r.on_time, r.late, r.missed, r.late_notices, r.started, r.taken_over, r.abandoned, r.dedication)


def test_phases_on_time_late_and_missed(judge: Judge) -> None:
    start_standard(judge)
    for power in ("Austria", "England", "France", "Germany", "Italy"):
        _order(judge, power)
    judge.step("dt")
    _order(judge, "Russia")
    judge.now = judge.game("dt").grace_end or judge.now
    judge.step("dt")
    assert judge.game("dt").phase == "F1901M"
    assert _record(judge, "p0@example.org") == (1, 0, 0, 0, 1, 0, 0, 3), "on time: +3"
    assert _record(judge, "p5@example.org") == (0, 1, 0, 1, 1, 0, 0, -1), "late: one late notice, -1"
    assert _record(judge, "p6@example.org") == (0, 0, 1, 1, 1, 0, 0, -101), "missed: -100, and the notice"
    whois = judge.reply("anyone@example.org", "whois p6@example.org").body
    assert "Record of p6@example.org on this judge:" in whois
    assert "Phases due:     1 (0 on time, 0 late, 1 missed)" in whois and "Dedication:     -101" in whois
    assert "Ontime ratio:   0.000" in whois and "CD ratio:       1.000" in whois
    assert "  dt        Turkey           playing    active F1901M" in whois
    mine = judge.reply("p0@example.org", "get dedication").body
    assert "Record of p0@example.org" in mine and "Ontime ratio:   1.000" in mine
    listing = judge.reply("anyone@example.org", "list dt").body
    assert "   Turkey     move      1   -101  p6@example.org" in listing


def test_the_old_player_keeps_the_abandonment_the_new_one_starts_clean(judge: Judge) -> None:
    start_standard(judge)
    judge.mail(GM, "signon Mdt gmpw\nset nonmr\nset grace 1")
    for power in list(SPRING)[:-1]:
        _order(judge, power)
    judge.step("dt")
    judge.step("dt")
    judge.reply("new@example.org", "signon Tdt newpw")
    assert _record(judge, "p6@example.org") == (0, 0, 1, 1, 1, 0, 1, -151), "abandoned -50, missed -100, notice -1"
    assert _record(judge, "new@example.org") == (0, 0, 0, 0, 0, 1, 0, 0)
    whois = judge.reply("anyone@example.org", "whois p6@example.org new@example.org").body
    assert "1 started, 0 taken over, 0 finished,\n                  1 abandoned, 0 resigned" in whois
    assert "  dt        Turkey           abandoned  active S1901M" in whois
    assert "0 started, 1 taken over" in whois
    judge.reply("new@example.org", f"signon Tdt newpw\n{SPRING['Turkey']}")
    judge.now = judge.game("dt").deadline or judge.now
    judge.step("dt")
    assert _record(judge, "new@example.org")[0] == 1, "the newcomer's phase on time"


def test_a_game_may_ask_for_a_minimum_record(judge: Judge) -> None:
    start_standard(judge)
    judge.now = judge.game("dt").grace_end or judge.now
    judge.step("dt")
    assert _record(judge, "p0@example.org")[2] == 1, "everyone missed Spring 1901"
    judge.mail("gm2@example.org", "create ?two gmpw standard\nset dedication 0\nset ontimerat 0.5")
    reply = judge.reply("p0@example.org", "signon ?two pw")
    assert "Sorry, game 'two' requires a dedication of at least 0 and you\nare currently rated at -100." in reply.body
    reply = judge.reply("fresh@example.org", "signon ?two pw")
    assert "[Error Flag]" not in reply.subject, "a new player has dedication 0 and no ratio yet"
    judge.reply("gm2@example.org", "signon Mtwo gmpw\nset dedication none")
    reply = judge.reply("p0@example.org", "signon ?two pw")
    assert "requires an ontime ratio of at least 0.500.\nYou are currently rated 0.000." in reply.body
    judge.reply("gm2@example.org", "signon Mtwo gmpw\nset ontimerat none\nset resrat 0.2")
    reply = judge.reply("p0@example.org", "signon ?two pw")
    assert "requires a maximum CD ratio of 0.200.\nYou are currently rated 1.000." in reply.body
    judge.mail(GM, "signon Mdt gmpw\nset dedication 1")
    judge.mail("p2@example.org", f"signon Fdt {password_of(judge, 'dt', 'France')}\nresign")
    reply = judge.reply("fresh@example.org", "signon Fdt pw")
    assert "Invalid password or power ID specified." in reply.body
    assert "requires a dedication of at least 1 and you\nare currently rated at 0." in reply.body
    listing = judge.reply("x@example.org", "list dt").body
    assert "Joining:  Dedication: 1." in listing


def test_whois_refuses_what_is_no_address(judge: Judge) -> None:
    reply = judge.reply("x@example.org", "whois p\nwhois")
    assert "Give whole mail addresses, not 'p'." in reply.body and "Write WHOIS address" in reply.body
    reply = judge.reply("x@example.org", "who is nobody@example.org")
    assert "nobody@example.org has no place in any game on this judge." in reply.body
    assert "Ontime ratio:   -" in reply.body
