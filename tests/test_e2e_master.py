"""The master's tools over real SMTP, on SQLite and PostgreSQL: PREDICT to the master
alone, ROLLBACK (the withdrawn results in HISTORY and the web archive, the deadline
restarted and kept by the scheduler), BECOME with the player's copy, PROMOTE, FORCE BEGIN
with a takeover, UNSTART and SET AUTOSTART, a gunboat game's start mail."""

from __future__ import annotations

import re
from datetime import timedelta

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, later, start_game
from test_e2e_lateness import HOLDS as ALL_HOLD
from test_web import ArchiveServer

from judge import clock

live = harness.live
GM = "gm@players.test"
EVERYONE = 8  # seven players and the master
#: About 11 seconds a phase, every day, no minimum, no grace to speak of (the clock
#: settings take fractions of an hour).
QUICK = "set moves next 0.003 clock -1 min 0 grace 0.003 days SMTWTFS"
#: Every unit holds, but Paris: France's order for it, restored by the rollback, stands.
HOLDS = {**ALL_HOLD, "France": "A mar h\nF bre h"}


def _signon(power: str, game: str) -> str:
    return f"signon {power[0]}{game} pw\n"


def test_predict_rollback_and_the_restarted_deadline(live: LiveJudge) -> None:
    powers = start_game(live, "mend")
    live.mail(GM, f"signon Mmend gmpw\n{QUICK}", expect=1 + EVERYONE)
    reply = live.reply(powers["France"], _signon("France", "mend") + "A par - bur")
    assert "[Error Flag]" not in reply.subject, reply.body
    live.reply(powers["Germany"], _signon("Germany", "mend") + "A mun - bur")

    mails = live.mail(GM, "signon Mmend gmpw\npredict", expect=2)
    prediction = next(m for m in mails if not m.subject.startswith("Re:"))
    assert prediction.to == GM and prediction.subject == "E2E:mend - S1901M Prediction"
    assert "PREDICTION for the master alone" in prediction.body
    assert "France: Army Paris -> Burgundy.  (*bounce*)" in prediction.body
    live.quiet()
    assert live.phase("mend") == "S1901M", "a prediction changes nothing"

    mails = live.mail(GM, "signon Mmend gmpw\nprocess", expect=1 + EVERYONE)
    assert sum(m.subject == "E2E:mend - S1901M Results" for m in mails) == EVERYONE
    assert live.phase("mend") == "F1901M"

    mails = live.mail(GM, "signon Mmend gmpw\nrollback 1", expect=1 + EVERYONE)
    notices = [m for m in mails if m.subject == "E2E:mend - S1901M Rollback"]
    assert sorted(m.to for m in notices) == sorted([GM, *powers.values()])
    assert "The results of S1901M are withdrawn" in notices[0].body
    assert "(France and Germany) stand again" in notices[0].body
    assert live.phase("mend") == "S1901M"
    deadline = live.game_value("mend", "deadline")
    assert clock.now() < deadline <= clock.now() + timedelta(minutes=2), "the quick clock restarted"
    live.mail(GM, f"signon Mmend gmpw\nset deadline {later(hours=1)}", expect=1 + EVERYONE)

    for power, orders in HOLDS.items():
        text = _signon(power, "mend") + orders + ("\nset wait" if power == "Austria" else "")
        reply = live.reply(powers[power], text)
        assert "[Error Flag]" not in reply.subject, reply.body
    assert "All orders are in." in live.reply(GM, "signon Mmend gmpw\nlist").body
    clock.advance(timedelta(hours=1, seconds=1))
    results = live.collect(EVERYONE)
    assert all(m.subject == "E2E:mend - S1901M Results" for m in results), "the scheduler kept the new deadline"
    assert "France: Army Paris -> Burgundy.  (*bounce*)" not in results[0].body
    assert "France: Army Paris -> Burgundy." in results[0].body and "Germany: Army Munich HOLD." in results[0].body
    assert live.phase("mend") == "F1901M"

    history = live.reply("obs@players.test", "history mend from Jan 1 1990").body
    subjects = re.findall(r"^Subject: (.*)$", history, re.M)
    assert subjects == ["E2E:mend - S1901M Game Starting", "E2E:mend - S1901M Settings Changed",
                        "E2E:mend - S1901M (withdrawn)", "E2E:mend - S1901M Rollback",
                        "E2E:mend - S1901M Deadline Changed", "E2E:mend - S1901M Results"], subjects
    assert "> Germany: Army Munich -> Burgundy.  (*bounce*)" in history

    web = ArchiveServer(live.config)
    try:
        page = web.text("/games/mend")
        assert 'class="withdrawn" data-phase="S1901M"' in page and "Withdrawn results" in page
        assert "Germany: Army Munich -&gt; Burgundy.  (*bounce*)" in page
        phase = web.text("/games/mend/S1901M")
        assert "Germany: Army Munich HOLD." in phase and "Munich -&gt; Burgundy" not in phase
        assert "mend" in web.text("/")
        live.mail(GM, "signon Mmend gmpw\nset private", expect=1 + EVERYONE)
        assert "mend" not in web.text("/") and "Withdrawn results" in web.text("/games/mend")
    finally:
        web.stop()


