"""HISTORY name [FROM date] [TO date] [LINES n]: the period, the line cap, the errors, and
the dates read looking back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_game_helpers import Judge, start_standard

from judge.game.deadlines import DeadlineError, parse_past
from judge.game.history import fit, read_request


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}", now=datetime.now(UTC))


def test_history_period_and_lines(judge: Judge) -> None:
    start_standard(judge)
    judge.reply("gm@example.org", "signon Mdt gmpw\nprocess")
    whole = judge.reply("obs@example.org", "history dt").body
    assert whole.count("Subject: TEST:dt - ") == 2 and "S1901M Results" in whole
    assert judge.reply("obs@example.org", "history dt from Jan 1 1990").body == whole
    assert "has no mail" in judge.reply("obs@example.org", "history dt from Jan 1 1990 to 2000-01-01").body
    short = judge.reply("obs@example.org", "history dt from Jan 1 1990 lines 12").body
    assert "Game Starting" in short and "S1901M Results" not in short
    assert "1 more mail did not fit in 12 lines and was left out" in short
    assert "(mails are never cut)" in short
    later = (judge.now + timedelta(days=2)).strftime("%Y-%m-%d")
    none = judge.reply("obs@example.org", f"history dt from {later}").body
    assert "Game 'dt' has no mail from" in none
    early = judge.reply("obs@example.org", f"history dt to {(judge.now - timedelta(days=10)):%Y-%m-%d}").body
    assert early == whole, "a TO before the default FROM is ignored"


def test_history_errors(judge: Judge) -> None:
    start_standard(judge)
    for text, message in (("history dt lines many", "LINES takes one whole number"),
                          ("history dt extra", "Cannot read 'extra'"),
                          ("history dt from someday", "Cannot read 'someday'"),
                          ("history nosuch", "There is no game called 'nosuch'."),
                          ("history", "Name the game")):
        reply = judge.reply("obs@example.org", text)
        assert message in reply.body and reply.subject.endswith("[Error Flag]"), text


def test_read_request_and_fit() -> None:
    now = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
    req = read_request(("foo", "FROM", "Jan", "1,", "2003", "LINES", "5000"), now, UTC)
    assert (req.game, req.start, req.end, req.lines) == ("foo", datetime(2003, 1, 1, tzinfo=UTC), None, 5000)
    assert read_request((), now, UTC).start == now - timedelta(days=7)
    mails = [(now, "a", "1\n2\n3", None), (now, "b", "1\n2\n3\n4\n5", None)]
    assert fit(mails, 100) == (mails, 0)
    assert fit(mails, 16) == (mails, 0)
    assert fit(mails, 15) == ([mails[0]], 1), "a mail that does not fit is left out whole"
    assert fit(mails, 2) == ([mails[0]], 1), "the first mail is always given whole"


@pytest.mark.parametrize(("text", "expected"), [
    ("Jan 1", datetime(2026, 1, 1, tzinfo=UTC)),
    ("Dec 31 23:59", datetime(2025, 12, 31, 23, 59, tzinfo=UTC)),
    ("15", datetime(2026, 5, 15, tzinfo=UTC)),
    ("mon", datetime(2026, 6, 8, tzinfo=UTC)),
    ("2026-06-01 18:00", datetime(2026, 6, 1, 18, 0, tzinfo=UTC)),
])
def test_parse_past(text: str, expected: datetime) -> None:
    assert parse_past(text, datetime(2026, 6, 10, 12, 0, tzinfo=UTC)) == expected


def test_parse_past_errors() -> None:
    with pytest.raises(DeadlineError):
        parse_past("", datetime(2026, 6, 10, tzinfo=UTC))
