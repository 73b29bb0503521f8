"""Reply to play over real SMTP: the judge's mail to a player carries a Reply-To of their own,
the listener takes mail to that tagged address, and a reply to it plays without SIGNON; once
the master turns reply to play off, mail carries none and the old address signs nobody on."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, Mail, reply_among, start_game

live = harness.live
GM = "gm@players.test"


def _reply_to(live: LiveJudge, address: str) -> str | None:
    """The Reply-To of the last mail the relay got for ``address``."""
    last = [c for c in live.relay.messages if c.rcpt_tos == [address]][-1]
    value = last.message["Reply-To"]
    return str(value) if value is not None else None


def _send_to(live: LiveJudge, sender: str, to: str, text: str, expect: int = 1) -> list[Mail]:
    """A reply to ``to`` (a reply address), as a mail program sends it."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = "Re: E2E:rp - S1901M"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(text)
    with smtplib.SMTP("127.0.0.1", live.config.smtp_port, timeout=10) as smtp:
        smtp.send_message(msg, from_addr=sender, to_addrs=[to])
    return live.collect(expect)



def test_reply_to_play(live: LiveJudge) -> None:
    powers = start_game(live, "rp")
    france = powers["France"]
    start_reply_to = _reply_to(live, france)
    assert start_reply_to is not None and start_reply_to.startswith("judge+")
    assert start_reply_to != _reply_to(live, powers["Germany"])

    reply = live.reply(france, "signon Frp pw\nA par - bur")
    address = _reply_to(live, france)
    assert address == start_reply_to

    reply = reply_among(_send_to(live, france, address, "A mar - spa\nF bre - mao\n\n> quoted text from the judge"),
                   france)
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Signed on as France in game 'rp' by your reply address" in reply.body
    assert "France: Army Paris -> Burgundy." in reply.body and "France: Fleet Brest -> Mid-Atlantic Ocean." in reply.body

    reply = reply_among(_send_to(live, "stranger@players.test", address, "A par h"), "stranger@players.test")
    assert "[Error Flag]" in reply.subject and "belongs to a member of game 'rp'" in reply.body
    made_up = "judge+99999999999999999999-abcdefghijklmnopqrst@judge.test"  # beyond any row id
    reply = reply_among(_send_to(live, france, made_up, "A par h"), france)
    assert "no longer signs anybody on" in reply.body

    mails = live.mail(GM, "signon Mrp gmpw\nset no reply to play", expect=1 + 8)
    assert all("Reply to play is now off" in m.body for m in mails if not m.subject.startswith("Re:"))
    assert _reply_to(live, france) is None
    reply = reply_among(_send_to(live, france, address, "A par h"), france)
    assert "[Error Flag]" in reply.subject and "no longer signs anybody on" in reply.body
    live.quiet()