def test_become_promote_and_two_masters(live: LiveJudge) -> None:
    powers = start_game(live, "act")
    mails = live.mail(GM, "signon Mact gmpw\nbecome France\nA par - bur\nset wait", expect=2)
    reply = next(m for m in mails if m.to == GM)
    copy = next(m for m in mails if m.to == powers["France"])
    assert "The rest of this mail acts as France" in reply.body and "Army Paris -> Burgundy." in reply.body
    assert "used BECOME France: this is a copy" in copy.body and "Army Paris -> Burgundy." in copy.body
    assert "is not an observer" in live.reply(GM, "signon Mact gmpw\npromote obs@players.test").body
    live.reply("obs@players.test", "observe act opw")
    mails = live.mail(GM, "signon Mact gmpw\npromote obs@players.test", expect=3)
    assert sorted(m.to for m in mails if "Master Promoted" in m.subject) == [GM, "obs@players.test"]
    mails = live.mail("obs@players.test", "signon Mact opw\npause", expect=1 + EVERYONE + 1)
    reply = next(m for m in mails if m.subject.startswith("Re:"))
    assert "[Error Flag]" not in reply.subject and "has been paused" in reply.body
    assert sum(m.subject == "E2E:act - S1901M Game Paused" for m in mails) == EVERYONE + 1, "both masters hear"


def test_force_begin_takeover_unstart_and_autostart(live: LiveJudge) -> None:
    live.reply(GM, "create ?early gmpw standard\nset gunboat")
    for i, letter in enumerate("FGR"):
        live.reply(f"p{i}@players.test", f"signon ?early pw\nset preference {letter}")
    mails = live.mail(GM, "signon Mearly gmpw\nforce begin", expect=1 + 4)
    starts = [m for m in mails if "Game Starting" in m.subject]
    assert len(starts) == 4 and all("Variant: Standard Gunboat" in m.body for m in starts)
    for m in starts:
        assert ("p1@players.test" in m.body) == (m.to == GM), "only the master sees the addresses"
        assert "in civil disorder (their units hold) until someone takes them over" in m.body
    listed = live.reply("any@players.test", "list").body
    assert "Open for takeover: Austria, England, Italy, Turkey." in listed
    mails = live.mail("new@players.test", "signon Aearly newpw\nA vie - gal", expect=1 + 1 + 4)
    reply = next(m for m in mails if m.to == "new@players.test" and m.subject.startswith("Re:"))
    assert "Take over of abandoned Austria allowed." in reply.body
    assert all("new@players.test" not in m.body for m in mails if m.to not in (GM, "new@players.test"))

    mails = live.mail(GM, "signon Mearly gmpw\nunstart", expect=1 + 5)
    assert sum(m.subject == "E2E:early Game Unstarted" for m in mails) == 5
    assert live.phase("early") is None
    for i, letter in enumerate("EIT"):
        live.reply(f"q{i}@players.test", f"signon ?early pw\nset preference {letter}")
    live.quiet()
    mails = live.mail(GM, "signon Mearly gmpw\nset autostart", expect=1 + EVERYONE + EVERYONE)
    assert sum("Game Starting" in m.subject for m in mails) == EVERYONE
    assert live.phase("early") == "S1901M"
    who = live.reply("any@players.test", "whogame early").body
    assert "someone@somewhere" in who and "players.test" not in who.replace("any@players.test", "")
    full = live.reply(GM, "signon Mearly gmpw\nwhogame full").body
    assert "q0@players.test" in full and "new@players.test" in full
    listed = live.reply("any@players.test", "list full").body
    assert "early" in listed and "someone@somewhere" in listed and "q0@players.test" not in listed
    live.reply(GM, "signon Mearly gmpw\nset nolist", expect=1 + EVERYONE)
    assert "early" not in live.reply("any@players.test", "list full").body


def test_start_game_helper_still_fills_every_power(live: LiveJudge) -> None:
    powers = start_game(live, "full")
    assert len(powers) == 7 and live.phase("full") == "S1901M"
