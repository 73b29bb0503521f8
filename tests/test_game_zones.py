"""Time zones (issue 11 item 5): a game's clock runs in its zone in wall-clock time across a
daylight-saving change, and every date a reader gets is in their zone (their own SET ZONE,
else the game's, else the judge's), with the zone printed. Dates are the test's own clock
(a Judge on a real SQLite file): the clocks of Europe/London go forward on Sunday 29 March
2026, those of New York on 8 March."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from test_game_helpers import Judge, password_of

from judge.store.mail import OutboxMessage

GM = "gm@example.org"
LONDON, NEW_YORK = ZoneInfo("Europe/London"), ZoneInfo("America/New_York")
DATE = re.compile(r"(\w{3} \w{3} \d\d \d{4} \d\d:\d\d:\d\d) ([+-]\d{4})( \(([\w/]+)\))?")
HEADER = re.compile(r"^:: Deadline: \w+ ", re.MULTILINE)


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}", now=datetime(2026, 3, 16, 12, 0, tzinfo=UTC))


def _dates_in(body: str, zone: ZoneInfo) -> list[datetime]:
    """Every date in ``body``: each must be in ``zone`` (its offset right for that moment)
    and, but in the ':: Deadline:' header line, followed by the zone's name."""
    found = []
    for m in DATE.finditer(body):
        local = datetime.strptime(f"{m[1]} {m[2]}", "%a %b %d %Y %H:%M:%S %z")
        right = local.astimezone(zone)
        assert local.utcoffset() == right.utcoffset(), f"{m[0]} is not in {zone.key}"
        in_header = body[max(0, body.rfind("\n", 0, m.start()) + 1):m.start()].startswith(":: Deadline:")
        assert (m[4] is None) if in_header else (m[4] == zone.key), f"{m[0]}: zone name"
        found.append(local.astimezone(UTC))
    return found


def _start(judge: Judge) -> None:
    judge.mail(GM, "create ?dt gmpw standard\nset zone Europe/London\n"
                   "set moves next 71 clock 23:30 days ------S\nset retreats days ------S\nset builds days ------S")
    for i, letter in enumerate("AEFGIRT"):
        judge.mail(f"p{i}@example.org", f"signon ?dt pw{i}\nset preference {letter}")


def _rows_to(rows: list[OutboxMessage], address: str, kind: str) -> OutboxMessage:
    return next(r for r in rows if r.to_addr == address and r.kind == kind)


def test_saturday_2330_in_london_stays_2330_across_the_change(judge: Judge) -> None:
    _start(judge)
    reply = judge.reply("p2@example.org", f"signon Fdt {password_of(judge, 'dt', 'France')}\nset zone "
                                          "america/new_york")
    assert "in the time zone America/New_York from now on" in reply.body
    game = judge.game("dt")
    assert game.deadline == datetime(2026, 3, 21, 23, 30, tzinfo=UTC), "Saturday 23:30 GMT"
    deadlines = [game.deadline]
    for process_at in (datetime(2026, 3, 22, 9, 0, tzinfo=UTC), datetime(2026, 3, 29, 9, 0, tzinfo=UTC)):
        judge.now = process_at
        rows = judge.mail(GM, "signon Mdt gmpw\nprocess")
        game = judge.game("dt")
        deadlines.append(game.deadline)
        london = _rows_to(rows, "p0@example.org", "result")
        york = _rows_to(rows, "p2@example.org", "result")
        assert game.deadline in _dates_in(london.body, LONDON)
        assert game.deadline in _dates_in(york.body, NEW_YORK)
        archived = [r for r in rows if r.kind == "result" and r.archived]
        assert london.body != york.body and [r.body for r in archived] == [london.body], "one mail per zone"
        for row in rows:
            _dates_in(row.body, NEW_YORK if row.to_addr == "p2@example.org" else LONDON)
    assert [d.astimezone(LONDON).strftime("%a %H:%M %z") for d in deadlines] == \
        ["Sat 23:30 +0000", "Sat 23:30 +0000", "Sat 23:30 +0100"]
    assert deadlines[2] == datetime(2026, 4, 4, 22, 30, tzinfo=UTC), "23:30 British Summer Time"
    assert judge.game("dt").phase == "S1902M"
    london = judge.reply("p0@example.org", f"signon Adt {password_of(judge, 'dt', 'Austria')}\nA vie h")
    assert "Sat Apr 04 2026 23:30:00 +0100 (Europe/London)" in london.body
    assert ":: Deadline: S1902M Sat Apr 04 2026 23:30:00 +0100  " in london.body, "the mappers' header"
    york = judge.reply("p2@example.org", f"signon Fdt {password_of(judge, 'dt', 'France')}\nA par h")
    assert "Sat Apr 04 2026 18:30:00 -0400 (America/New_York)" in york.body
    _dates_in(york.body, NEW_YORK)
    outsider = judge.reply("someone@example.org", "list dt")
    assert "Sat Apr 04 2026 23:30:00 +0100 (Europe/London)" in outsider.body, "the game's zone"


def test_a_member_not_signed_on_reads_in_their_zone_and_dates_are_read_in_it(judge: Judge) -> None:
    _start(judge)
    judge.reply("p2@example.org", f"signon Fdt {password_of(judge, 'dt', 'France')}\nset zone Asia/Tokyo")
    listing = judge.reply("p2@example.org", "list dt")
    assert "Sun Mar 22 2026 08:30:00 +0900 (Asia/Tokyo)" in listing.body
    judge.reply(GM, "signon Mdt gmpw\nset zone UTC")
    rows = judge.mail(GM, "signon Mdt gmpw\nset deadline 2026-03-25 18:00")
    assert judge.game("dt").deadline == datetime(2026, 3, 25, 18, 0, tzinfo=UTC), "read in the master's zone"
    tokyo = _rows_to(rows, "p2@example.org", "notice")
    assert "Thu Mar 26 2026 03:00:00 +0900 (Asia/Tokyo)" in tokyo.body
    assert "Wed Mar 25 2026 18:00:00 +0000." in _rows_to(rows, "p0@example.org", "notice").body


def test_bad_zones_are_refused_and_change_nothing(judge: Judge) -> None:
    _start(judge)
    reply = judge.reply(GM, "signon Mdt gmpw\nset zone Mars/Olympus")
    assert "[Error Flag]" in reply.subject and "There is no time zone called 'Mars/Olympus'" in reply.body
    assert judge.game("dt").zone == "Europe/London"
    reply = judge.reply("p0@example.org", f"signon Adt {password_of(judge, 'dt', 'Austria')}\nset zone default")
    assert "in the game's time zone, Europe/London" in reply.body
