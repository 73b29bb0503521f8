"""The words and columns of the judge's mails, over real SMTP (issue 23, items 15 and 17):
plural agreement, a second SIGNON that changes no password, a table's columns with a long
power name (Oceania's Marshall Islands), the rollback notice wrapped to the line width."""

from __future__ import annotations

import re

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game
from test_e2e_lateness import HOLDS

live = harness.live
GM = "gm@players.test"
EVERYONE = 8  # seven players and the master
LINE_WIDTH = 78


def _column_starts(lines: list[str], pattern: str) -> set[int]:
    """Where the field ``pattern``'s group 2 starts on each line it matches (group 1 is the
    label before it, which must end in at least one space)."""
    starts = set()
    for line in lines:
        found = re.match(pattern, line)
        if found:
            assert found.group(1).endswith(" "), f"no space after the label: {line!r}"
            starts.add(found.start(2))
    return starts


def test_signon_counts_and_a_second_signon_keep_the_password(live: LiveJudge) -> None:
    live.reply(GM, "create ?words gmpw")
    for n in range(1, 7):
        reply = live.reply(f"p{n}@players.test", "signon ?words pw")
    assert "You'll be notified when 1 more player signs on." in reply.body, reply.body
    assert "more player sign on" not in reply.body

    wrong = live.reply("p1@players.test", "signon ?words other\nset preference F")
    assert wrong.subject.endswith("[Error Flag]") and "Invalid password" in wrong.body, wrong.body
    assert "Preference list" not in wrong.body.split("---- Original message follows:")[0]
    again = live.reply("p1@players.test", "signon ?words pw")
    assert "You already have a place in game 'words': no second place was taken." in again.body
    assert "have been updated" not in again.body and "Your password is unchanged" in again.body
    assert "Invalid password" in live.reply("p1@players.test", "signon ?words other").body

    mails = live.mail(GM, "signon Mwords gmpw\nset reminder 1\nset max absence 1", expect=1 + 7)
    notice = next(m for m in mails if m.to == "p1@players.test")
    assert "are reminded 1 hour\nbefore each deadline." in notice.body, notice.body
    assert "absences of at most 1 day." in notice.body
    listing = live.reply("someone@players.test", "list words").body
    assert "reminder 1 hour before the deadline, absences of at most 1 day." in listing, listing


ADDRESS_RE = re.compile(r"\S+@\S+")


def test_columns_hold_a_long_power_name(live: LiveJudge) -> None:
    players = [f"o{n}@x.org" for n in range(1, 8)]
    powers = start_game(live, "cols", "oceania", players=players)
    assert powers["Marshall Islands"] == "o7@x.org"
    live.mail(GM, "signon Mcols gmpw\nprocess", expect=1 + EVERYONE)
    mails = live.mail(GM, "signon Mcols gmpw\nprocess", expect=1 + EVERYONE)
    results = next(m for m in mails if m.subject.endswith("F2000M Results") and m.to == "o1@x.org").body
    counts = _column_starts(results.splitlines(), r"^(\S.*?:\s*)(\d+ Supply centers)")
    assert len(counts) == 1, results

    full = live.reply("someone@players.test", "list full").body
    assert "Marshall Islands:o7@x.org" not in full
    assert len(_column_starts(full.splitlines(), r"^ {12}(\S.*?:\s*)(\S+@\S+)$")) == 1, full

    listing = live.reply("someone@players.test", "list cols").body
    assert "Marshall Islandsplaying" not in listing
    table = [line for line in listing.splitlines() if line.startswith("   ") and ADDRESS_RE.search(line)]
    assert len(table) == 8, listing
    assert len({ADDRESS_RE.search(line).start() for line in table}) == 1, listing  # type: ignore[union-attr]
    params = listing.split("are as follows:")[1].split("\n\n")[0].splitlines()
    assert len({line.index(":") for line in params if ":  " in line}) == 1, "the parameters' labels line up"
    assert len(_column_starts(table, r"^   ((?:[A-Z][a-z]+ )+\s*)(move|open)")) == 1, listing

    summary = live.reply("someone@players.test", "summary cols").body
    assert len(_column_starts(summary.splitlines(), r"^   (\S.*?:\s*)(\S+@\S+)")) == 1, summary
    who = live.reply("someone@players.test", "whogame cols").body
    assert len(_column_starts(who.splitlines(), r"^   (\S.*?:\s*)(\S+@\S+)")) == 1, who


