"""End-to-end Colonial game over real SMTP: seven players start, a phase is processed, and a
Russian army rides the Trans-Siberian Railroad."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game

live = harness.live
GM = "gm@players.test"
EVERYONE = 8


def _signon(live: LiveJudge, power: str) -> str:
    return f"signon {power[0]}col {live.password('col', power)}\n"


def test_colonial_game_starts_and_processes(live: LiveJudge) -> None:
    powers = start_game(live, "col", "colonial")
    assert live.phase("col") == "S1870M"
    reply = live.reply(powers["China"], _signon(live, "China") + "A pek h\nA can h\nA sik h\nA sha h\nA mac h")
    assert "Orders received for all units of China." in reply.body
    mails = live.mail(GM, "signon Mcol gmpw\nprocess", expect=1 + EVERYONE)
    results = [m for m in mails if m.subject.endswith("S1870M Results")]
    assert len(results) == EVERYONE
    assert "China: Army Peking HOLD." in results[0].body
    # the adjudicator reading's calendar: every movement turn is a year (seed 000)
    assert live.phase("col") == "F1871M"
    assert "The next phase of 'col' will be Movement for Fall of 1871." in results[0].body


def test_colonial_railway(live: LiveJudge) -> None:
    powers = start_game(live, "col", "colonial")
    reply = live.reply(powers["Russia"], _signon(live, "Russia") + "A mos - TSR - prm")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Trans-Siberian Railroad" in reply.body
    mails = live.mail(GM, "signon Mcol gmpw\nprocess", expect=1 + EVERYONE)
    results = [m for m in mails if m.subject.endswith("S1870M Results")]
    assert "Russia: Army Moscow -> Trans-Siberian Railroad -> " in results[0].body
    assert "(*bounce*)" not in results[0].body.split("Russia: Army Moscow")[1].splitlines()[0]
