"""Issue 27, item 5, over real SMTP: every mail of a game carries the game's ``List-Id`` (one
per game), and its later mails to a reader name the start mail that reader got in
``References``, so mail clients file a game's mails together and thread its results under
its start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Captured
from test_e2e_harness import LiveJudge, running_judge, start_game


@pytest.fixture
def live(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    """A judge with pictures on, as players get them: a result mail waits for its picture, and
    the game's later mails must still leave after it."""
    yield from running_judge(database_url, tmp_path, pictures=True)
HOLDS = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "France": "A par h\nA mar h\nF bre h", "Germany": "A mun h\nA ber h\nF kie h",
    "Italy": "A ven h\nA rom h\nF nap h", "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h",
    "Turkey": "F ank h\nA con h\nA smy h",
}


def to(live: LiveJudge, address: str, subject_part: str) -> list[Captured]:
    return [c for c in live.relay.messages if c.rcpt_tos == [address] and subject_part in str(c.message["Subject"])]


def test_a_games_mails_are_listed_and_threaded_under_its_start(live: LiveJudge) -> None:
    powers = start_game(live, "thr")
    start_game(live, "oth", players=[f"o{i}@players.test" for i in range(7)])
    for power, orders in HOLDS.items():
        letter = "R" if power == "Russia" else power[0]
        live.send(powers[power], f"signon {letter}thr pw\n{orders}")
    live.collect(7 + 8)
    france = powers["France"]
    (start,) = [c for c in live.relay.messages if c.rcpt_tos == [france] and "Re:" not in str(c.message["Subject"])
                and "thr" in str(c.message["Subject"])][:1]
    (result,) = to(live, france, "S1901M Results")
    assert str(result.message["References"]) == str(start.message["Message-ID"])
    assert start.message["References"] is None
    list_id = str(result.message["List-Id"])
    assert list_id == str(start.message["List-Id"]) and "<thr.e2e.judge.test>" in list_id
    other = next(c for c in live.relay.messages if c.rcpt_tos == ["o0@players.test"]
                 and "Re:" not in str(c.message["Subject"]))
    assert str(other.message["List-Id"]) != list_id and "<oth.e2e.judge.test>" in str(other.message["List-Id"])
    (germany,) = to(live, powers["Germany"], "S1901M Results")
    assert germany.message["References"] != result.message["References"], "each reader's own start mail"


def test_a_games_mails_leave_in_the_order_they_were_written(live: LiveJudge) -> None:
    """The relay defers France's order acknowledgement (4xx, retried with backoff) while the
    phase is processed: France's result waits behind it, and leaves after it."""
    powers = start_game(live, "ord")
    france = powers["France"]
    live.relay.defer.add(france)
    live.send(france, f"signon Ford pw\n{HOLDS['France']}")
    others = [p for p in HOLDS if p != "France"]
    for power in others:
        letter = "R" if power == "Russia" else power[0]
        live.send(powers[power], f"signon {letter}ord pw\n{HOLDS[power]}")
    live.collect(len(others) * 2 + 1)  # their acknowledgements and results, the master's result
    live.relay.defer.clear()
    live.collect(2, timeout=60)
    mine = [str(c.message["Subject"]) for c in live.relay.messages if c.rcpt_tos == [france]][-2:]
    assert mine[0].startswith("Re:") and mine[1].endswith("S1901M Results"), mine
