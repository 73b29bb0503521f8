"""The web archive over a game played through the real judge (mail over SMTP on loopback,
the archive served by uvicorn on loopback): it lists the game, its phases and centres by
year, shows each processed phase's results, picture and public press, and shows nothing a
player has not been mailed: no orders before their phase is processed, no partial press,
no addresses.

``ArchiveServer`` and ``play_opening`` are shared with ``test_browser.py``.
"""

from __future__ import annotations

import random
import re
import threading
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

import test_e2e_harness as harness
import uvicorn
from conftest import free_port
from test_e2e_harness import LiveJudge, start_game

from judge.config import Config
from judge.engine import Position, centre_counts
from judge.maps import load_board, load_map
from judge.randomgame import random_orders
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import find_game
from judge.web import phase_url
from judge.web.app import create_app

live = harness.live
GAME = "arc"
GM = "gm@players.test"
EVERYONE = 8  # seven players and the master
SVG = "{http://www.w3.org/2000/svg}"


class ArchiveServer:
    """``judge web``'s app under a real uvicorn on a free loopback port, in a thread."""

    def __init__(self, config: Config) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=self.port,
                                                    log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        until(lambda: self.server.started, "the archive server to start")

    def get(self, path: str) -> tuple[int, str, bytes]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=10) as resp:
                return resp.status, resp.headers.get("Content-Type", ""), resp.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers.get("Content-Type", ""), exc.read()

    def text(self, path: str) -> str:
        status, _, body = self.get(path)
        assert status == 200, (path, status)
        return body.decode("utf-8")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def until(check: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    """Wait for ``check()`` to be true, looking every 50 ms, failing after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def stored_position(live: LiveJudge, game: str) -> Position:
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            row = find_game(s, game)
            assert row is not None and row.position is not None
            return Position.from_json(load_map(row.map_name), row.position)
    finally:
        engine.dispose()


@dataclass
class Opening:
    powers: dict[str, str]
    processed: list[str]


def send_orders(live: LiveJudge, game: str, powers: dict[str, str], rng: random.Random, *, skip: str) -> None:
    """Random legal orders for every power but ``skip`` (so the phase waits for the master)."""
    board = load_board("standard")
    m = board.map
    pos = stored_position(live, game)
    for power, lines in random_orders(board, pos, rng).items():
        if power != skip and lines:
            letter = m.power(power).letter
            live.reply(powers[power], f"signon {letter}{game} pw\n" + "\n".join(lines))


def process(live: LiveJudge, game: str) -> str:
    """The master processes the phase; the phase processed."""
    phase = live.phase(game)
    assert phase is not None
    live.mail(GM, f"signon m{game} gmpw\nprocess", expect=1 + EVERYONE)
    return phase


def press(live: LiveJudge, powers: dict[str, str]) -> None:
    """A broadcast from France (public) and partial press from England to France (private)."""
    live.mail(powers["France"], f"signon F{GAME} pw\nbroadcast\nBonjour a tous, from Paris.\nendpress",
              expect=1 + EVERYONE)
    live.mail(powers["England"], f"signon E{GAME} pw\npress to f\nSecret plans for Belgium.\nendpress", expect=3)


def play_opening(live: LiveJudge, until_phase: str = "S1902M") -> Opening:
    """Start the game, press in Spring 1901, and play with random orders (Russia never
    orders: the master processes each phase) until ``until_phase``."""
    powers = start_game(live, GAME)
    press(live, powers)
    rng = random.Random(5)
    done = []
    while live.phase(GAME) != until_phase:
        if (live.phase(GAME) or "").endswith("M"):
            send_orders(live, GAME, powers, rng, skip="Russia")
        done.append(process(live, GAME))
    return Opening(powers, done)


def _units(svg: bytes) -> set[str]:
    root = ET.fromstring(svg)
    return {g.get("data-unit", "") for g in root.iter(f"{SVG}g")
            if g.get("data-unit") and g.get("data-state") in (None, "built")}


def test_the_archive_shows_what_was_mailed_and_nothing_more(live: LiveJudge) -> None:
    powers = start_game(live, GAME)
    press(live, powers)
    web = ArchiveServer(live.config)
    try:
        index = web.text("/")
        assert f'href="/games/{GAME}"' in index and "Standard" in index
        game_page = web.text(f"/games/{GAME}")
        assert 'data-phase="S1901M"' in game_page and "current, not yet processed" in game_page

        # France has ordered, but the phase is not processed: no orders anywhere.
        live.reply(powers["France"], f"signon F{GAME} pw\nA par - bur\nA mar - spa")
        page = web.text(f"/games/{GAME}/S1901M")
        assert 'id="pending"' in page and 'id="results"' not in page
        assert "Bonjour a tous, from Paris." in page
        assert "Secret plans" not in page
        assert "@" not in page and "(address hidden)" in page
        status, kind, svg = web.get(f"/games/{GAME}/S1901M.svg")
        assert status == 200 and kind.startswith("image/svg+xml")
        assert b"data-order" not in svg
        assert _units(svg) == {str(u) for u in stored_position(live, GAME).units.values()}

        send_orders(live, GAME, powers, random.Random(3), skip="Russia")
        process(live, GAME)
        until(lambda: 'id="results"' in web.text(f"/games/{GAME}/S1901M"), "the S1901M results page")
        page = web.text(f"/games/{GAME}/S1901M")
        results = re.search(r'<pre id="results">(.*?)</pre>', page, re.S)
        assert results is not None and "Movement results for Spring of 1901" in results.group(1)
        assert "Army Paris" in results.group(1) and "Russia:" in results.group(1)
        assert "@" not in page
        status, kind, svg = web.get(f"/games/{GAME}/S1901M.svg")
        assert status == 200 and svg.count(b"data-order=") == 22  # one per unit; Russia's default holds too
        # The picture is the position that followed, which is the game's position now.
        assert _units(svg) == {str(u) for u in stored_position(live, GAME).units.values()}
        status, kind, png = web.get(f"/games/{GAME}/S1901M.png")
        assert status == 200 and kind == "image/png" and png[:8] == b"\x89PNG\r\n\x1a\n"

        game_page = web.text(f"/games/{GAME}")
        assert f'href="/games/{GAME}/S1901M"' in game_page and f'href="/games/{GAME}/F1901M"' in game_page
        assert phase_url("https://judge.example.org/", GAME, "s1901m") == f"https://judge.example.org/games/{GAME}/S1901M"

        # A result mail not sent (here: refused by the relay, so the live sender leaves it
        # alone) keeps its phase off the archive.
        _set_result_status(live, "S1901M", "failed")
        assert web.get(f"/games/{GAME}/S1901M")[0] == 404
        assert web.get(f"/games/{GAME}/S1901M.png")[0] == 404
        assert f'href="/games/{GAME}/S1901M"' not in web.text(f"/games/{GAME}")
        _set_result_status(live, "S1901M", "sent")
        assert web.get(f"/games/{GAME}/S1901M")[0] == 200

        for path in ("/games/nosuch", f"/games/{GAME}/S1905M", f"/games/{GAME}/S1901M.gif", f"/games/{GAME}/junk"):
            status, kind, body = web.get(path)
            assert status == 404 and kind.startswith("text/html") and b"Not found" in body, path
    finally:
        web.stop()


def _set_result_status(live: LiveJudge, phase: str, status: str) -> None:
    from sqlalchemy import update

    from judge.store.mail import OutboxMessage

    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s, s.begin():
            s.execute(update(OutboxMessage).where(OutboxMessage.game == GAME, OutboxMessage.kind == "result",
                                                  OutboxMessage.phase == phase).values(status=status))
    finally:
        engine.dispose()


def test_centres_by_year_follow_the_game(live: LiveJudge) -> None:
    opening = play_opening(live)
    assert opening.processed[:2] == ["S1901M", "F1901M"] and opening.processed[-1] == "F1901B"
    web = ArchiveServer(live.config)
    try:
        until(lambda: 'data-year="1901"' in web.text(f"/games/{GAME}"), "the 1901 row of the summary")
        page = web.text(f"/games/{GAME}")
        row = re.search(r'<tr data-year="1901">(.*?)</tr>', page, re.S)
        assert row is not None
        counts = [int(n) for n in re.findall(r'<td class="n">(\d+)</td>', row.group(1))]
        owned = centre_counts(load_board("standard"), stored_position(live, GAME).owners)
        assert counts == [owned.get(p.name, 0) for p in load_map("standard").powers]
        start = re.search(r'<tr data-year="1900">(.*?)</tr>', page, re.S)
        assert start is not None and re.findall(r'<td class="n">(\d+)</td>', start.group(1)) == \
            ["3", "3", "3", "3", "3", "4", "3"]
        for code in opening.processed:
            assert f'data-phase="{code}"' in page
        assert row.group(0) in web.text(f"/games/{GAME}/F1901M")  # every phase page has the summary
    finally:
        web.stop()

