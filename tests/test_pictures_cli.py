"""``judge map``: an operator draws any phase of a game from the database (SVG or PNG), and
``judge map check`` checks the bundled maps and their art."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import test_e2e_harness as harness
from test_e2e_harness import LiveJudge
from test_web import GAME, play_opening, stored_position

from judge.cli import main

live = harness.live
SVG = "{http://www.w3.org/2000/svg}"


def _config(live: LiveJudge, tmp_path: Path) -> str:
    path = tmp_path / "judge.toml"
    path.write_text(f'[database]\nurl = "{live.url}"\n', encoding="utf-8")
    return str(path)


def test_judge_map_draws_a_past_phase_and_the_current_one(live: LiveJudge, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    opening = play_opening(live, until_phase="F1901M")
    config = _config(live, tmp_path)
    out = tmp_path / "s1901.svg"
    assert main(["map", GAME, "s1901m", "--svg", "-o", str(out), "--config", config]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.get("data-phase") == "S1901M" and root.get("data-game") == GAME
    assert len([g for g in root.iter(f"{SVG}g") if g.get("data-order")]) == 22
    assert f"{out}: {GAME} S1901M, with its orders" in capsys.readouterr().out

    now = tmp_path / "now.png"
    assert main(["map", GAME, "-o", str(now), "--config", config]) == 0
    assert now.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["map", GAME, "--svg", "-o", str(tmp_path / "now.svg"), "--config", config]) == 0
    root = ET.fromstring((tmp_path / "now.svg").read_text(encoding="utf-8"))
    assert root.get("data-phase") == "F1901M"
    assert not [g for g in root.iter(f"{SVG}g") if g.get("data-order")]
    drawn = {g.get("data-unit") for g in root.iter(f"{SVG}g") if g.get("data-unit")}
    assert drawn == {str(u) for u in stored_position(live, GAME).units.values()}
    assert opening.processed == ["S1901M"]

    assert main(["map", GAME, "S1909M", "--config", config]) == 1
    assert main(["map", "nosuch", "--config", config]) == 1
    assert main(["map", GAME, "Summer", "--config", config]) == 2
    err = capsys.readouterr().err
    assert f"game {GAME} has no phase S1909M to draw" in err
    assert "no game called 'nosuch'" in err
    assert "cannot read the phase 'Summer'" in err


def test_judge_map_check_checks_maps_and_art(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "check"]) == 0
    out = capsys.readouterr().out
    for name in ("standard", "colonial", "oceania"):
        assert f"{name}: " in out and out.count(": ok") == 3
    assert main(["map", "check", "atlantis"]) == 1
    assert "no map called 'atlantis'" in capsys.readouterr().out


def test_judge_web_is_off_without_a_web_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "judge.toml"
    config.write_text('[judge]\ncode = "TEST"\n', encoding="utf-8")
    assert main(["web", "--config", str(config)]) == 2
    assert "the web archive is off: add a [web] section" in capsys.readouterr().err
    config.write_text('[web]\nbase_url = "judge.example.org"\n', encoding="utf-8")
    assert main(["web", "--config", str(config)]) == 2
    assert "base_url must start with http:// or https://" in capsys.readouterr().err
