"""End-to-end Oceania game over real SMTP: seven players start, a New Zealand army hops
from Kermadec Island to Tonga (two island chains bordering one sea), and a fleet cannot hop."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game

live = harness.live
GM = "gm@players.test"
EVERYONE = 8


def _signon(live: LiveJudge, power: str, letter: str) -> str:
    return f"signon {letter}oce {live.password('oce', power)}\n"


def test_oceania_island_hop_by_mail(live: LiveJudge) -> None:
    letters = "AFIJNUZ"
    powers = start_game(live, "oce", "oceania", players=[f"player-{x.lower()}@players.test" for x in letters])
    assert live.phase("oce") == "S2000M"
    reply = live.reply(powers["New Zealand"], _signon(live, "New Zealand", "N") + "A kei - tog")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "New Zealand: Army Kermadec Island -> Tonga." in reply.body
    refused = live.reply(powers["Japan"], _signon(live, "Japan", "J") + "F nsh - kwa")
    assert "[Error Flag]" in refused.subject, refused.body  # fleets never hop
    mails = live.mail(GM, "signon Moce gmpw\nprocess", expect=1 + EVERYONE)
    results = [m for m in mails if m.subject.endswith("S2000M Results")]
    assert len(results) == EVERYONE
    assert "New Zealand: Army Kermadec Island -> Tonga." in results[0].body
    assert live.phase("oce") == "F2000M"
