"""Orders entered in advance over real SMTP: every power enters its Fall orders during the
Spring, France's on a condition; the scheduler processes Spring after the clock's delay (an
hour, on the judge's clock, moved on by the test), each
player gets the orders as they now read, and since every power's orders are then in, the
scheduler processes Fall too, with France's conditional move."""

from __future__ import annotations

from datetime import timedelta

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game
from test_game_helpers import HOLDS

from judge import clock

live = harness.live
GM = "gm@players.test"
EVERYONE = 8
SPRING = {**HOLDS, "France": "A par - bur\nA mar h\nF bre h"}
FALL = {**SPRING, "France": "IF French Army Burgundy\n  A bur - mun\nELSE\n  A par h\nENDIF\nA mar h\nF bre h"}


def test_future_orders_are_applied_when_their_phase_comes(live: LiveJudge) -> None:
    powers = start_game(live, "adv")
    live.mail(GM, "signon Madv gmpw\nset moves delay 1", expect=1 + EVERYONE)
    for power, orders in FALL.items():
        reply = live.reply(powers[power], f"signon {power[0]}adv pw\nphase fall 1901 movement\n{orders}")
        assert "[Error Flag]" not in reply.subject, reply.body
        assert "Kept for the Fall 1901 Movement (F1901M)" in reply.body
    for power, orders in SPRING.items():
        reply = live.reply(powers[power], f"signon {power[0]}adv pw\n{orders}")
        assert "Orders you have entered in advance" in reply.body
    live.settle()
    assert live.phase("adv") == "S1901M", "the delay is not over"
    clock.advance(timedelta(hours=1, seconds=1))
    spring = live.collect(EVERYONE + 7)
    assert sum(m.subject == "E2E:adv - S1901M Results" for m in spring) == EVERYONE
    applied = {m.to: m for m in spring if "Orders Entered in Advance" in m.subject}
    assert sorted(applied) == sorted(powers.values())
    to_france = applied[powers["France"]]
    assert to_france.subject == "E2E:adv - F1901M Orders Entered in Advance: France"
    assert "France: Army Burgundy -> Munich." in to_france.body
    assert "Not used: the conditions above it do not hold now." in to_france.body
    live.settle()
    assert live.phase("adv") == "F1901M", "every order is in, but the delay is not over"
    clock.advance(timedelta(hours=1, seconds=1))
    fall = live.collect(EVERYONE)
    assert all(m.subject == "E2E:adv - F1901M Results" for m in fall)
    assert "France: Army Burgundy -> Munich.  (*bounce*)" in fall[0].body, fall[0].body
    assert live.phase("adv") == "S1902M"
    live.quiet()
