"""Replies from the common mail clients, over real SMTP: the quoted original, its
attribution (wrapped or not) and the phone or Outlook signature are no commands.

Each mail in ``tests/mails/`` is laid out as its client sends a reply to the judge's mail
(the headers, the MIME structure, the quoting); ``{commands}`` is where the player typed.
Before :mod:`judge.mail.quoting`, each of them was answered with an ``[Error Flag]``: the
attribution, the signature or the pasted original read as orders.
"""

from __future__ import annotations

import smtplib
from pathlib import Path

import pytest
from test_e2e_harness import JUDGE, LiveJudge, live  # noqa: F401

MAILS = Path(__file__).parent / "mails"
COMMANDS = ["SIGNON Mclients gmpw", "SET NOLIST", "SET MOVES DELAY 0 MIN 0"]
CLIENTS = ["thunderbird-html-reply", "gmail-wrapped-attribution", "iphone-signature", "outlook-original-below",
           "outlook-new-original-below"]


def client_mail(name: str) -> bytes:
    """The fixture ``name`` with the player's commands put in, in CRLF lines as on the wire."""
    text = (MAILS / f"{name}.eml").read_text()
    text = text.replace("{commands_html}", "<br>".join(COMMANDS)).replace("{commands}", "\n".join(COMMANDS))
    return text.replace("\n", "\r\n").encode()


@pytest.mark.parametrize("client", CLIENTS)
def test_a_reply_from_a_mail_client_is_read_clean(live: LiveJudge, client: str) -> None:  # noqa: F811
    live.reply("gm@players.test", "create ?clients gmpw")
    raw = client_mail(client)
    sender = next(line.split("<")[1].rstrip(">") for line in raw.decode().splitlines() if line.startswith("From:"))
    with smtplib.SMTP("127.0.0.1", live.config.smtp_port, timeout=10) as smtp:
        smtp.sendmail(sender, [JUDGE], raw)
    replies = [m for m in live.collect(1) if m.to == sender]
    assert len(replies) == 1
    reply = replies[0]
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "error" not in reply.body.lower(), reply.body
    assert "wrote" not in reply.body and "iPhone" not in reply.body and "Original" not in reply.body
    assert live.game_value("clients", "listed") is False
