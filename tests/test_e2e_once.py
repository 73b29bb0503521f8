"""No reminder, late notice or result is sent twice for one event (issue 11 item 2): two judge
processes on one database (PostgreSQL, and a SQLite file) with their schedulers racing for
the same deadlines, then a judge stopped before a deadline and started after it, over real
SMTP. The judges' clock is moved on to each moment (both read it, their game processes too:
these judges run the game work where a judge does by default, in a process of its own on
PostgreSQL). What was sent is recorded in the game's row under its row lock, in the
transaction of the mails."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path

from conftest import CaptureSMTP
from test_e2e_harness import LiveJudge, Mail, later, start_game
from test_e2e_lateness import HOLDS

from judge import clock

GM = "gm@players.test"


def _all(relay: CaptureSMTP) -> list[Mail]:
    return [Mail.of(c) for c in relay.messages]


EVENTS = ("Reminder", "Late Notice", "Results", "Waiting for Replacements")


def _once(mails: list[Mail]) -> Counter[tuple[str, str]]:
    """The (recipient, subject) of every lateness notice and result, each seen once."""
    counts = Counter((m.to, m.subject) for m in mails if any(e in m.subject for e in EVENTS))
    twice = {k: n for k, n in counts.items() if n > 1}
    assert not twice, twice
    return counts


def _wait(relay: CaptureSMTP, count: int, timeout: float = 25) -> None:
    relay.wait_for(count, timeout)


def _nothing_more(relay: CaptureSMTP, seconds: float) -> None:
    """Give a racing judge ``seconds`` to send a duplicate: returns as soon as any mail comes
    (the caller's count then fails), else after ``seconds``."""
    relay.wait_for(len(relay.messages) + 1, timeout=seconds, strict=False)


def test_two_judges_on_one_database_send_each_notice_once(database_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP().start()
    one = LiveJudge(database_url, relay, tmp_path, game_process=None)
    two = LiveJudge(database_url, relay, tmp_path, game_process=None)
    try:
        powers = start_game(one, "twin")
        for power, orders in list(HOLDS.items())[:-1]:
            one.reply(powers[power], f"signon {power[0]}twin pw\n{orders}")
        before = len(relay.messages)
        two.send(GM, f"signon Mtwin gmpw\nset reminder 1\nset deadline {later(days=1)}\nset grace 2")
        _wait(relay, before + 1 + 8)
        clock.advance(timedelta(days=1, minutes=-59))
        _wait(relay, before + 1 + 8 + 1)
        clock.advance(timedelta(minutes=60))
        _wait(relay, before + 1 + 8 + 1 + 8)
        clock.advance(timedelta(hours=2))
        _wait(relay, before + 1 + 8 + 1 + 8 + 8)
        _nothing_more(relay, 2.5)
        mails = _all(relay)[before:]
        counts = _once(mails)
        assert counts[(powers["Turkey"], "E2E:twin - S1901M Reminder")] == 1
        assert counts[(powers["Turkey"], "[You are late!] E2E:twin - S1901M Late Notice: T")] == 1
        assert sum(n for (_, s), n in counts.items() if s == "E2E:twin - S1901M Late Notice: T") == 7
        assert sum(n for (_, s), n in counts.items() if s == "E2E:twin - S1901M Results") == 8
        assert len(mails) == 1 + 8 + 1 + 8 + 8, [m.subject for m in mails]
    finally:
        two.stop()
        one.stop()
        relay.stop()


def test_a_judge_stopped_before_the_deadline_sends_its_notice_once_after(database_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP().start()
    first = LiveJudge(database_url, relay, tmp_path, game_process=None)
    second: LiveJudge | None = None
    try:
        powers = start_game(first, "rest")
        for power, orders in list(HOLDS.items())[:-1]:
            first.reply(powers[power], f"signon {power[0]}rest pw\n{orders}")
        first.mail(GM, f"signon Mrest gmpw\nset deadline {later(hours=1)}\nset grace 36", expect=1 + 8)
        first.stop()
        clock.advance(timedelta(hours=1, seconds=1))  # no judge runs across the deadline
        before = len(relay.messages)
        second = LiveJudge(database_url, relay, tmp_path, game_process=None)
        _wait(relay, before + 8)
        third = LiveJudge(database_url, relay, tmp_path, game_process=None)
        try:
            _nothing_more(relay, 2)
        finally:
            third.stop()
        second.stop()
        second = LiveJudge(database_url, relay, tmp_path, game_process=None)
        _nothing_more(relay, 2)
        mails = _all(relay)[before:]
        counts = _once(mails)
        assert len(mails) == 8 and counts[(powers["Turkey"], "[You are late!] E2E:rest - S1901M Late Notice: T")] == 1
        second._seen = len(relay.messages)
        replies = second.mail(powers["Turkey"], f"signon Trest pw\n{HOLDS['Turkey']}", expect=1 + 8)
        assert sum(m.subject == "E2E:rest - S1901M Results" for m in replies) == 8
        second.quiet()
        _once(_all(relay))
    finally:
        if second is not None:
            second.stop()
        relay.stop()
