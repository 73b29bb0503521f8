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
    assert len(notices) == 6 and all(r.subject == "TEST:dt - S1901M Takeover of France" for r in notices)
    to_master = next(r for r in rows if r.to_addr == "gm@example.org")
    assert to_master.kind == "private", "the master's copy names the newcomer: not in the public archive"
    assert "new@example.org has taken over the abandoned\nFrance in game 'dt'." in to_master.body
    assert all("new@example.org" not in r.body for r in notices)
    assert "Also, a wait has been placed for all active players." in notices[0].body
    assert "Wait has been set automatically for you - send 'set nowait' to clear." in reply.body
    reply = judge.reply("p2@example.org", f"signon Fdt {old}\nA par h")
    assert "Invalid password or power ID specified." in reply.body
    assert "Army Paris" in judge.reply("new@example.org", "signon Fdt newpw\nA par h").body


def test_takeover_sets_the_deadline_again_as_for_a_new_phase(judge: Judge) -> None:
    """njudge 1.7 (mail.c): once no power is left abandoned, deadline(NULL, 1): the clock's
    deadline from now, never earlier than the current one; grace after it, never earlier;
    a wait on every active player."""
    start_standard(judge)
    _resign_france(judge)
    judge.now += timedelta(hours=80)
    reply = judge.reply("new@example.org", "signon Fdt newpw")
    assert "Deadline for 'dt' advanced to Mon Jan 12 2026 23:30:00 +0000." in reply.body
    game = judge.game("dt")
    assert game.deadline == datetime(2026, 1, 12, 23, 30, tzinfo=UTC), "71 hours on is Sunday: Monday 23:30"
    assert game.grace == game.deadline + timedelta(hours=167)
    assert all(p.wait for p in game.players if p.role == "player" and p.status == ACTIVE)


def test_takeover_early_keeps_a_later_deadline_and_waits_while_another_is_open(judge: Judge) -> None:
    start_standard(judge)
    _resign_france(judge)
    judge.mail("p3@example.org", f"signon Gdt {password_of(judge, 'dt', 'Germany')}\nresign")
    before = judge.game("dt").deadline
    reply = judge.reply("new@example.org", "signon Fdt newpw")
    assert "advanced" not in reply.body and "Wait has been set" not in reply.body, "Germany is still abandoned"
    reply = judge.reply("other@example.org", "signon Gdt otherpw")
    assert "Wait has been set" in reply.body and "advanced" not in reply.body, "never earlier, and not moved"
    assert judge.game("dt").deadline == before


def test_a_player_takes_over_one_power_only_and_records_stay_apart(judge: Judge) -> None:
    start_standard(judge)
    _resign_france(judge)
    reply = judge.reply("p1@example.org", f"signon Fdt {password_of(judge, 'dt', 'England')}")
    assert "You are already playing England in game 'dt'." in reply.body
    judge.reply("new@example.org", "signon Fdt newpw")
    france = [p for p in judge.game("dt").players if p.power == "France"]
    assert [(p.email, p.status, p.took_over) for p in france] == [("p2@example.org", "resigned", False),
                                                                  ("new@example.org", "active", True)]


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
