"""Fake press and postal press over real SMTP: press to some faked as a broadcast reaches only
its real readers, shown as a broadcast, and the master's copy tells the truth; postal press is
held until the phase is processed (by the scheduler, after the clock's delay) and goes to
everyone right after the results."""

from __future__ import annotations

from datetime import timedelta

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, not_replies, reply_among, start_game
from test_game_helpers import HOLDS

from judge import clock

live = harness.live
GM = "gm@players.test"
EVERYONE = 8




def test_fake_and_postal_press(live: LiveJudge) -> None:
    powers = start_game(live, "fk")
    italy, france = powers["Italy"], powers["France"]
    mails = live.mail(GM, "signon Mfk gmpw\nset fake, postal press\nset moves delay 1", expect=1 + EVERYONE)
    assert "Partial may be Faked, Postal Press" in reply_among(mails, GM).body

    mails = live.mail(italy, "signon Ifk pw\npress to all but go fake broadcast\nThis is Germany. You are all "
                             "wimps.\nendpress", expect=1 + 6 + 1)
    press = not_replies(mails)
    readers = [a for p, a in powers.items() if p != "Germany"]
    assert sorted(m.to for m in press) == sorted([*readers, GM])
    for m in press:
        if m.to == GM:
            assert "Message from italy@players.test as Italy in 'fk' to Austria, England, France, Italy, Russia, " \
                   "Turkey, Master:" in m.body
            assert "readers got it headed \"Broadcast message from italy@players.test as Italy in 'fk':\"" in m.body
        else:
            assert m.subject == "E2E:fk - S1901M Broadcast from I"
            assert "Broadcast message from italy@players.test as Italy in 'fk':" in m.body
    assert "its readers were shown a broadcast to everyone" in reply_among(mails, italy).body

    reply = live.reply(france, "signon Ffk pw\npostal press\nLong live the Republic.\nendpress")
    assert "Postal press message kept for the results" in reply.body
    live.quiet()

    for power, orders in HOLDS.items():
        live.reply(powers[power], f"signon {power[0]}fk pw\n{orders}")
    live.settle()
    assert live.phase("fk") == "S1901M"  # the clock's delay (an hour): the scheduler processes it
    clock.advance(timedelta(hours=1, seconds=1))
    later = live.collect(2 * EVERYONE)
    results = [m for m in later if m.subject == "E2E:fk - S1901M Results"]
    postal = [m for m in later if m.subject == "E2E:fk - S1901M Postal Press"]
    assert len(results) == EVERYONE and len(postal) == EVERYONE
    assert "Postal press message from france@players.test as France in 'fk':" in postal[0].body
    assert "Long live the Republic." in postal[0].body
    assert live.phase("fk") == "F1901M"
    live.quiet()
