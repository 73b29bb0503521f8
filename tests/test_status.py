"""Issue 27, item 3: ``judge status`` is a monitor. It exits 0 only when the judge is healthy
(a process alive with a fresh heartbeat, nothing quarantined or failed recently, no relay
errors waiting, no deadline overdue past the margin), 1 naming what is wrong otherwise;
``--json`` for scripts; no traceback when the reader closes the pipe."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge
from test_game_helpers import Judge, start_standard

from judge.store.base import utcnow
from judge.store.games import find_game

live = harness.live
ROOT = Path(__file__).resolve().parent.parent


def status(config: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", "status", *extra, "--config", str(config)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def write_config(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "status.toml"
    path.write_text(f'[judge]\naddress = "judge@judge.test"\n[database]\nurl = "{url}"\n'
                    '[status]\noverdue_minutes = 30\n')
    return path


def test_a_stopped_judge_and_an_overdue_deadline_are_named(migrated_url: str, tmp_path: Path) -> None:
    judge = Judge(migrated_url)
    start_standard(judge, "late")
    with judge.factory() as s, s.begin():
        game = find_game(s, "late")
        assert game is not None
        game.deadline = utcnow() - timedelta(hours=2)
    done = status(write_config(tmp_path, migrated_url))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "PROBLEM: no judge process alive" in done.stdout
    assert "PROBLEM: deadlines: 1 overdue by more than 30 min (late S1901M)" in done.stdout
    report = json.loads(status(write_config(tmp_path, migrated_url), "--json").stdout)
    assert report["healthy"] is False and len(report["problems"]) == 2
    assert report["overdue"][0]["game"] == "late"


def test_healthy_then_the_relay_refusing(live: LiveJudge, tmp_path: Path) -> None:
    config = write_config(tmp_path, live.url)
    live.reply("ann@players.test", "help")
    live.settle()
    done = status(config)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "health: ok" in done.stdout and "(alive)" in done.stdout
    report = json.loads(status(config, "--json").stdout)
    assert report["healthy"] is True and any(p["alive"] for p in report["processes"])

    live.relay.refuse.add("bob@players.test")
    live.send("bob@players.test", "help")
    live.settle()
    done = status(config)
    assert done.returncode == 1, done.stdout
    assert "PROBLEM: outbox: 1 mail(s) failed in the last 24 h" in done.stdout


def test_a_closed_pipe_costs_no_traceback(migrated_url: str, tmp_path: Path) -> None:
    command = f"{sys.executable} -m judge status --config {write_config(tmp_path, migrated_url)}"
    for reader in ("head -1", "true"):
        done = subprocess.run(["sh", "-c", f"{command} | {reader}"], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
