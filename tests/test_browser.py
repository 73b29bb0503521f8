"""The web archive in a real browser: headless Chromium (Debian's ``chromium``, driven by
Playwright with JavaScript off, as the pages need none) walks from the list of games to a
game and through its phases, reads the results and press, loads the picture and takes
screenshots. Skipped, with the reason, where Chromium or Playwright is missing.

Set ``JUDGE_SCREENSHOTS`` to a folder to keep the screenshots there (``docs/`` holds the
ones the README shows).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import test_e2e_harness as harness
from test_e2e_harness import LiveJudge
from test_web import GAME, ArchiveServer, play_opening, stored_position

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None  # type: ignore[assignment]

pytestmark = [
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason=f"Chromium not installed at {CHROMIUM} "
                       "(apt-get install chromium)"),
    pytest.mark.skipif(sync_playwright is None, reason="Playwright not installed (pip install -e '.[test]')"),
]
live = harness.live


def test_a_played_game_in_the_browser(live: LiveJudge, tmp_path: Path) -> None:
    opening = play_opening(live)
    web = ArchiveServer(live.config)
    keep = Path(os.environ["JUDGE_SCREENSHOTS"]) if os.environ.get("JUDGE_SCREENSHOTS") else None
    pictures: list[tuple[str, int, str]] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS,
                java_script_enabled=False, viewport={"width": 1060, "height": 1400})
            try:
                page = browser.new_page()
                page.on("response", lambda r: pictures.append((r.url, r.status, r.headers.get("content-type", "")))
                        if r.url.endswith(".png") else None)
                page.goto(web.base + "/")
                assert page.locator(f'#games tr[data-game="{GAME}"] td').nth(1).inner_text() == "Standard"
                page.get_by_role("link", name=GAME, exact=True).click()
                page.wait_for_url(f"**/games/{GAME}")
                listed = page.locator("#phases li")
                assert listed.count() == len(opening.processed) + 1
                assert "current, not yet processed" in listed.last.inner_text()
                assert page.locator('#summary tr[data-year="1901"] td').count() == 8
                page.screenshot(path=str(tmp_path / "game.png"), full_page=True)

                page.locator('#phases li[data-phase="S1901M"] a').click()
                page.wait_for_url(f"**/games/{GAME}/S1901M")
                assert page.locator("h1").inner_text() == f"{GAME}: Spring 1901 Movement"
                assert "Movement results for Spring of 1901" in page.locator("#results").inner_text()
                assert "Bonjour a tous, from Paris." in page.content()
                assert "Secret plans" not in page.content() and "@players.test" not in page.content()
                board = page.locator("img.board")
                assert board.get_attribute("src") == f"/games/{GAME}/S1901M.png"
                box = board.bounding_box()
                assert box is not None and box["width"] > 900 and box["height"] > 800
                page.screenshot(path=str(tmp_path / "phase.png"), full_page=True)

                page.get_by_role("link", name="Fall 1901 Movement").first.click()
                page.wait_for_url(f"**/games/{GAME}/F1901M")
                assert "Movement results for Fall of 1901" in page.locator("#results").inner_text()
                page.goto(web.base + f"/games/{GAME}/S1902M")
                assert page.locator("#pending").count() == 1
                units = {str(u) for u in stored_position(live, GAME).units.values()}
                svg = page.request.get(web.base + f"/games/{GAME}/S1902M.svg").text()
                assert all(f'data-unit="{u}"' in svg for u in units)
            finally:
                browser.close()
    finally:
        web.stop()
    loaded = [p for p in pictures if p[0].endswith(f"/games/{GAME}/S1901M.png")]
    assert loaded and loaded[0][1] == 200 and loaded[0][2] == "image/png"
    for name in ("game.png", "phase.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            (keep / f"web-{name}").write_bytes(data)


def test_a_finished_game_on_a_phone_and_a_desktop(live: LiveJudge, tmp_path: Path) -> None:
    """Issue 27, item 7: at a phone's 400 px the map scales to the screen and the tables scroll
    inside their own box (the page itself never wider than the screen); a finished game's list
    row and page say how it ended, and its last phase is not called current. The same pages
    at 1280 px, in the same browser."""
    play_opening(live, until_phase="F1901M")
    live.send("gm@players.test", f"signon m{GAME} gmpw\nterminate")
    live.settle()
    assert live.game_value(GAME, "status") == "terminated"
    web = ArchiveServer(live.config)
    keep = Path(os.environ["JUDGE_SCREENSHOTS"]) if os.environ.get("JUDGE_SCREENSHOTS") else None
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS,
                java_script_enabled=False)
            try:
                for width in (400, 1280):
                    page = browser.new_page()
                    page.set_viewport_size({"width": width, "height": 900})
                    page.goto(web.base + "/")
                    row = page.locator(f'#games tr[data-game="{GAME}"] td.status').inner_text()
                    assert "terminated by its master" in row, row
                    page.goto(web.base + f"/games/{GAME}")
                    assert "terminated by its master" in page.locator("#ending").inner_text()
                    assert "current" not in page.locator("#phases").inner_text()
                    assert page.locator("#phases li").last.get_attribute("data-phase") == "S1901M"
                    assert page.evaluate("document.documentElement.scrollWidth") <= width, width
                    page.screenshot(path=str(tmp_path / f"game-{width}.png"), full_page=True)
                    page.goto(web.base + f"/games/{GAME}/S1901M")
                    board = page.locator("img.board").bounding_box()
                    assert board is not None and board["width"] <= width and board["height"] > 0.5 * board["width"]
                    assert page.evaluate("document.documentElement.scrollWidth") <= width, width
                    table = page.locator("#summary").bounding_box()
                    assert table is not None
                    page.screenshot(path=str(tmp_path / f"phase-{width}.png"), full_page=True)
                    page.close()
            finally:
                browser.close()
    finally:
        web.stop()
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        for name in ("game", "phase"):
            (keep / f"web-{name}-400.png").write_bytes((tmp_path / f"{name}-400.png").read_bytes())
