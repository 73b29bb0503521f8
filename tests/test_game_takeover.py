"""Taking over abandoned powers (Bug91-16) and a resigned player's comeback (Bug91-14)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_game_helpers import Judge, password_of, start_standard

from judge.store.games import ACTIVE


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}")


def _resign_france(judge: Judge) -> str:
    old = password_of(judge, "dt", "France")
    judge.mail("p2@example.org", f"signon Fdt {old}\nresign")
    return old


def test_newcomer_takes_over_and_everyone_is_told(judge: Judge) -> None:
    start_standard(judge)
    old = _resign_france(judge)
    rows = judge.mail("new@example.org", "signon Fdt newpw\nA par - bur")
    reply = next(r for r in rows if r.kind == "reply")
    assert "Take over of abandoned France allowed." in reply.body and "[Error Flag]" not in reply.subject
    assert "Army Paris -> Burgundy." in reply.body
    selected = next(r for r in rows if r.kind == "selected")
    assert selected.to_addr == "new@example.org"
    assert "You have been selected as France in game 'dt'." in selected.body
    notices = [r for r in rows if r.kind == "notice"]
    assert len(notices) == 7 and all(r.subject == "TEST:dt - S1901M Takeover of France" for r in notices)
    to_master = next(r for r in notices if r.to_addr == "gm@example.org")
    assert "new@example.org has taken over the abandoned\nFrance in game 'dt'." in to_master.body
    assert all("new@example.org" not in r.body for r in notices if r.to_addr != "gm@example.org")
    reply = judge.reply("p2@example.org", f"signon Fdt {old}\nA par h")
    assert "Invalid password or power ID specified." in reply.body
    assert "Army Paris" in judge.reply("new@example.org", "signon Fdt newpw\nA par h").body


def test_takeover_near_the_deadline_gives_time(judge: Judge) -> None:
    start_standard(judge)
    _resign_france(judge)
    judge.now += timedelta(hours=80)
    reply = judge.reply("new@example.org", "signon Fdt newpw")
    assert "Deadline for 'dt' advanced to" in reply.body
    game = judge.game("dt")
    assert game.deadline == datetime(2026, 1, 12, 23, 30, tzinfo=UTC), "71 hours on is Sunday: Monday 23:30"
    assert game.grace == game.deadline + timedelta(hours=167)


def test_resigned_player_comes_back(judge: Judge) -> None:
    start_standard(judge)
    old = _resign_france(judge)
    rows = judge.mail("p2@example.org", f"signon Fdt {old}")
    reply = next(r for r in rows if r.kind == "reply")
    assert "You have returned as France in game 'dt'." in reply.body
    notices = [r for r in rows if r.kind == "notice"]
    assert notices and all("p2@example.org has returned as France" in r.body for r in notices)
    assert notices[0].subject == "TEST:dt - S1901M player returned as France"
    france = [p for p in judge.game("dt").players if p.power == "France"]
    assert len(france) == 1 and france[0].status == ACTIVE


def test_who_cannot_take_over(judge: Judge) -> None:
    start_standard(judge)
    judge.mail("gm@example.org", "signon Mdt gmpw\neject France")
    reply = judge.reply("p2@example.org", "signon Fdt again")
    assert "You were ejected from France" in reply.body
    reply = judge.reply("gm@example.org", "signon Fdt gmpw")
    assert "cannot take over a power" in reply.body
    reply = judge.reply("new@example.org", "signon Gdt guess")
    assert "Invalid password or power ID specified." in reply.body
    assert judge.game("dt").players[-1].email != "new@example.org"
