"""A player's own settings over real SMTP (issue 11 items 4, 5, 13): Reply-To honoured as
njudge does (the reply goes to the last Reply-To, never to an address hidden in a display
name), SET PASSWORD, SET ADDRESS, a sign-on from another address copied to the player of
record, SET ZONE, SET ABSENCE told to the master, WHOIS; the master's SET ZONE and SET
START."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game

live = harness.live
GM = "gm@players.test"


def test_reply_to_password_address_zone_absence_and_whois(live: LiveJudge) -> None:
    powers = start_game(live, "me")
    france = powers["France"]

    live.send("somebody@players.test", "whois france@players.test",
              headers={"Reply-To": '"boss@evil.test" <other@players.test>, second@players.test'})
    reply = live.collect(1)[0]
    assert reply.to == "second@players.test", "the last Reply-To address, not the display name's"
    assert "Record of france@players.test on this judge:" in reply.body
    assert "  me        France           playing    active S1901M" in reply.body

    mails = live.mail(france, "signon Fme pw\nset password newpw2\nset zone America/New_York")
    assert "Password changed for France in game 'me'." in mails[0].body
    assert "in the time zone America/New_York from now on" in mails[0].body
    assert "Invalid password" in live.reply(france, "signon Fme pw").body
    reply = live.reply(france, "signon Fme newpw2\nA par h")
    assert "-0500 (America/New_York)" in reply.body or "-0400 (America/New_York)" in reply.body

    mails = live.mail(france, "signon Fme newpw2\nset address france@home.test", expect=3)
    by_to = {m.to: m for m in mails}
    assert "goes to france@home.test from now on" in by_to[france].body
    assert by_to["france@home.test"].body == by_to[france].body, "the new address gets the reply too"
    assert "France in game 'me' now receives the game's mail at france@home.test" in by_to[GM].body
    mails = live.mail("france@home.test", "signon Fme newpw2\nset absence 2031-01-05 TO 2031-01-09", expect=2)
    absence = next(m for m in mails if m.to == GM)
    assert absence.subject == "E2E:me - S1901M Absence: France"
    assert "from Sun Jan 05 2031 05:00:00 +0000" in absence.body, "written in New York time, read in UTC"

    live.send("someone@else.test", "signon Fme newpw2\nA mar h")
    copies = live.collect(2)
    assert sorted(m.to for m in copies) == ["france@home.test", "someone@else.test"], \
        "a sign-on not from the player of record: a copy goes to the player"

    mails = live.mail(GM, "signon Mme gmpw\nset zone Europe/Berlin\nset reminder 2", expect=1 + 8)
    notice = next(m for m in mails if m.to == powers["Italy"])
    assert "The time zone of game 'me' is Europe/Berlin" in notice.body and "reminded 2 hours" in notice.body
    assert ":30:00 +0" in (italy := live.reply(powers["Italy"], "signon Ime pw\nA ven h").body)
    assert "(Europe/Berlin)" in italy
    assert "(America/New_York)" in live.reply("france@home.test", "signon Fme newpw2\nA par h").body


def test_clocks_set_with_create_before_the_start(live: LiveJudge) -> None:
    reply = live.reply(GM, "create ?early gmpw standard\nset moves next 47 clock 20:00 days SMTWTFS\n"
                           "set start 2031-03-03 20:00 UTC\nset zone UTC\nset nonmr")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Game 'early' will not be processed before Mon Mar 03 2031 20:00:00 +0000" in reply.body
    listing = live.reply("anyone@players.test", "list early")
    assert "  Move    clock 1200 min  0.00 next  47.00 grace 167.00 delay 0.00 days SMTWTFS" in listing.body
    assert "  Retreat clock   -1 min  0.00 next  23.00 grace  71.00 delay 0.00 days -MTWTF-" in listing.body
    assert "NoNMR" in listing.body
    start_game_mails = []
    for i, power in enumerate(["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]):
        start_game_mails = live.mail(f"{power.lower()}@players.test", f"signon ?early pw\nset preference {power[0]}",
                                     expect=1 + (8 if i == 6 else 0))
    start = next(m for m in start_game_mails if m.to == GM)
    assert "Mon Mar 03 2031 20:00:00 +0000" in start.body, "the first deadline no sooner than SET START"
