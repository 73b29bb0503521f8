"""Grace and lateness (njudge data/deadlines, dip.c): the reminder, the late notices at the
deadline and each day of grace, each sent once; NMR (process at the end of grace, missed
counts) and NoNMR (abandon, wait, master's PROCESS); min and SET START; the master's clock
commands. The clock is the test's own (a Judge on a real SQLite file)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_game_helpers import Judge, password_of, start_standard

from judge.config import Config
from judge.game.clocks import clocks_of
from judge.store.games import ABANDONED, Game

SPRING = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "France": "A par h\nA mar h\nF bre h", "Germany": "A mun h\nA ber h\nF kie h",
    "Italy": "A ven h\nA rom h\nF nap h", "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h",
    "Turkey": "F ank h\nA con h\nA smy h",
}
GM = "gm@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}")


def _address(power: str) -> str:
    return f"p{'AEFGIRT'.index(power[0])}@example.org"


def _order(judge: Judge, power: str, text: str | None = None, extra: str = "") -> None:
    judge.reply(_address(power), f"signon {power[0]}dt {password_of(judge, 'dt', power)}\n{extra}"
                f"{SPRING[power] if text is None else text}")


def _master(judge: Judge, text: str) -> str:
    reply = judge.reply(GM, f"signon Mdt gmpw\n{text}")
    assert "[Error Flag]" not in reply.subject, reply.body
    return reply.body


def test_defaults_are_njudges(tmp_path: Path) -> None:
    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}",
                  config=Config(code="TEST", address="judge@example.org", data_dir=tmp_path))
    start_standard(judge)
    game = judge.game("dt")
    # njudge: "Move clock 1410 min 12 next 71 grace 167 delay 0.5": started Monday noon, the
    # deadline is at 23:30 at least 71 hours on (Thursday), grace 167 hours after that.
    assert game.deadline == datetime(2026, 1, 8, 23, 30, tzinfo=UTC)
    assert game.grace == game.deadline + timedelta(hours=167)
    assert game.start_at == judge.now + timedelta(hours=12), "min 12: the earliest processing"
    clocks = clocks_of(game.clocks)
    assert clocks["M"].describe() == "clock 1410 min 12.00 next  71.00 grace 167.00 delay 0.50 days -MTWTF-"
    assert (clocks["R"].next, clocks["R"].grace, clocks["R"].clock, clocks["R"].min) == (23, 71, None, 0)
    assert (game.nmr, game.reminder, game.max_absence) == (False, 8, 15), "NoNMR, 8 hours, 15 days"
    listing = judge.reply("x@example.org", "list dt").body
    assert "Flags:  NoNMR" in listing and "reminder 8 hours before the deadline" in listing
    assert "The earliest orders will be processed is Tue Jan 06 2026 00:00:00 +0000." in listing


def test_min_hours_hold_back_a_phase_whose_orders_are_all_in(tmp_path: Path) -> None:
    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}",
                  config=Config(code="TEST", address="judge@example.org", data_dir=tmp_path,
                                clocks={"M": "delay 0"}, reminder_hours=0))
    start_standard(judge)
    for power in SPRING:
        _order(judge, power)
    game = judge.game("dt")
    assert game.phase == "S1901M" and game.process_at == judge.now + timedelta(hours=12)
    assert judge.tick("dt", 11.9) is False
    assert judge.step("dt") and judge.game("dt").phase == "F1901M"


def test_one_reminder_per_deadline_to_those_without_orders(judge: Judge) -> None:
    start_standard(judge)
    _master(judge, "set reminder 8")
    _order(judge, "France")
    _order(judge, "Germany", "A mun h")
    _order(judge, "Italy", "A ven h\nA rom h\nF nap - xyz")
    deadline = judge.game("dt").deadline
    assert deadline is not None and judge.due("dt") == deadline - timedelta(hours=8)
    rows = judge.step("dt")
    assert sorted(r.to_addr for r in rows) == sorted(_address(p) for p in SPRING if p != "France")
    assert all(r.kind == "reminder" and r.subject == "TEST:dt - S1901M Reminder" for r in rows)
    germany = next(r for r in rows if r.to_addr == _address("Germany"))
    assert "There is less than 9 hours to the deadline and you\nhave not yet placed complete and valid orders." \
        in germany.body
    assert "Germany: Army Munich HOLD." in germany.body and "Time to deadline: 8 hours" in germany.body
    italy = next(r for r in rows if r.to_addr == _address("Italy"))
    assert "but you\nneed to clear your error status with a valid message." in italy.body
    assert judge.due("dt") == deadline, "the next event is the deadline: no second reminder"
    _master(judge, f"set deadline {(deadline + timedelta(days=2)):%Y-%m-%d %H:%M} UTC")
    assert judge.due("dt") == deadline + timedelta(days=2, hours=-8), "the deadline moved: one more reminder"
    assert len(judge.step("dt")) == 6


def test_late_notices_at_the_deadline_and_each_day_of_grace_once(judge: Judge) -> None:
    start_standard(judge)
    for power in list(SPRING)[:-2]:
        _order(judge, power, extra="set wait\n" if power == "Austria" else "")
    game = judge.game("dt")
    assert judge.due("dt") == game.deadline
    rows = judge.step("dt")
    late = [r for r in rows if r.kind == "late"]
    assert sorted(r.to_addr for r in late) == [_address("Russia"), _address("Turkey")]
    assert all(r.subject == "[You are late!] TEST:dt - S1901M Late Notice: RT" for r in late)
    notices = [r for r in rows if r.kind == "notice"]
    assert len(notices) == 6 and {r.to_addr for r in notices} == {GM, *(_address(p) for p in list(SPRING)[:-2])}
    body = notices[0].body
    assert "Diplomacy game 'dt' is waiting for Russia's orders.\nDiplomacy game 'dt' is waiting for Turkey's orders." \
        in body
    assert "These powers will be considered in civil disorder if orders are\nnot received by" in body
    assert "Your orders for Turkey were not complete at the deadline" in late[1].body
    assert judge.tick("dt", 1) is False, "nothing more is due within the day"
    assert judge.due("dt") == game.deadline + timedelta(hours=24)
    assert len(judge.step("dt")) == 8, "the second day's notice: to the two late players and the six others"
    game = judge.game("dt")
    assert game.late_notices == 2 and game.late_notice_sent
    assert {p.power: p.late_notices for p in game.players if p.power in ("Russia", "Turkey")} == \
        {"Russia": 2, "Turkey": 2}
    judge.now += timedelta(hours=100)
    rows = judge.step("dt")
    assert len(rows) == 8, "a judge that was down sends today's notice only, not the ones it missed"
    assert judge.due("dt") == game.deadline + timedelta(hours=24 * 6)
    _order(judge, "Russia")
    _order(judge, "Turkey")
    game = judge.game("dt")
    assert game.phase == "F1901M" and game.late_notices == 0 and not game.late_notice_sent
    counts = {p.power: (p.on_time, p.late_phases, p.nmr_count) for p in game.players if p.power}
    assert counts["France"] == (1, 0, 0) and counts["Turkey"] == (0, 1, 0), "late in grace: late, not missed"


def test_nmr_grace_end_processes_and_counts_missed_orders(judge: Judge) -> None:
    start_standard(judge)
    _order(judge, "France")
    _order(judge, "Germany", "A mun h")
    judge.step("dt")
    assert judge.game("dt").phase == "S1901M"
    assert judge.tick("dt", 166) is True, "the daily notices"
    judge.now = judge.game("dt").grace_end or judge.now
    rows = judge.step("dt")
    assert sum(r.kind == "result" for r in rows) == 8
    game = judge.game("dt")
    assert game.phase == "F1901M"
    missed = {p.power: p.nmr_count for p in game.players if p.power}
    assert missed["France"] == 0 and missed["Germany"] == 1 and missed["Turkey"] == 1


def test_nonmr_grace_end_abandons_and_the_game_waits(judge: Judge) -> None:
    start_standard(judge)
    _master(judge, "set nonmr\nset grace 24")
    for power in list(SPRING)[:-1]:
        _order(judge, power)
    deadline = judge.game("dt").deadline
    rows = judge.step("dt")
    late = next(r for r in rows if r.kind == "late")
    assert "This power will be considered abandoned and free for takeover\nif orders are not received by" in late.body
    rows = judge.step("dt")
    assert judge.now == (deadline or judge.now) + timedelta(hours=24), "the end of grace"
    assert {r.kind for r in rows} == {"notice"} and len(rows) == 8, "everyone, the abandoned player too"
    assert rows[0].subject == "TEST:dt - S1901M Waiting for Replacements: T"
    assert "Turkey in game 'dt' is now considered abandoned and free for takeover." in rows[0].body
    assert "SIGNON Tdt password      (Turkey)" in rows[0].body
    game = judge.game("dt")
    turkey = next(p for p in game.players if p.power == "Turkey")
    assert game.phase == "S1901M" and turkey.status == ABANDONED and turkey.nmr_count == 1
    assert turkey.abandonments == 1
    listing = judge.reply("x@example.org", "list dt").body
    assert "   Turkey     open" in listing and "SIGNON Tdt password takes it over" in listing
    assert "This power is abandoned and free for takeover: Turkey." in listing
    assert "Open for takeover: Turkey." in judge.reply("x@example.org", "list").body
    assert judge.due("dt") == game.grace_end + timedelta(hours=48)
    assert judge.tick("dt", 47) is False
    rows = judge.step("dt")
    assert len(rows) == 7 and "Diplomacy game 'dt' is waiting for someone to take over the abandoned Turkey." \
        in rows[0].body and "now considered abandoned" not in rows[0].body
    body = _master(judge, "process")
    assert "processed" in body and judge.game("dt").phase == "F1901M"
    assert judge.game("dt").deadline is not None


def test_nonmr_waits_for_a_resigned_power_and_nmr_does_not(judge: Judge) -> None:
    start_standard(judge)
    _master(judge, "set nonmr")
    judge.mail(_address("Turkey"), f"signon Tdt {password_of(judge, 'dt', 'Turkey')}\nresign")
    for power in list(SPRING)[:-1]:
        _order(judge, power)
    assert judge.game("dt").phase == "S1901M", "NoNMR: no orders are processed until Turkey is taken over"
    rows = judge.step("dt")
    assert len(rows) == 7 and rows[0].subject == "TEST:dt - S1901M Late Notice: T"
    assert "waiting for someone to take over the abandoned Turkey" in rows[0].body
    _master(judge, "set nmr")
    assert judge.step("dt") and judge.game("dt").phase == "F1901M", "NMR: an open power is in civil disorder"


def test_set_start_holds_the_first_deadline_and_early_processing(judge: Judge) -> None:
    judge.mail(GM, "create ?dt gmpw standard\nset start 2026-01-20 18:00 UTC\nset moves clock -1 next 24")
    for i, letter in enumerate("AEFGIRT"):
        judge.mail(f"p{i}@example.org", f"signon ?dt pw{i}\nset preference {letter}")
    game = judge.game("dt")
    assert game.deadline == datetime(2026, 1, 20, 18, 0, tzinfo=UTC), "no sooner than SET START"
    for power in SPRING:
        _order(judge, power)
    game = judge.game("dt")
    assert game.phase == "S1901M" and game.process_at == datetime(2026, 1, 20, 18, 0, tzinfo=UTC)
    judge.step("dt")
    assert judge.game("dt").phase == "F1901M"
    body = _master(judge, "set start 2026-02-10 12:00 UTC")
    assert "will not be processed before" in body and "Its deadline has been moved to that date" in body
    assert judge.game("dt").deadline == datetime(2026, 2, 10, 12, 0, tzinfo=UTC)


def test_master_sets_grace_and_phase_lengths(judge: Judge) -> None:
    start_standard(judge)
    game = judge.game("dt")
    reply = judge.reply(GM, "signon Mdt gmpw\nset grace 12\nset moves next 48 grace 24\n"
                        "set retreats 12\nset builds grace 6")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Grace period for 'dt' ends" in reply.body and "48 hours after the phase starts" in reply.body
    game = judge.game("dt")
    assert game.grace == game.deadline + timedelta(hours=12)
    clocks = clocks_of(game.clocks)
    assert (clocks["M"].next, clocks["M"].grace, clocks["R"].next, clocks["B"].grace) == (48, 24, 12, 6)
    old = game.deadline
    judge.now = old + timedelta(hours=1)
    judge.reply(GM, "signon Mdt gmpw\nprocess")
    game = judge.game("dt")
    assert game.deadline == datetime(2026, 1, 12, 23, 30, tzinfo=UTC), "48 hours on, at 23:30, not on Sunday"
    assert game.grace == game.deadline + timedelta(hours=24)


def test_next_deadline_and_grace_never_before_the_last_ones(judge: Judge) -> None:
    start_standard(judge)
    old: Game = judge.game("dt")
    _master(judge, "set grace 2026-02-20 12:00 UTC\nset moves next 24 clock -1")
    for power in SPRING:
        _order(judge, power)
    assert judge.step("dt") and judge.game("dt").phase == "F1901M", "processed early: every order is in"
    game = judge.game("dt")
    assert game.deadline == old.deadline, "njudge: never earlier than the last processed phase's deadline"
    assert game.grace == datetime(2026, 2, 20, 12, 0, tzinfo=UTC), "nor grace earlier than the last grace"


def test_a_phase_the_master_processes_ends_then(judge: Judge) -> None:
    """A master's PROCESS moves the deadline to now (njudge's one exception to the floor: the
    master resets the deadline earlier): the next phase takes its own clock."""
    start_standard(judge)
    _master(judge, "set grace 2026-02-20 12:00 UTC\nset moves next 24 clock -1\nprocess")
    game = judge.game("dt")
    assert game.deadline == judge.now + timedelta(hours=24)
    assert game.grace == game.deadline + timedelta(hours=167)


def test_set_deadline_without_a_time_takes_the_clock_time(judge: Judge) -> None:
    start_standard(judge)
    _master(judge, "set deadline Jan 15")
    assert judge.game("dt").deadline == datetime(2026, 1, 15, 23, 30, tzinfo=UTC)
    _master(judge, "set moves clock -1\nset retreats clock 20:00")
    assert judge.game("dt").deadline == datetime(2026, 1, 15, 23, 30, tzinfo=UTC), "later phases only"


def test_grace_errors_and_deadline_extension(judge: Judge) -> None:
    start_standard(judge)
    reply = judge.reply(GM, "signon Mdt gmpw\nset grace 2026-01-06 12:00 UTC\n"
                        "set moves clock 25:00\nset moves\nset grace 99999\nset builds days -MTWTFX\n"
                        "set reminder soon\nset max absence 40\nset start yesterday")
    assert "8 errors" in reply.body
    assert "cannot end before the deadline" in reply.body and "Cannot read the clock time '25:00'" in reply.body
    assert "Give the settings: [NEXT h]" in reply.body and "Days are seven letters" in reply.body
    assert "Write SET REMINDER hours" in reply.body and "Write SET MAX ABSENCE days: 0" in reply.body
    reply = judge.reply("p0@example.org", f"signon Adt {password_of(judge, 'dt', 'Austria')}\nset grace 5\nset nmr")
    assert reply.body.count("Only the master") == 2
    rows = judge.mail(GM, "signon Mdt gmpw\nset deadline 2026-02-01 12:00 UTC")
    game = judge.game("dt")
    assert game.grace == datetime(2026, 2, 9, 11, 0, tzinfo=UTC), "167 hours on is a Sunday: grace slides to Monday"
    assert sum("Grace period for 'dt' changed to" in r.body for r in rows if r.kind == "notice") == 8


def test_lateness_settings_are_told_to_everyone(judge: Judge) -> None:
    start_standard(judge)
    rows = judge.mail(GM, "signon Mdt gmpw\nset nonmr\nset reminder 12\nset max absence 0")
    notices = [r for r in rows if r.kind == "notice"]
    assert len(notices) == 8 and notices[0].subject == "TEST:dt - S1901M Settings Changed"
    body = notices[0].body
    assert "Game 'dt' is now NoNMR" in body and "reminded 12 hours" in body and "may not declare absences" in body
    game = judge.game("dt")
    assert (game.nmr, game.reminder, game.max_absence) == (False, 12, 0)
