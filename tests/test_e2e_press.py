"""Partial and grey press over real SMTP: PRESS TO letters reaches only the named powers and
the master, and the reply says who got it; after SET WHITE/GREY, grey press and grey broadcasts
reach their readers without the sender's power or address, and the master's copy names them."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, Mail, start_game

live = harness.live
GM = "gm@players.test"
EVERYONE = 8  # seven players and the master


def _not_reply(mails: list[Mail]) -> list[Mail]:
    return [m for m in mails if not m.subject.startswith("Re:")]


def _reply(mails: list[Mail], sender: str) -> Mail:
    replies = [m for m in mails if m.subject.startswith("Re:") and m.to == sender]
    assert len(replies) == 1, [(m.to, m.subject) for m in mails]
    return replies[0]


def test_partial_and_grey_press(live: LiveJudge) -> None:
    powers = start_game(live, "prs")
    france, germany, italy = powers["France"], powers["Germany"], powers["Italy"]

    mails = live.mail(france, "signon Fprs pw\npress to eg\nShall we share the Channel?\nendpress", expect=4)
    press = _not_reply(mails)
    assert sorted(m.to for m in press) == sorted([GM, powers["England"], germany])
    for m in press:
        assert m.subject == "E2E:prs - S1901M Press from F"
        assert "Message from france@players.test as France in 'prs' to England, Germany:" in m.body
        assert "Shall we share the Channel?" in m.body
    reply = _reply(mails, france)
    assert "[Error Flag]" not in reply.subject
    assert "Message sent:" in reply.body and "Shall we share the Channel?" in reply.body
    assert "It went to England and Germany, with a copy to the Master." in reply.body
    live.quiet()

    reply = live.reply(france, "signon Fprs pw\npress grey to g\nWatch Munich.\nendpress")
    assert "[Error Flag]" in reply.subject and "allows white press only" in reply.body
    mails = live.mail(GM, "signon mprs gmpw\nset white/grey", expect=1 + EVERYONE)
    told = _not_reply(mails)
    assert sorted(m.to for m in told) == sorted([GM, *powers.values()])
    assert "White/Grey, Partial Allowed, No Fake" in told[0].body
    assert "White/Grey" in _reply(mails, GM).body

    mails = live.mail(france, "signon Fprs pw\npress grey to g\nWatch Munich.\nendpress", expect=3)
    press = _not_reply(mails)
    assert sorted(m.to for m in press) == sorted([GM, germany])
    to_germany = next(m for m in press if m.to == germany)
    to_master = next(m for m in press if m.to == GM)
    assert "Message from france@players.test as France in 'prs' to Germany:" in to_master.body
    assert to_germany.subject == "E2E:prs - S1901M Press"
    assert "Message in 'prs' to Germany:" in to_germany.body and "Watch Munich." in to_germany.body
    assert "France" not in to_germany.body and "france@" not in to_germany.body
    reply = _reply(mails, france)
    assert "It went to Germany, with a copy to the Master." in reply.body
    assert "sent as grey press" in reply.body

    mails = live.mail(italy, "signon Iprs pw\nbroadcast grey\nSomeone here is lying.\nendpress",
                      expect=1 + EVERYONE)
    press = _not_reply(mails)
    assert sorted(m.to for m in press) == sorted([GM, *powers.values()])
    for m in press:
        if m.to == GM:  # the master's copy tells the truth
            assert m.subject == "E2E:prs - S1901M Broadcast from I"
            assert "Broadcast message from italy@players.test as Italy in 'prs':" in m.body
            assert "readers got it headed \"Broadcast message in 'prs':\"" in m.body
            continue
        assert m.subject == "E2E:prs - S1901M Broadcast"
        assert "Broadcast message in 'prs':" in m.body and "Someone here is lying." in m.body
        assert "Italy" not in m.body and "italy@" not in m.body
    assert "It went to everyone in the game." in _reply(mails, italy).body
    live.quiet()
