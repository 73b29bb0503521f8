"""Bounded replies over real SMTP (issue 12, item 4): a reply has a size cap, a mail a
command cap, press a size cap, a game a mail rate; HISTORY too long for one mail comes in
numbered parts split between archived mails."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game

live = harness.live
GM = "gm@players.test"
EVERYONE = 8


def _judge(database_url: str, tmp_path: Path, **limits: int) -> Iterator[LiveJudge]:
    yield from harness.running_judge(database_url, tmp_path, **limits)


@pytest.fixture
def small(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    """A judge with short press, so that a test reaches the cap with one mail."""
    yield from _judge(database_url, tmp_path, press_max_bytes=300)


@pytest.fixture
def short(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    """A judge with short replies, so that a few broadcasts make a long HISTORY."""
    yield from _judge(database_url, tmp_path, reply_max_bytes=8_000)


@pytest.fixture
def busy(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    """A judge that lets four mails a minute reach one game."""
    yield from _judge(database_url, tmp_path, game_mails_per_minute=4)


def test_ten_thousand_get_lines_draw_one_bounded_reply(live: LiveJudge) -> None:
    """The attack of the issue: a 140 KB mail of 10,000 'GET commands' lines drew a 47 MB
    reply that the relay refused for ever."""
    text = "GET commands\n" * 10_000
    assert len(text.replace("\n", "\r\n")) >= 140_000
    reply = live.reply("flood@players.test", text)
    size = len(reply.body.encode("utf-8"))
    assert size <= live.config.reply_max_bytes
    assert f"nothing from line {live.config.commands_per_mail + 1} on was read" in reply.body
    assert "were left out: the commands they answer were carried out" in reply.body
    assert reply.subject.endswith("[Error Flag]")
    live.quiet()


def test_history_too_long_for_one_mail_comes_in_parts(short: LiveJudge) -> None:
    start_game(short, "long")
    for n in range(6):
        body = f"Bulletin {n}.\n" + ("A long line of news from the front. " * 2 + "\n") * 30
        short.mail(GM, f"signon Mlong gmpw\nbroadcast\n{body}endpress", expect=1 + EVERYONE)
    short.settle()
    short.send("reader@players.test", "history long")
    first = short.collect(1)[0]
    assert "HISTORY of game 'long', part 1 of" in first.body
    total = int(first.body.split("part 1 of ")[1].split()[0].rstrip("."))
    assert total >= 2
    rest = short.collect(total - 1)
    parts = [first, *sorted(rest, key=lambda m: m.subject)]
    assert [m.subject.split("HISTORY part ")[-1] for m in parts[1:]] == [f"{k} of {total}" for k in range(2, total + 1)]
    bodies = "\n".join(m.body for m in parts)
    for n in range(6):
        assert bodies.count(f"Bulletin {n}.") == 1, "every archived mail once, whole, in one part"
    for m in parts:
        assert len(m.body.encode("utf-8")) <= short.config.reply_max_bytes
        assert m.in_reply_to and m.to == "reader@players.test"
        for chunk in m.body.split("\nDate: ")[1:]:
            assert "Subject: E2E:long" in chunk.splitlines()[0] or chunk.splitlines()[1].startswith("Subject:")


def test_press_over_the_size_cap_is_refused(small: LiveJudge) -> None:
    powers = start_game(small, "big")
    reply = small.reply(powers["France"], "signon Fbig pw\nbroadcast\n" + "x" * 400 + "\nendpress")
    assert "The press message is 400 bytes long; press is at most 300 bytes." in reply.body
    assert reply.subject.endswith("[Error Flag]")
    small.quiet()


def test_a_game_over_its_mail_rate_answers_once_then_not(busy: LiveJudge) -> None:
    """Four mails a minute to one game, from anyone: the create and three sign-ons go
    through, the next mail is answered once, the ones after it not at all."""
    busy.reply(GM, "create ?busy gmpw")
    for n in range(8):
        busy.send(f"p{n}@players.test", f"signon ?busy pw{n}")
    busy.settle()
    replies = busy.collect(len(busy.relay.messages) - busy._seen)
    told = [m for m in replies if "has had more than 4 mails in the last minute" in m.body]
    assert len(told) == 1, "one clear reply when the limit is reached"
    joined = [m for m in replies if "selected to play a power in game 'busy'" in m.body]
    assert 3 <= len(joined) <= 4 and len(replies) == len(joined) + 1, "no reply storm"
    listing = busy.reply("someone@players.test", "list busy").body
    assert listing.count("@players.test") == 1 + len(joined), "the refused sign-ons changed nothing"