def test_the_rollback_notice_is_wrapped_to_the_line_width(live: LiveJudge) -> None:
    powers = start_game(live, "back")
    for power, address in powers.items():
        live.mail(address, f"signon {power[0]}back pw\n{HOLDS[power]}", expect=1 + (EVERYONE if power == "Turkey" else 0))
    assert live.phase("back") == "F1901M"
    mails = live.mail(GM, "signon Mback gmpw\nrollback 1", expect=1 + EVERYONE)
    notice = next(m for m in mails if m.subject == "E2E:back - S1901M Rollback")
    assert "stand again" in notice.body
    long = [line for line in notice.body.splitlines() if len(line) > LINE_WIDTH]
    assert not long, long
    assert "Austria, England, France, Germany, Italy, Russia and Turkey" in " ".join(notice.body.split())


def test_create_takes_njudges_option_words_in_any_order(live: LiveJudge) -> None:
    reply = live.reply(GM, "create ?gun pw standard gunboat")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Settings: GUNBOAT." in reply.body
    assert live.game_value("gun", "gunboat") is True

    reply = live.reply(GM, "create ?nmr pw NMR gunboat oceania grey")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert live.game_value("nmr", "map_name") == "oceania"
    assert live.game_value("nmr", "nmr") is True and live.game_value("nmr", "gunboat") is True
    assert live.game_value("nmr", "press") == "grey"
    live.reply(GM, "create ?nonmr pw no nmr")
    assert live.game_value("nonmr", "nmr") is False and live.game_value("nonmr", "map_name") == "standard"

    refused = live.reply(GM, "create ?bad pw standard blind")
    assert refused.subject.endswith("[Error Flag]") and "'blind' is none of them" in refused.body, refused.body
    assert live.game_value("bad", "name") is None
    refused = live.reply(GM, "create ?two pw standard oceania")
    assert "CREATE takes one variant" in refused.body, refused.body


def test_a_star_in_a_preference_list_is_any_power(live: LiveJudge) -> None:
    live.reply(GM, "create ?pref gmpw")
    reply = live.reply("ann@players.test", "signon ?pref pw\nset preference FG*")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Preference list 'FG*' set." in reply.body
    reply = live.reply("bob@players.test", "signon ?pref pw\nset preference *")
    assert "[Error Flag]" not in reply.subject, reply.body


def test_diary_entries_are_kept_private_and_shown_to_everyone_at_the_end(live: LiveJudge) -> None:
    powers = start_game(live, "dia")
    france, italy = powers["France"], powers["Italy"]
    first = live.reply(france, "signon Fdia pw\ndiary\nGermany means to take Burgundy.\n  I shall let him.\nendpress")
    assert "[Error Flag]" not in first.subject, first.body
    assert "Diary entry 1 for game 'dia' recorded" in first.body
    second = live.reply(france, "signon Fdia pw\ndiary record\nA second thought.\nendpress\nA par - bur")
    assert "Diary entry 2 for game 'dia' recorded" in second.body and "Army Paris -> Burgundy" in second.body
    third = live.reply(france, "signon Fdia pw\ndiary record\nA third.\nsignoff")
    assert "Diary entry 3" in third.body

    listing = live.reply(france, "signon Fdia pw\ndiary list").body
    assert re.search(r"^ +1  \w{3} \w{3} \d\d \d{4}", listing, re.M) and re.search(r"^ +3  ", listing, re.M)
    read = live.reply(france, "signon Fdia pw\ndiary read 1").body
    assert "Germany means to take Burgundy.\n  I shall let him." in read
    deleted = live.reply(france, "signon Fdia pw\ndiary delete 2").body
    assert "Diary entry 2 for game 'dia' deleted." in deleted
    after = live.reply(france, "signon Fdia pw\ndiary delete 2\ndiary record\nFourth.\nendpress")
    assert after.subject.endswith("[Error Flag]") and "no diary entry 2" in after.body
    assert "Diary entry 4 for game 'dia' recorded" in after.body, "numbers are not given again"

    other = live.reply(italy, "signon Idia pw\ndiary read 1\ndiary list")
    assert "Germany means" not in other.body and "no diary entry 1" in other.body
    assert "You have no diary entries for game 'dia'." in other.body
    unknown = live.reply(italy, "signon Idia pw\ndiary lsit\nendpress")
    assert unknown.subject.endswith("[Error Flag]") and "'lsit' is none of them" in unknown.body

    mails = live.mail(GM, "signon Mdia gmpw\nterminate", expect=1 + 2 * EVERYONE)
    diaries = [m for m in mails if m.subject.endswith("Diaries")]
    assert sorted(m.to for m in diaries) == sorted([GM, *powers.values()])
    body = diaries[0].body
    assert "France's diary" in body and "Germany means to take Burgundy." in body and "Fourth." in body
    assert "A second thought." not in body and france not in body
    refused = live.reply(france, "signon Fdia pw\ndiary\nToo late.\nendpress")
    assert refused.subject.endswith("[Error Flag]")
    assert "Fourth." in live.reply(france, "signon Fdia pw\ndiary read 4").body
