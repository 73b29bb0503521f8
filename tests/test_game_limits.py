"""Identity before limits in the command layer (issue 23, items 7 and 8), on a fixed clock so
the buckets do not refill: strangers' failed sign-ons use up only the game's allowance for
strangers, a member's own allowance is theirs alone, and a mail the inbox flagged over its
From address's limit is read only when it signs on correctly."""

from __future__ import annotations

from dataclasses import replace
from email.message import Message
from pathlib import Path

import pytest
from test_game_helpers import Judge, as_power, password_of, start_standard

from judge.commands import handle_mail
from judge.mail.reader import IncomingMail

LIMIT = 3


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    judge.config = replace(judge.config, game_mails_per_minute=LIMIT, sender_mails_per_minute=LIMIT)
    start_standard(judge)
    return judge


def test_strangers_guessing_passwords_use_up_only_their_own_allowance(judge: Judge) -> None:
    replies = [judge.mail(f"guess{n}@strangers.test", f"signon Fdt guess{n}") for n in range(6)]
    assert [len(r) for r in replies] == [1, 1, 1, 1, 0, 0], "answered up to the limit, told once, then silence"
    assert all("Invalid password" in r[0].body for r in replies[:LIMIT])
    assert f"has had more than {LIMIT} mails in the last minute" in replies[LIMIT][0].body
    reply = next(r for r in as_power(judge, "France", "A par - bur") if r.kind == "reply")
    assert "Army Paris -> Burgundy." in reply.body and "[Error Flag]" not in reply.subject


def test_a_members_allowance_is_their_own(judge: Judge) -> None:
    """France used one mail of the allowance to join; then orders until it is used up: the
    one over it is told so, the next gets nothing; Germany is not touched."""
    bodies = [[r.body for r in as_power(judge, "France", "A par - bur") if r.kind == "reply"] for _ in range(LIMIT + 1)]
    assert all(len(b) == 1 and "Army Paris -> Burgundy." in b[0] for b in bodies[:LIMIT - 1])
    assert len(bodies[LIMIT - 1]) == 1 and f"more than {LIMIT} mails in a minute" in bodies[LIMIT - 1][0]
    assert bodies[LIMIT] == [], "told once, then silence"
    reply = next(r for r in as_power(judge, "Germany", "A mun - ruh") if r.kind == "reply")
    assert "Army Munich -> Ruhr." in reply.body, "another member is not touched"


def _flagged(judge: Judge, sender: str, text: str, over: str) -> tuple[bool, list[str]]:
    last = judge.last_row()
    mail = IncomingMail(f"<f{over}{len(text)}@test>", sender, "", "orders", text, Message(), text.encode(),
                        over_limit=over)
    with judge.factory() as s, s.begin():
        read = handle_mail(s, judge.config, mail, judge.now)
    return read, [r.body for r in judge.since(last)]


def test_a_mail_over_its_addresss_limit_is_read_only_when_it_signs_on(judge: Judge) -> None:
    france = "p2@example.org"
    pw = password_of(judge, "dt", "France")
    assert _flagged(judge, france, "list dt", "quiet") == (False, [])
    assert _flagged(judge, france, "signon Fdt wrong\nA par - bur", "quiet") == (False, [])
    read, bodies = _flagged(judge, france, "list dt", "tell")
    assert not read and len(bodies) == 1 and f"more than {LIMIT} mails in a minute" in bodies[0]
    read, bodies = _flagged(judge, france, f"signon Fdt {pw}\nA par - bur", "quiet")
    assert read and any("Army Paris -> Burgundy." in b for b in bodies)
