"""Lateness over real SMTP with the deadline job firing for real (the judge's clock moved on
to each moment: nothing waits for the wall clock): the reminder
before the deadline, the late notices at the deadline (to the late player and to everyone
else), the late orders processing the phase at once, a phase nobody orders processed when
grace ends in an NMR game; in a NoNMR game the late power abandoned at the end of grace,
taken over by a newcomer with a clean record, the game going on at its deadline."""

from __future__ import annotations

from datetime import timedelta

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, Mail, later, start_game

from judge import clock
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import find_game

live = harness.live
GM = "gm@players.test"
HOLDS = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "France": "A par h\nA mar h\nF bre h", "Germany": "A mun h\nA ber h\nF kie h",
    "Italy": "A ven h\nA rom h\nF nap h", "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h",
    "Turkey": "F ank h\nA con h\nA smy h",
}


def _players(live: LiveJudge, game: str) -> dict[str, tuple[str, int, int, int, bool]]:
    """power -> (address, on time, late, missed, took over) of the active players."""
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            row = find_game(s, game)
            assert row is not None
            return {p.power: (p.email, p.on_time, p.late_phases, p.nmr_count, p.took_over)
                    for p in row.players if p.power and p.status == "active"}
    finally:
        engine.dispose()


def _order_all_but_turkey(live: LiveJudge, powers: dict[str, str], game: str) -> None:
    for power, orders in list(HOLDS.items())[:-1]:
        reply = live.reply(powers[power], f"signon {power[0]}{game} pw\n{orders}")
        assert "[Error Flag]" not in reply.subject, reply.body


def _by_subject(mails: list[Mail]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for m in mails:
        out.setdefault(m.subject, []).append(m.to)
    return out


def test_reminder_late_notice_late_orders_then_nmr_grace_end(live: LiveJudge) -> None:
    powers = start_game(live, "late")
    _order_all_but_turkey(live, powers, "late")
    live.mail(GM, f"signon Mlate gmpw\nset reminder 1\nset deadline {later(days=2)}\nset grace 24",
              expect=1 + 8)
    clock.advance(timedelta(days=2, minutes=-50))
    reminder = live.collect(1)[0]
    assert (reminder.to, reminder.subject) == (powers["Turkey"], "E2E:late - S1901M Reminder")
    assert "There is less than 1 hour to the deadline" in reminder.body
    clock.advance(timedelta(minutes=51))
    late = live.collect(8)
    subjects = _by_subject(late)
    assert subjects["[You are late!] E2E:late - S1901M Late Notice: T"] == [powers["Turkey"]]
    assert sorted(subjects["E2E:late - S1901M Late Notice: T"]) == sorted([GM, *list(powers.values())[:-1]])
    assert all("Diplomacy game 'late' is waiting for Turkey's orders." in m.body for m in late)
    live.quiet()
    mails = live.mail(powers["Turkey"], f"signon Tlate pw\n{HOLDS['Turkey']}", expect=1 + 8)
    assert sum(m.subject == "E2E:late - S1901M Results" for m in mails) == 8
    assert live.phase("late") == "F1901M"
    players = _players(live, "late")
    assert players["Turkey"][1:4] == (0, 1, 0) and players["France"][1:4] == (1, 0, 0), "late, on time"

    live.mail(GM, f"signon Mlate gmpw\nset reminder 0\nset deadline {later(hours=3)}\nset grace 6",
              expect=1 + 8)
    clock.advance(timedelta(hours=3, seconds=1))
    late = live.collect(8)
    assert all("Late Notice: AEFGIRT" in m.subject for m in late)
    clock.advance(timedelta(hours=6))
    results = live.collect(8)
    assert all(m.subject == "E2E:late - F1901M Results" for m in results)
    assert live.phase("late") == "S1902M"
    assert {v[3] for v in _players(live, "late").values()} == {1}, "every power missed Fall 1901"


def test_nonmr_abandoned_at_grace_end_then_taken_over(live: LiveJudge) -> None:
    powers = start_game(live, "aban")
    live.mail(GM, "signon Maban gmpw\nset nonmr", expect=1 + 8)
    _order_all_but_turkey(live, powers, "aban")
    live.mail(GM, f"signon Maban gmpw\nset deadline {later(hours=1)}\nset grace 5", expect=1 + 8)
    clock.advance(timedelta(hours=1, seconds=1))
    late = live.collect(8)
    assert all("Late Notice: T" in m.subject for m in late)
    assert "This power will be considered abandoned and free for takeover" in late[0].body
    clock.advance(timedelta(hours=5))
    waiting = live.collect(8)
    assert all(m.subject == "E2E:aban - S1901M Waiting for Replacements: T" for m in waiting)
    assert powers["Turkey"] in [m.to for m in waiting], "the abandoned player is told too"
    assert "Turkey in game 'aban' is now considered abandoned and free for takeover." in waiting[0].body
    live.quiet()
    assert live.phase("aban") == "S1901M", "the game waits for a replacement"
    listing = live.reply("someone@players.test", "list aban")
    assert "   Turkey     open" in listing.body

    mails = live.mail("newcomer@players.test", f"signon Taban newpw\n{HOLDS['Turkey']}", expect=1 + 1 + 7)
    reply = next(m for m in mails if m.to == "newcomer@players.test" and m.subject.startswith("Re:"))
    assert "Take over of abandoned Turkey allowed." in reply.body and "Deadline for 'aban' advanced to" in reply.body
    notices = [m for m in mails if m.subject == "E2E:aban - S1901M Takeover of Turkey"]
    assert len(notices) == 7 and "Also, a wait has been placed for all active players." in notices[0].body
    live.quiet()
    mails = live.mail(GM, f"signon Maban gmpw\nset deadline {later(hours=2)}", expect=1 + 8)
    clock.advance(timedelta(hours=2, seconds=1))
    results = live.collect(8)
    assert all(m.subject == "E2E:aban - S1901M Results" for m in results), "at the deadline, despite the waits"
    players = _players(live, "aban")
    assert players["Turkey"] == ("newcomer@players.test", 1, 0, 0, True), "a clean record: on time for S1901M"
    whois = live.reply("anyone@players.test", f"whois {powers['Turkey']}")
    assert "1 abandoned" in whois.body and "(0 on time, 0 late, 1 missed)" in whois.body
