"""Identity before limits (issue 23, items 7 to 9), over real SMTP: a mail that signs on
correctly is never dropped by a limit others' mails used up; an address gets mail from the
judge only once it has confirmed it wants it."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_e2e_harness as harness
from test_e2e_harness import JUDGE, LiveJudge, Mail, running_judge, start_game

live = harness.live
GM = "gm@players.test"
GAME_LIMIT = 20


@pytest.fixture
def strict(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    """A judge that reads ten mails a minute from one address."""
    yield from running_judge(database_url, tmp_path, sender_mails_per_minute=10)


@pytest.fixture
def busy(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    """A judge that lets twenty mails a minute reach one game."""
    yield from running_judge(database_url, tmp_path, game_mails_per_minute=GAME_LIMIT)


def refills(started: float, per_minute: int) -> int:
    """How many mails a bucket of ``per_minute`` may have got back since ``started`` (it
    refills evenly): the slack a count of replies needs on a loaded machine."""
    return math.ceil((time.monotonic() - started) * per_minute / 60)


def taken(reply: Mail) -> None:
    """The reply says the orders were read and stored, with no error."""
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Army Paris -> Burgundy." in reply.body, reply.body


def test_observers_flooding_sign_ons_do_not_silence_the_players(busy: LiveJudge) -> None:
    """Item 7: six observers send sign-ons well past the game's limit; a player's orders are
    still taken and answered, and the observers' flood is answered once, then not."""
    powers = start_game(busy, "flood")
    watchers = [f"w{n}@strangers.test" for n in range(6)]
    for w in watchers:
        busy.observe(w, "flood", "any")
    started = time.monotonic()
    sent = [busy.send(w, "signon Oflood any") for _ in range(8) for w in watchers]
    busy.settle()
    answered = [m for mid in sent for m in busy.answers(mid)]
    refilled = refills(started, GAME_LIMIT)
    assert 1 <= sum(f"has had more than {GAME_LIMIT} mails in the last minute" in m.body for m in answered) <= 1 + refilled
    assert len(answered) <= GAME_LIMIT + 1 + 2 * refilled < len(sent), "no reply storm"
    mid = busy.send(powers["France"], "signon Fflood pw\nA par - bur")
    busy.settle()
    replies = busy.answers(mid)
    assert len(replies) == 1
    taken(replies[0])


def test_forged_mails_do_not_silence_the_victims_orders(strict: LiveJudge) -> None:
    """Item 8: 35 forged mails from a player's address use up its address's limit (ten a
    minute here); the player's own signed-on orders, from the same address, are still taken
    and answered, and so is a reply to play. The forged flood itself draws a reply a mail up
    to the limit, one that says so, then nothing (as the bucket refills, a few more)."""
    powers = start_game(strict, "forge")
    victim = powers["France"]
    started = time.monotonic()
    forged = [strict.send(victim, "list forge") for _ in range(30)]
    forged += [strict.send(victim, f"signon Fforge guess{n}") for n in range(5)]
    strict.settle()
    told = [m for mid in forged for m in strict.answers(mid)]
    limit = strict.config.sender_mails_per_minute
    assert len(told) <= limit + 1 + 2 * refills(started, limit) < len(forged), "no reply storm"
    assert sum(f"more than {limit} mails in a minute" in m.body for m in told) >= 1
    mid = strict.send(victim, "signon Fforge pw\nA par - bur")
    strict.settle()
    replies = strict.answers(mid)
    assert len(replies) == 1
    taken(replies[0])
    assert replies[0].reply_to.startswith("judge+")
    again = strict.send(victim, "A par - bur", to=replies[0].reply_to)
    strict.settle()
    assert len(strict.answers(again)) == 1 and "Army Paris -> Burgundy." in strict.answers(again)[0].body


def test_an_unconfirmed_observer_gets_one_mail_and_no_broadcast(live: LiveJudge) -> None:
    """Item 9: OBSERVE from forged addresses sends each one confirmation and nothing else;
    a BROADCAST reaches only the observer who confirmed; a reply to the confirmation (to its
    Reply-To) confirms it too."""
    start_game(live, "watch")
    victims = [f"v{n}@elsewhere.test" for n in range(3)]
    asked = {v: live.send(v, "observe watch anything") for v in victims}
    live.settle()
    for v in victims:
        got = [m for m in map(Mail.of, live.relay.messages) if m.to == v]
        assert len(got) == 1 and got[0].in_reply_to == asked[v]
        assert re.search(r"^\s*CONFIRM \S+$", got[0].body, re.MULTILINE), got[0].body
        assert got[0].reply_to.startswith("judge+c"), got[0].reply_to
        assert "observing" not in got[0].body.split("CONFIRM")[0].lower()
    live._seen = len(live.relay.messages)
    live.observe("real@watchers.test", "watch", "secret")
    live.settle()
    broadcast = 1 + 7 + 1  # the reply, the seven players, the master's copy
    mails = live.mail(GM, "signon Mwatch gmpw\nbroadcast\nHello everyone.\nendpress", expect=broadcast + 1)
    to = {m.to for m in mails}
    assert "real@watchers.test" in to
    assert not to & set(victims)
    first = next(m for m in map(Mail.of, live.relay.messages) if m.to == victims[0])
    mid = live.send(victims[0], "Yes, that was me.\n\n> quoted text\n", to=first.reply_to)
    live.settle()
    replies = live.answers(mid)
    assert len(replies) == 1 and "observing game 'watch'" in replies[0].body.lower(), replies[0].body
    live._seen = len(live.relay.messages)
    mails = live.mail(GM, "signon Mwatch gmpw\nbroadcast\nAgain.\nendpress", expect=broadcast + 2)
    assert victims[0] in {m.to for m in mails} and not {m.to for m in mails} & set(victims[1:])


def test_set_address_waits_for_the_new_address(live: LiveJudge) -> None:
    """Item 9: SET ADDRESS to another person's address changes nothing until that address
    confirms; it gets one confirmation mail and nothing else meanwhile."""
    powers = start_game(live, "move")
    france, other = powers["France"], "someone.else@elsewhere.test"
    mails = live.mail(france, f"signon Fmove pw\nset address {other}", expect=2)
    to_other = [m for m in mails if m.to == other]
    assert len(to_other) == 1 and re.search(r"^\s*CONFIRM \S+$", to_other[0].body, re.MULTILINE)
    reply = next(m for m in mails if m.to == france)
    assert other in reply.body and "[Error Flag]" not in reply.subject
    broadcast = 1 + 7 + 1  # the reply, the seven players, the master's copy
    mails = live.mail(GM, "signon Mmove gmpw\nbroadcast\nNews.\nendpress", expect=broadcast)
    assert other not in {m.to for m in mails} and france in {m.to for m in mails}
    mails = live.confirm(other, to_other[0], expect=2)
    done = next(m for m in mails if m.to == other)
    assert "[Error Flag]" not in done.subject and other in done.body, done.body
    assert any(m.to == GM and other in m.body for m in mails), "the master is told of the new address"
    mails = live.mail(GM, "signon Mmove gmpw\nbroadcast\nNews again.\nendpress", expect=broadcast)
    assert other in {m.to for m in mails} and france not in {m.to for m in mails}
    assert JUDGE not in {m.to for m in mails}
