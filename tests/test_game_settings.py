"""A member's own settings refuse bad input and change nothing (issue 11 item 4): SET
PASSWORD, SET ADDRESS (never an address from a display name, never a list), and the reply
address of a mail (its last Reply-To, else its From, as njudge)."""

from __future__ import annotations

from email.message import Message
from pathlib import Path

import pytest
from test_game_helpers import Judge, password_of, start_standard

from judge.commands import handle_mail
from judge.mail.reader import IncomingMail
from judge.store.games import Player

GM = "gm@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(judge)
    return judge


def _france(judge: Judge) -> Player:
    return next(p for p in judge.game("dt").players if p.power == "France")


def test_bad_passwords_and_addresses_change_nothing(judge: Judge) -> None:
    before = _france(judge)
    pw = password_of(judge, "dt", "France")
    reply = judge.reply("p2@example.org", f"signon Fdt {pw}\nset password two words\nset password caf\u00e9\n"
                                          "set address Boss <boss@evil.test>\nset address a@x.test,b@y.test\n"
                                          "set address nobody")
    assert "5 errors" in reply.body
    assert reply.body.count("Write SET PASSWORD new_password") == 2
    assert reply.body.count("Write SET ADDRESS name@example.org: one bare address") == 3
    after = _france(judge)
    assert (after.email, after.password_hash) == (before.email, before.password_hash)


def test_set_address_without_an_address_takes_the_mails_reply_address(judge: Judge) -> None:
    pw = password_of(judge, "dt", "France")
    mail = IncomingMail("<r1@test>", "p2@example.org", "", "orders", f"signon Fdt {pw}\nset address", Message(),
                        b"", reply_to=("first@example.org", "second@example.org"))
    last = judge.last_row()
    with judge.factory() as s, s.begin():
        handle_mail(s, judge.config, mail, judge.now)
    rows = judge.since(last)
    reply = next(r for r in rows if r.kind == "reply")
    assert reply.to_addr == "second@example.org", "the last Reply-To"
    assert "A confirmation was sent to second@example.org" in reply.body
    assert _france(judge).email == "p2@example.org", "not before the new address confirms"
    asked = next(r for r in rows if r.kind == "private")
    rows = judge.confirm("second@example.org", asked)
    assert "goes to second@example.org from now on" in next(r for r in rows if r.kind == "reply").body
    assert _france(judge).email == "second@example.org"
    assert any(r.to_addr == GM and "now receives the game's mail at second@example.org" in r.body for r in rows)
    rows = judge.mail("p2@example.org", f"signon Fdt {pw}\nA par h")
    assert sorted(r.to_addr for r in rows if r.kind == "reply") == ["p2@example.org", "second@example.org"], \
        "a sign-on from an address not the player's own: a copy to the player of record"
