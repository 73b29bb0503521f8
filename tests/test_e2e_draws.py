"""A DIAS draw over real SMTP: six players vote and nobody else hears of it; the seventh
vote ends the game and everyone is told it was declared a draw."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game

live = harness.live
GM = "gm@players.test"


def test_every_survivor_votes_and_the_game_is_drawn(live: LiveJudge) -> None:
    powers = start_game(live, "drw")
    names = list(powers)
    for power in names[:-1]:
        reply = live.reply(powers[power], f"signon {power[0]}drw pw\nset draw")
        assert "Your vote for a draw" in reply.body and "[Error Flag]" not in reply.subject
    live.quiet(1.0)
    last = names[-1]
    mails = live.mail(powers[last], f"signon {last[0]}drw pw\nset draw", expect=1 + 8)
    notices = [m for m in mails if m.subject == "E2E:drw - S1901M Draw Declared"]
    assert sorted(m.to for m in notices) == sorted([GM, *powers.values()])
    assert ("The game was declared a draw between Austria, England, France, Germany, Italy,\nRussia and "
            "Turkey.") in notices[0].body
    reply = live.reply(powers["France"], "signon Fdrw pw\nA par - bur")
    assert "Game 'drw' is over: you can no longer give orders." in reply.body
