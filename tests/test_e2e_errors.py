"""End-to-end error paths over real SMTP: bad password, unknown game, order errors, master
commands from a player, orders after the game ended, mail the judge must not answer."""

from __future__ import annotations

from datetime import timedelta

import test_e2e_harness as harness
from test_e2e_harness import JUDGE, LiveJudge, later, start_game

from judge import clock

live = harness.live
GM = "gm@players.test"


def test_bad_password_and_unknown_game(live: LiveJudge) -> None:
    powers = start_game(live, "err")
    reply = live.reply(powers["France"], "signon Ferr nottheone\nA par - bur")
    assert "Invalid password or power ID specified." in reply.body
    assert "---- Original message follows:" in reply.body and "A par - bur" in reply.body
    reply = live.reply(powers["France"], "signon Fnosuch pw\nA par - bur")
    assert "Invalid password or power ID specified." in reply.body
    assert "There is no game called 'nosuch'." in reply.body
    reply = live.reply(powers["France"], "signon Ferr pw\n")
    assert "Army Paris" not in reply.body
    reply = live.reply("stranger@players.test", "list nosuch")
    assert reply.subject.endswith("[Error Flag]") and "There is no game called 'nosuch'." in reply.body


def test_order_errors_are_flagged_and_counted(live: LiveJudge) -> None:
    powers = start_game(live, "err")
    reply = live.reply(powers["Germany"], "signon Gerr pw\nA mun - par\nF kie - bla\nA ber - sil\nwibble wobble")
    assert reply.subject.endswith("[Error Flag]")
    assert "> A mun - par" in reply.body and "> wibble wobble" in reply.body
    assert "4 errors" not in reply.body and "3 errors" in reply.body
    assert "Army Berlin -> Silesia." in reply.body
    reply = live.reply("stranger@players.test", "A par - bur")
    assert reply.subject.endswith("[Error Flag]") and "must follow a SIGNON" in reply.body


def test_player_cannot_use_master_commands(live: LiveJudge) -> None:
    powers = start_game(live, "err")
    reply = live.reply(powers["Italy"], "signon Ierr pw\nprocess\nset deadline 2030-01-01 12:00 UTC\npause\n"
                       "terminate\neject France")
    assert reply.subject.endswith("[Error Flag]")
    for verb in ("PROCESS", "SET DEADLINE", "PAUSE", "TERMINATE", "EJECT"):
        assert f"Only the master of game 'err' may use {verb}." in reply.body
    assert "5 errors found" in reply.body
    assert live.phase("err") == "S1901M"
    reply = live.reply("stranger@players.test", "process")
    assert reply.subject.endswith("[Error Flag]") and "SIGNON" in reply.body


def test_orders_after_the_game_ended(live: LiveJudge) -> None:
    powers = start_game(live, "err")
    mails = live.mail(GM, "signon Merr gmpw\nterminate", expect=1 + 8)
    assert sum("terminated" in m.body for m in mails) == 9
    reply = live.reply(powers["Russia"], "signon Rerr pw\nA war - gal")
    assert reply.subject.endswith("[Error Flag]") and "Game 'err' is over: you can no longer give orders." in reply.body
    reply = live.reply(GM, "signon Merr gmpw\nprocess")
    assert reply.subject.endswith("[Error Flag]")


def test_loop_mail_is_not_answered(live: LiveJudge) -> None:
    live.send("robot@players.test", "list", headers={"Auto-Submitted": "auto-replied"})
    live.send(JUDGE, "list")
    live.send("mailer-daemon@players.test", "list")
    live.quiet()
    reply = live.reply("person@players.test", "list")
    assert reply.to == "person@players.test"


def test_deadline_set_and_passed(live: LiveJudge) -> None:
    start_game(live, "err")
    bad = live.reply(GM, "signon Merr gmpw\nset deadline someday soon")
    assert bad.subject.endswith("[Error Flag]")
    mails = live.mail(GM, f"signon Merr gmpw\nset deadline {later(hours=1)}\nset grace 0", expect=1 + 8)
    assert any("Deadline for 'err' set to" in m.body for m in mails)
    assert any("Grace period for 'err' changed to" in m.body for m in mails)
    clock.advance(timedelta(hours=1, seconds=1))
    results = live.collect(8)
    assert all(m.subject == "E2E:err - S1901M Results" for m in results)
    assert live.phase("err") == "F1901M"
    njudge = live.reply(GM, "signon Merr gmpw\nset deadline Mon Dec 1 2031 18:00", expect=1 + 8)
    assert "Mon Dec 01 2031 18:00:00 +0000" in njudge.body
