"""Who may read what, over real SMTP and the real web archive (issue 23, items 4, 5, 6 and
10): a BECOME copy shows the player only what the player may see; a gunboat game's players
are no one's business but the master's until it ends, through any command; the web archive
shows the public copy of grey press and no address at all; and a phase's picture is drawn
once, then served from the database.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_e2e_harness as harness
from sqlalchemy import func, select
from test_e2e_harness import LiveJudge, running_judge, start_game
from test_web import ArchiveServer, until

from judge.maps import load_map
from judge.store.base import make_engine, make_sessionmaker

live = harness.live
GM = "gm@players.test"
EVERYONE = 8  # seven players and the master


def test_a_become_copy_shows_the_player_only_their_own_orders(live: LiveJudge) -> None:
    powers = start_game(live, "bec")
    reply = live.reply(powers["France"], "signon Fbec pw\nA par - bur")
    assert "[Error Flag]" not in reply.subject, reply.body
    mails = live.mail(GM, "signon Mbec gmpw\nbecome Russia\nA mos - ukr", expect=2)
    master = next(m for m in mails if m.to == GM)
    copy = next(m for m in mails if m.to == powers["Russia"])
    assert "Army Paris -> Burgundy" in master.body, "the master sees every power's orders"
    assert "used BECOME Russia: this is a copy" in copy.body
    assert "Army Moscow -> Ukraine" in copy.body, "Russia sees the orders given as Russia"
    assert "Army Paris -> Burgundy" not in copy.body, "but not France's orders"
    assert "France:" not in copy.body and "Austria:" not in copy.body, copy.body


def _gunboat(live: LiveJudge, name: str) -> dict[str, str]:
    live.reply(GM, f"create ?{name} gmpw standard\nset gunboat")
    m = load_map("standard")
    powers = {}
    for i, pw in enumerate(m.powers):
        address = f"{pw.name.lower()}@players.test"
        powers[pw.name] = address
        last = i == len(m.powers) - 1
        live.mail(address, f"signon ?{name} pw\nset preference {pw.letter}", expect=1 + (EVERYONE if last else 0))
    return powers


def test_no_command_tells_who_plays_a_gunboat_power_until_the_game_ends(live: LiveJudge) -> None:
    powers = _gunboat(live, "gbx")
    italy = powers["Italy"]
    for sender, text in (("stranger@else.test", f"whois {italy}"), ("stranger@else.test", f"info player {italy}"),
                         (italy, f"whois {italy}"), (italy, "get dedication"),
                         (powers["France"], f"signon Fgbx pw\nwhois {italy}")):
        record = live.reply(sender, text).body.split("Record of", 1)[1]
        assert "gbx" not in record and "has no place in any game" in record, (sender, text, record)
    for sender, text in (("stranger@else.test", "list gbx\nlist full\nwhogame gbx full\nsummary gbx\nhistory gbx"),
                         (powers["France"], "signon Fgbx pw\nlist\nwhogame full\nsummary\nhistory")):
        body = live.reply(sender, text).body
        assert "@players.test" not in body.replace(powers["France"], ""), (sender, text, body)
    master = live.reply(GM, f"signon Mgbx gmpw\nwhois {italy}\nwhogame").body
    assert re.search(r"gbx\s+Italy\s+playing", master), "the master knows who plays Italy"
    assert re.search(r"Italy:\s+italy@players\.test", master), master

    live.mail(GM, "signon Mgbx gmpw\nterminate", expect=1 + EVERYONE)
    body = live.reply("stranger@else.test", f"whois {italy}").body
    assert re.search(r"gbx\s+Italy", body), "once the game is over, the players are revealed (njudge REVEAL)"
    assert italy in live.reply("stranger@else.test", "summary gbx").body


def test_the_web_archive_shows_the_public_copy_of_grey_press_and_no_address(live: LiveJudge) -> None:
    powers = start_game(live, "grey", players=[f"{p}@localhost" for p in
                                               ("austria", "england", "france", "germany", "italy", "russia",
                                                "turkey")])
    live.mail(GM, "signon Mgrey gmpw\nset press white/grey", expect=1 + EVERYONE)
    live.mail(powers["England"], "signon Egrey pw\nbroadcast grey\nWho am I? Write to spy@localhost.\nendpress",
              expect=1 + EVERYONE)
    live.mail(powers["France"], "signon Fgrey pw\nbroadcast\nFrance speaks, openly.\nendpress", expect=1 + EVERYONE)
    live.settle()
    web = ArchiveServer(live.config)
    try:
        page = web.text("/games/grey/S1901M")
        assert "Who am I?" in page and "France speaks, openly." in page
        assert "as England" not in page and "Master's copy" not in page, "the grey press's author is not published"
        assert "@" not in page, "no address, not even on a dotless domain"
        assert "(address hidden)" in page
    finally:
        web.stop()


@pytest.fixture
def drawing(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    """A judge whose result mails carry their pictures (the judge's default)."""
    yield from running_judge(database_url, tmp_path, pictures=True)


def test_a_phase_picture_is_drawn_once_and_then_served_stored(drawing: LiveJudge) -> None:
    live = drawing
    from judge.store.pictures import PhasePicture

    start_game(live, "pic")
    engine = make_engine(live.url)

    def stored() -> int:
        with make_sessionmaker(engine)() as s:
            return int(s.scalar(select(func.count()).select_from(PhasePicture)) or 0)

    web, other = ArchiveServer(live.config), ArchiveServer(live.config)
    try:
        drawn = web.server.config.app.state.pictures
        status, kind, first = web.get("/games/pic/S1901M.png")
        assert status == 200 and first[:8] == b"\x89PNG\r\n\x1a\n"
        assert drawn.drawn == 1 and stored() == 1
        assert web.get("/games/pic/S1901M.png")[2] == first
        status, kind, svg = web.get("/games/pic/S1901M.svg")
        assert status == 200 and b"<svg" in svg
        assert drawn.drawn == 1, "the second request draws nothing"
        assert stored() == 1
        assert other.get("/games/pic/S1901M.png")[2] == first
        assert other.server.config.app.state.pictures.drawn == 0, "another web process serves the stored picture"
        live.mail(GM, "signon Mpic gmpw\nprocess", expect=1 + EVERYONE)
        until(lambda: live.phase("pic") == "F1901M", "the phase to be processed")
        until(lambda: web.get("/games/pic/S1901M.png")[0] == 200, "the results of S1901M in the archive")
        assert web.get("/games/pic/S1901M.png")[2] != first
        assert drawn.drawn == 2 and stored() == 2, "the phase processed: its picture shows its orders"
        assert drawn.mailed == 1, "its PNG is the one the result mail carried, not made again"
        assert web.get("/games/pic/F1901M.png")[0] == 200
        assert drawn.drawn == 3, "a new phase is a new picture"
        assert stored() == 2, "the picture of a position that has gone is not kept"
    finally:
        web.stop()
        other.stop()
        engine.dispose()
