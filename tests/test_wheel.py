"""Issue 12, item 11: a built wheel, installed into a fresh virtual environment away from the
checkout, carries its maps, templates, migrations and DATC cases: ``judge map``, ``judge
datc`` and a ``judge serve`` that answers a HELP mail over real SMTP all work."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import smtplib
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import CaptureSMTP, free_port

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str | Path, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUDGE_MAPS", "JUDGE_TEMPLATES")}
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def send_when_listening(port: int, msg: EmailMessage, alive: Callable[[], object] = lambda: True,
                        timeout: float = 60) -> None:
    """Send ``msg`` to the judge listening on ``port``, retried while it starts (``alive``
    true, else the reason it is not, as the failure's message)."""
    deadline = time.monotonic() + timeout
    while True:
        state = alive()
        assert state is True, state
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
                smtp.send_message(msg)
            return
        except OSError:
            assert time.monotonic() < deadline, "the judge did not listen"
            time.sleep(0.2)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``judge`` script of a fresh venv holding the wheel built from this checkout: made
    once for the whole run, by the first worker that asks, under a lock in the folder the
    workers share (two workers would both pay for it, and two builds of the checkout at once
    trip over each other in its ``build/``). The wheel is built with this venv's setuptools
    (no isolated build environment to make first) and installed by this venv's pip into one
    made without pip of its own (``--python``): the same wheel and venv, some 7 s of CPU less."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    where = shared / "wheel-installed"
    judge = where / "venv" / "bin" / "judge"
    with (shared / "wheel-installed.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (where / "done").exists():
            shutil.rmtree(where, ignore_errors=True)
            where.mkdir()
            run(sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps", "-w", where / "dist",
                ROOT, cwd=where)
            (wheel,) = (where / "dist").glob("judge-*.whl")
            venv.create(where / "venv", with_pip=False)
            run(sys.executable, "-m", "pip", "--python", where / "venv" / "bin" / "python", "install", "-q", wheel,
                cwd=where)
            (where / "done").touch()
    return judge


def test_map_and_datc_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    maps = run(installed, "map", "check", cwd=tmp_path).stdout
    assert "standard: 76 provinces" in maps and "colonial:" in maps and "oceania:" in maps
    assert "0 failed" in run(installed, "datc", cwd=tmp_path, timeout=120).stdout
    where = run(installed.parent / "python", "-c", "import judge.resources as r; print(r.data_dir('maps'))",
                cwd=tmp_path).stdout
    assert "site-packages" in where and str(ROOT) not in where


def test_serve_from_the_wheel_answers_help(installed: Path, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    port = free_port()
    (tmp_path / "judge.toml").write_text(f'[judge]\naddress = "judge@example.org"\n[smtp]\nport = {port}\n'
                                         f'[relay]\nhost = "127.0.0.1"\nport = {capture_smtp.port}\n'
                                         '[sender]\npoll_seconds = 0.2\n')
    log = (tmp_path / "judge.log").open("w")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen([str(installed), "serve", "--config", str(tmp_path / "judge.toml")], cwd=tmp_path,
                            env=env, stdout=log, stderr=log)
    try:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "ann@example.org", "judge@example.org", "help"
        msg["Message-ID"] = "<help.1@example.org>"
        msg.set_content("HELP\n")
        send_when_listening(port, msg, lambda: proc.poll() is None or (tmp_path / "judge.log").read_text())
        (reply,) = capture_smtp.wait_for(1, timeout=30)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    assert reply.rcpt_tos == ["ann@example.org"] and reply.message["In-Reply-To"] == "<help.1@example.org>"
    assert "SIGNON" in reply.message.get_content()
