"""Dates across a daylight-saving change, a game's minimum record and the help files, over
real SMTP (issue 11 items 5, 13 and 11): a deadline the master sets on either side of the
change in Europe/London (clocks forward on Sunday 28 March 2027, New York's on 14 March) is
printed in each reader's own zone with the right offset; a game that asks a dedication of 1
refuses a newcomer in njudge's words until the master drops the minimum; GET sends help
files by njudge's names, and GET DEDICATION the sender's own record."""

from __future__ import annotations

from datetime import UTC, datetime

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, bodies_to, start_game

live = harness.live
GM = "gm@players.test"
EVERYONE = 8  # seven players and the master


def _deadline_notice(live: LiveJudge, when: str, reader: str) -> str:
    """The master sets the deadline to ``when`` (read in the game's zone); the notice to ``reader``."""
    mails = live.mail(GM, f"signon Mdst gmpw\nset deadline {when}", expect=1 + EVERYONE)
    (notice,) = [m for m in bodies_to(mails, reader) if not m.subject.startswith("Re:")]
    return notice.body


def test_deadlines_on_both_sides_of_the_change_read_in_each_zone(live: LiveJudge) -> None:
    powers = start_game(live, "dst")
    live.mail(GM, "signon Mdst gmpw\nset zone Europe/London", expect=1 + EVERYONE)
    reply = live.reply(powers["France"], "signon Fdst pw\nset zone America/New_York")
    assert "in the time zone America/New_York from now on" in reply.body

    before = _deadline_notice(live, "2027-03-27 23:30", powers["England"])
    assert "Sat Mar 27 2027 23:30:00 +0000 (Europe/London)" in before, before
    assert live.game_value("dst", "deadline") == datetime(2027, 3, 27, 23, 30, tzinfo=UTC), "GMT"
    york = _deadline_notice(live, "2027-03-27 23:30", powers["France"])
    assert "Sat Mar 27 2027 19:30:00 -0400 (America/New_York)" in york, "New York is on summer time already"

    after = _deadline_notice(live, "2027-03-28 23:30", powers["England"])
    assert "Sun Mar 28 2027 23:30:00 +0100 (Europe/London)" in after, after
    assert live.game_value("dst", "deadline") == datetime(2027, 3, 28, 22, 30, tzinfo=UTC), "British Summer Time"
    york = _deadline_notice(live, "2027-03-28 23:30", powers["France"])
    assert "Sun Mar 28 2027 18:30:00 -0400 (America/New_York)" in york

    england = live.reply(powers["England"], "signon Edst pw\nF lon h")
    assert ":: Deadline: S1901M Sun Mar 28 2027 23:30:00 +0100" in england.body, "the mappers' header"
    france = live.reply(powers["France"], "signon Fdst pw\nA par h")
    assert "Sun Mar 28 2027 18:30:00 -0400 (America/New_York)" in france.body
    assert "+0100" not in france.body.split(":: Deadline:")[-1].split("\n", 1)[1], "no London date for New York"
    live.quiet()


def test_a_minimum_dedication_refuses_a_newcomer_until_the_master_drops_it(live: LiveJudge) -> None:
    created = live.reply(GM, "create ?keen gmpw standard\nset dedication 1")
    assert "[Error Flag]" not in created.subject, created.body
    assert "requires a dedication of at least 1 to join it or take over a power" in created.body
    live.quiet()  # nothing but the reply: the creator is the game's only reader

    refused = live.reply("new@players.test", "signon ?keen pw\nset preference F")
    assert "[Error Flag]" in refused.subject
    assert ("Sorry, game 'keen' requires a dedication of at least 1 and you\n"
            "are currently rated at 0.  Send 'GET dedication' for more info.") in refused.body
    listing = live.reply("new@players.test", "list keen")
    assert "new@players.test" not in listing.body, "the refused newcomer did not join"

    live.mail(GM, "signon Mkeen gmpw\nset dedication none", expect=2)
    joined = live.reply("new@players.test", "signon ?keen pw\nset preference F")
    assert "[Error Flag]" not in joined.subject, joined.body
    record = live.reply("someone@players.test", "whois new@players.test")
    assert "Record of new@players.test on this judge:" in record.body
    assert "  keen" in record.body, "the game is on the newcomer's record"
    live.quiet()


def test_get_sends_help_files_by_njudges_names(live: LiveJudge) -> None:
    mine = live.reply("reader@players.test", "get dedication")
    assert "Record of reader@players.test on this judge:" in mine.body, "njudge: GET DEDICATION sends your own"
    for topic, line in (("deadlines", "DELAY"), ("absence", "ABSENCE"),
                        ("draws", "DRAW"), ("master", "ROLLBACK")):
        reply = live.reply("reader@players.test", f"get {topic}")
        assert "[Error Flag]" not in reply.subject, (topic, reply.body[:300])
        assert line in reply.body, (topic, reply.body[:300])
    unknown = live.reply("reader@players.test", "get nosuchtopic")
    assert "[Error Flag]" in unknown.subject
    live.quiet()
