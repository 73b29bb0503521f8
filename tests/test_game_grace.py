"""Grace and lateness: the late notice at the deadline (once), processing when the late
orders arrive or when grace ends, missed-order counts, and the master's clock commands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_game_helpers import Judge, password_of, start_standard

from judge.game.clocks import clocks_of
from judge.game.processing import pending_deadlines
from judge.store.games import Game

SPRING = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "France": "A par h\nA mar h\nF bre h", "Germany": "A mun h\nA ber h\nF kie h",
    "Italy": "A ven h\nA rom h\nF nap h", "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h",
    "Turkey": "F ank h\nA con h\nA smy h",
}


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}")


def _order(judge: Judge, power: str, text: str | None = None, extra: str = "") -> None:
    letter = power[0]
    judge.reply(f"p{'AEFGIRT'.index(letter)}@example.org",
                f"signon {letter}dt {password_of(judge, 'dt', power)}\n{extra}{text or SPRING[power]}")


def _until_deadline(judge: Judge, game: Game) -> float:
    assert game.deadline is not None
    return (game.deadline - judge.now).total_seconds() / 3600


def test_defaults_are_njudge_like(judge: Judge) -> None:
    start_standard(judge)
    game = judge.game("dt")
    # njudge: "Move clock 1410 min 12 next 71 grace 167": started Monday noon, the deadline is
    # at 23:30 at least 71 hours on (Thursday), grace 167 hours after that.
    assert game.deadline == datetime(2026, 1, 8, 23, 30, tzinfo=UTC)
    assert game.grace == game.deadline + timedelta(hours=167)
    clocks = clocks_of(game.clocks)
    assert clocks["M"].describe() == "clock 1410 min 12.00 next  71.00 grace 167.00 delay 0.00 days -MTWTF-"
    assert (clocks["R"].next, clocks["R"].grace, clocks["R"].clock) == (23, 71, None)


def test_late_notice_once_then_late_orders_process(judge: Judge) -> None:
    start_standard(judge)
    for power in list(SPRING)[:-1]:
        _order(judge, power, extra="set wait\n" if power == "Austria" else "")
    game = judge.game("dt")
    assert pending_deadlines_of(judge) == [("dt", game.deadline)]
    last = judge.since(0)[-1].id
    assert judge.tick("dt", _until_deadline(judge, game)) is True
    rows = judge.since(last)
    assert [(r.kind, r.to_addr) for r in rows] == [("late", "p6@example.org"), ("notice", "gm@example.org")]
    assert "Late Notice: Turkey" in rows[0].subject and "were not complete at the deadline" in rows[0].body
    assert rows[1].subject.endswith("Late: Turkey") and "Orders are late from: Turkey." in rows[1].body
    game = judge.game("dt")
    assert game.phase == "S1901M" and game.late_notice_sent
    assert pending_deadlines_of(judge) == [("dt", game.grace)]
    assert judge.tick("dt", 1) is False and judge.since(rows[-1].id) == []
    _order(judge, "Turkey")
    game = judge.game("dt")
    assert game.phase == "F1901M" and not game.late_notice_sent
    assert all(p.nmr_count == 0 for p in game.players)


def test_grace_end_processes_and_counts_missed_orders(judge: Judge) -> None:
    start_standard(judge)
    _order(judge, "France")
    _order(judge, "Germany", "A mun h")
    assert judge.tick("dt", _until_deadline(judge, judge.game("dt"))) is True
    assert judge.game("dt").phase == "S1901M"
    assert judge.tick("dt", 166) is False
    assert judge.tick("dt", 1) is True
    game = judge.game("dt")
    assert game.phase == "F1901M"
    missed = {p.power: p.nmr_count for p in game.players if p.power}
    assert missed["France"] == 0 and missed["Germany"] == 1 and missed["Turkey"] == 1


def test_complete_orders_at_the_deadline_process_despite_wait(judge: Judge) -> None:
    start_standard(judge)
    for power in SPRING:
        _order(judge, power, extra="set wait\n" if power == "Italy" else "")
    assert judge.game("dt").phase == "S1901M"
    assert judge.tick("dt", _until_deadline(judge, judge.game("dt"))) is True
    assert judge.game("dt").phase == "F1901M"


def test_resigned_power_is_never_late(judge: Judge) -> None:
    start_standard(judge)
    judge.mail("p6@example.org", f"signon Tdt {password_of(judge, 'dt', 'Turkey')}\nresign")
    for power in list(SPRING)[:-1]:
        _order(judge, power)
    assert judge.game("dt").phase == "F1901M"


def test_master_sets_grace_and_phase_lengths(judge: Judge) -> None:
    start_standard(judge)
    game = judge.game("dt")
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset grace 12\nset moves next 48 grace 24\n"
                        "set retreats 12\nset builds grace 6")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Grace period for 'dt' ends" in reply.body and "48 hours after the phase starts" in reply.body
    game = judge.game("dt")
    assert game.grace == game.deadline + timedelta(hours=12)
    clocks = clocks_of(game.clocks)
    assert (clocks["M"].next, clocks["M"].grace, clocks["R"].next, clocks["B"].grace) == (48, 24, 12, 6)
    old = game.deadline
    judge.now = old + timedelta(hours=1)
    judge.reply("gm@example.org", "signon Mdt gmpw\nprocess")
    game = judge.game("dt")
    assert game.deadline == datetime(2026, 1, 12, 23, 30, tzinfo=UTC), "48 hours on, at 23:30, not on Sunday"
    assert game.grace == game.deadline + timedelta(hours=24)


def test_next_deadline_never_before_the_last_one(judge: Judge) -> None:
    start_standard(judge)
    old = judge.game("dt").deadline
    judge.reply("gm@example.org", "signon Mdt gmpw\nset moves next 24 clock -1\nprocess")
    assert judge.game("dt").deadline == old, "njudge: never earlier than the last processed phase's deadline"


def test_grace_errors_and_deadline_extension(judge: Judge) -> None:
    start_standard(judge)
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset grace 2026-01-06 12:00 UTC\n"
                        "set moves clock 25:00\nset moves\nset grace 99999\nset builds days -MTWTFX")
    assert "5 errors" in reply.body
    assert "cannot end before the deadline" in reply.body and "Cannot read the clock time '25:00'" in reply.body
    assert "Give the settings: [NEXT h]" in reply.body and "Days are seven letters" in reply.body
    reply = judge.reply("p0@example.org", f"signon Adt {password_of(judge, 'dt', 'Austria')}\nset grace 5")
    assert "Only the master" in reply.body
    rows = judge.mail("gm@example.org", "signon Mdt gmpw\nset deadline 2026-02-01 12:00 UTC")
    game = judge.game("dt")
    assert game.grace == datetime(2026, 2, 9, 11, 0, tzinfo=UTC), "167 hours on is a Sunday: grace slides to Monday"
    assert sum("Grace period for 'dt' changed to" in r.body for r in rows if r.kind == "notice") == 8


def pending_deadlines_of(judge: Judge) -> list:
    with judge.factory() as s:
        return pending_deadlines(s)
