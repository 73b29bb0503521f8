"""Issue 27, item 1: the upgrade path of ``docs/deploy.md`` (section "Upgrading"), followed as an
operator would on PostgreSQL: a judge installed from one wheel runs a game; the next wheel is
built, ``pip install --upgrade`` takes it (a newer version, not "already installed"), ``judge
--version`` says so, ``judge db upgrade`` runs, the judge starts again and the game goes on.

The two wheels are built from this checkout with the versions a release tag would give them
(``SETUPTOOLS_SCM_PRETEND_VERSION_FOR_JUDGE``: setuptools-scm's own way to say "this is tag X")."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from conftest import CaptureSMTP, free_port
from test_wheel import ROOT, run, send_when_listening

JUDGE = "judge@judge.test"
UNITS = {
    "A": "A vie h\nA bud h\nF tri h", "E": "F lon h\nF edi h\nA lvp h", "F": "F bre h\nA par h\nA mar h",
    "G": "F kie h\nA ber h\nA mun h", "I": "F nap h\nA rom h\nA ven h",
    "R": "A mos h\nF sev h\nA war h\nF stp h", "T": "F ank h\nA con h\nA smy h",
}


def build_wheels(versions: tuple[str, ...], into: Path) -> list[Path]:
    """The wheels of this checkout, built as releases ``versions``, one after the other from
    one copy of it (setuptools builds in the source folder's ``build/``: two builds of one
    folder at once, as parallel test workers would make, trip over each other), with the
    tests' own setuptools (no isolated build environment made for each)."""
    source = into.parent / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache"))
    wheels = []
    for version in versions:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["SETUPTOOLS_SCM_PRETEND_VERSION_FOR_JUDGE"] = version
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps",
                               "-w", str(into), str(source)], env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        (wheel,) = into.glob(f"judge-{version}-*.whl")
        wheels.append(wheel)
    return wheels


class Served:
    """``judge serve`` of an installed judge, as systemd runs it."""

    def __init__(self, judge: Path, config: Path, log: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUDGE_MAPS", "JUDGE_TEMPLATES")}
        self.log = log
        with log.open("a") as out:
            self.proc = subprocess.Popen([str(judge), "serve", "--config", str(config)], cwd=config.parent,
                                         env=env, stdout=out, stderr=out)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(30) == 0, self.log.read_text()[-3000:]


def send(port: int, sender: str, text: str) -> None:
    """One mail to the judge, retried until the listener answers (it is starting)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, JUDGE, "orders"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(text)
    send_when_listening(port, msg)


@pytest.fixture
def relay() -> Iterator[CaptureSMTP]:
    capture = CaptureSMTP().start()
    yield capture
    capture.stop()


def test_upgrade_from_one_wheel_to_the_next(pg_database: str, relay: CaptureSMTP, tmp_path: Path) -> None:
    old, new = build_wheels(("1.0.0", "1.0.1"), tmp_path / "dist")
    venv.create(tmp_path / "venv", with_pip=True)
    bin_ = tmp_path / "venv" / "bin"
    run(bin_ / "python", "-m", "pip", "install", "-q", f"{old}[postgres]", cwd=tmp_path)
    assert run(bin_ / "judge", "--version", cwd=tmp_path).stdout.strip() == "judge 1.0.0"

    port = free_port()
    config = tmp_path / "judge.toml"
    config.write_text(f'[judge]\ncode = "UPG"\naddress = "{JUDGE}"\ndata_dir = "{tmp_path / "data"}"\n'
                      f'[database]\nurl = "{pg_database}"\n[smtp]\nport = {port}\n'
                      f'[relay]\nhost = "127.0.0.1"\nport = {relay.port}\n'
                      '[sender]\npoll_seconds = 0.2\n[inbox]\npoll_seconds = 0.5\n[scheduler]\nsync_seconds = 0.5\n'
                      '[games]\nnmr = true\nreminder_hours = 0\n'
                      '[clocks]\nmoves = "delay 0 min 0"\nretreats = "delay 0 min 0"\nbuilds = "delay 0 min 0"\n')
    served = Served(bin_ / "judge", config, tmp_path / "judge.log")
    try:
        send(port, "gm@players.test", "create ?up gmpw standard")
        relay.wait_for(1, timeout=60)
        for i, letter in enumerate(UNITS):
            send(port, f"{letter.lower()}@players.test", f"signon ?up pw\nset preference {letter}")
            relay.wait_for(2 + i, timeout=60)
        started = relay.wait_for(1 + 7 + 8, timeout=60)
    finally:
        served.stop()
    assert len(started) == 16

    upgraded = run(bin_ / "python", "-m", "pip", "install", "--upgrade", f"{new}[postgres]", cwd=tmp_path).stdout
    assert "judge-1.0.1" in upgraded and "Requirement already satisfied: judge" not in upgraded, upgraded
    assert run(bin_ / "judge", "--version", cwd=tmp_path).stdout.strip() == "judge 1.0.1"
    run(bin_ / "judge", "db", "upgrade", "--config", config, cwd=tmp_path)

    served = Served(bin_ / "judge", config, tmp_path / "judge.log")
    try:
        seen = len(relay.messages)
        for letter, units in UNITS.items():
            send(port, f"{letter.lower()}@players.test", f"signon {letter}up pw\n{units}")
        deadline = time.monotonic() + 90
        while not any(str(c.message["Subject"]) == "UPG:up - S1901M Results" for c in relay.messages[seen:]):
            assert time.monotonic() < deadline, [str(c.message["Subject"]) for c in relay.messages[seen:]]
            relay.wait_for(len(relay.messages) + 1, timeout=1, strict=False)
    finally:
        served.stop()
