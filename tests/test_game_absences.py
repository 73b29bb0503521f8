"""Absences exactly as njudge's data/absence describes them (issue 11 item 4): the help
file's example played on the test's own clock (Friday 30 June 2028 is a Friday, as in the
help), the game's maximum, the master's absences, SET NOABSENCE and bad requests."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from test_game_helpers import Judge, password_of, start_standard

from judge.store.games import Absence

GM = "gm@example.org"
FRANCE = "p2@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}", now=datetime(2028, 6, 26, 12, 0, tzinfo=UTC))
    start_standard(judge)
    judge.mail(GM, "signon Mdt gmpw\nset deadline Fri Jun 30 2028 23:30\nset moves min 12")
    judge.now = datetime(2028, 6, 29, 10, 0, tzinfo=UTC)
    return judge


def _france(judge: Judge, text: str) -> str:
    return judge.reply(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}\n{text}").body


def _process_at_the_deadline(judge: Judge) -> datetime:
    game = judge.game("dt")
    assert game.deadline == datetime(2028, 6, 30, 23, 30, tzinfo=UTC)
    judge.now = game.deadline
    judge.reply(GM, "signon Mdt gmpw\nprocess")
    deadline = judge.game("dt").deadline
    assert deadline is not None
    return deadline


def _absences(judge: Judge) -> list[tuple[datetime, datetime]]:
    with judge.factory() as s:
        return [(a.starts, a.ends) for a in s.query(Absence).order_by(Absence.starts)]


def test_the_help_files_example(judge: Judge) -> None:
    body = _france(judge, "set absence 29 Jun")
    assert "France: Absence requested from\nThu Jun 29 2028 00:00:00 +0000 to Fri Jun 30 2028 00:00:00 +0000." in body
    assert "This does not move the current deadline, Fri Jun 30 2028 23:30:00 +0000" in body
    _france(judge, "set noabsence 29 Jun")
    assert _absences(judge) == []
    rows = judge.mail(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}\nset absence 3 Jul to 7 Jul")
    to_master = next(r for r in rows if r.to_addr == GM)
    assert to_master.kind == "private" and to_master.subject == "TEST:dt - S1901M Absence: France"
    assert "France (p2@example.org) has declared an absence in game 'dt'\nfrom Mon Jul 03 2028 00:00:00 +0000\n" \
        "to   Fri Jul 07 2028 23:59:00 +0000." in to_master.body
    assert judge.game("dt").deadline == datetime(2028, 6, 30, 23, 30, tzinfo=UTC), "never the current deadline"
    assert _process_at_the_deadline(judge) == datetime(2028, 7, 10, 23, 30, tzinfo=UTC), \
        "Mon Jul 3 23:30 is in the absence: to its end, Fri 23:59, then the clock and days: Monday Jul 10"


def test_overlapping_absences_and_a_phase_without_a_clock_time(judge: Judge) -> None:
    _france(judge, "set absence 3 Jul to 7 Jul\nset absence 6 Jul 16:00 to 10 Jul 20:00\nset moves clock -1")
    judge.reply(GM, "signon Mdt gmpw\nset moves clock -1")
    assert _process_at_the_deadline(judge) == datetime(2028, 7, 10, 20, 0, tzinfo=UTC), \
        "both absences count: July 10 at 20:00 for a phase without a clock time"
    assert len(_absences(judge)) == 2


def test_noabsence_cancels_the_first_absence_that_includes_the_date(judge: Judge) -> None:
    _france(judge, "set absence 3 Jul to 7 Jul\nset absence 6 Jul 16:00 to 10 Jul 20:00")
    body = _france(judge, "set noabsence 6 Jul")
    assert "France: Absence cancelled from\nMon Jul 03 2028 00:00:00 +0000 to Fri Jul 07 2028 23:59:00 +0000." in body
    assert _absences(judge) == [(datetime(2028, 7, 6, 16, 0, tzinfo=UTC), datetime(2028, 7, 10, 20, 0, tzinfo=UTC))]
    body = _france(judge, "set noabsence 20 Jul")
    assert "No absence of yours includes that date; nothing was cancelled." in body


def test_limits_three_pending_and_bad_dates(judge: Judge) -> None:
    body = _france(judge, "set absence 1 Jul\nset absence 2 Jul\nset absence 3 Jul\nset absence 4 Jul\n"
                          "set absence 2028-06-28\nset absence 28 Jun\nset absence 5 Jul to 4 Jul\n"
                          "set absence someday")
    assert "5 errors" in body and "That date is more than 120 days away" in body
    assert "You have 3 absences pending already" in body and "cannot start or end before today" in body
    assert "The end of the absence is not after its start; nothing was set." in body
    assert "Cannot read 'someday'" in body
    assert len(_absences(judge)) == 3
    judge.observe("watch@example.org", "dt", "pw")
    reply = judge.reply("watch@example.org", "signon Odt pw\nset absence 5 Jul")
    assert "Observers cannot set an absence." in reply.body


def test_the_game_maximum_and_the_masters_own_absences(judge: Judge) -> None:
    rows = judge.mail(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}\nset absence 3 Jul to 25 Jul")
    reply = next(r for r in rows if r.kind == "reply")
    assert "An absence in game 'dt' may last at most 15 days. The master has been told of your request." in reply.body
    to_master = next(r for r in rows if r.to_addr == GM)
    assert to_master.subject == "TEST:dt - S1901M Absence Request: France" and "refused" in to_master.body
    assert _absences(judge) == []
    rows = judge.mail(GM, "signon Mdt gmpw\nset max absence 0")
    assert "may not declare absences" in next(r for r in rows if r.kind == "notice").body
    assert "does not allow absences" in _france(judge, "set absence 3 Jul")
    body = judge.reply(GM, "signon Mdt gmpw\nset absence 3 Jul to 25 Jul").body
    assert "Master: Absence requested from" in body, "a master's absence is not bound by the maximum"
    assert _process_at_the_deadline(judge) == datetime(2028, 7, 26, 23, 30, tzinfo=UTC), \
        "the master's absence moves the deadline to its end, then to 23:30 on a weekday"
    signon = judge.reply(GM, "signon Mdt gmpw").body
    assert "Master: Absence requested from\nMon Jul 03 2028 00:00:00 +0000 to Tue Jul 25 2028 23:59:00 +0000" \
        in signon, "the master sees the pending absences at sign-on"


def test_absences_are_forgotten_once_over(judge: Judge) -> None:
    _france(judge, "set absence 30 Jun 01:00 to 30 Jun 02:00")
    _process_at_the_deadline(judge)
    assert _absences(judge) == []
