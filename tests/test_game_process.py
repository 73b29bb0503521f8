"""The game work in a process of its own (``[judge] game_process``), over real SMTP: it answers
mail as the one-process judge does, a game process that dies is started again and loses no
mail, and it ends with the judge, whether the judge is stopped or killed."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import CaptureSMTP, free_port
from test_server import ROOT, _wait_listening, count, judge_toml, mail, make_config, run_server, send

from judge.config import Config
from judge.server import JudgeServer
from judge.store.mail import InboxMessage, OutboxMessage


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its parent to reap it does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def wait(condition: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def help_replies(relay: CaptureSMTP) -> list[str]:
    return [str(c.message["In-Reply-To"]) for c in relay.messages]


def answer_help(config: Config, relay: CaptureSMTP) -> int | None:
    """Run the judge on ``config``, have it answer one HELP mail; its game process's pid."""
    pids: list[int | None] = []

    def scenario(server: JudgeServer) -> None:
        pids.append(server.game_pid)
        send(server.config.smtp_port, mail(1, "help"))
        relay.wait_for(1)

    run_server(config, scenario)
    assert help_replies(relay) == ["<m1@example.org>"]
    assert "HELP" in relay.messages[0].message.get_content().upper()
    return pids[0]


def test_mail_is_answered_by_the_game_process(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    pid = answer_help(make_config(tmp_path, migrated_url, capture_smtp, game_process=True), capture_smtp)
    assert pid is not None and pid != os.getpid()
    wait(lambda: not alive(pid), "the game process to end with the judge", 5)


def test_by_default_a_process_of_its_own_on_postgresql_only(migrated_url: str, tmp_path: Path,
                                                           capture_smtp: CaptureSMTP) -> None:
    pids: list[int | None] = []
    run_server(make_config(tmp_path, migrated_url, capture_smtp), lambda server: pids.append(server.game_pid))
    assert (pids[0] is not None) == migrated_url.startswith("postgresql")


def test_in_one_process_when_asked(sqlite_db: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    from judge.store.migrate import upgrade

    upgrade(sqlite_db)
    assert answer_help(make_config(tmp_path, sqlite_db, capture_smtp, game_process=False), capture_smtp) is None


def test_a_game_process_that_dies_is_started_again(migrated_url: str, tmp_path: Path,
                                                  capture_smtp: CaptureSMTP) -> None:
    """SIGKILL to the game process: the mail accepted while it was gone is answered by the
    next one, which the judge starts within seconds."""
    config = make_config(tmp_path, migrated_url, capture_smtp, game_process=True)

    def scenario(server: JudgeServer) -> None:
        first = server.game_pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        wait(lambda: not alive(first), "the game process to die")
        send(config.smtp_port, mail(1, "help"))  # the listener is this process: it still takes mail
        wait(lambda: server.game_pid not in (None, first), "a new game process")
        capture_smtp.wait_for(1, timeout=20)
        send(config.smtp_port, mail(2, "help"))
        capture_smtp.wait_for(2, timeout=20)

    run_server(config, scenario)
    assert help_replies(capture_smtp) == ["<m1@example.org>", "<m2@example.org>"]
    assert count(migrated_url, InboxMessage, InboxMessage.status == "done") == 2


_STARTED: list[tuple[subprocess.Popen[bytes], int | None]] = []  # by _serve; ended by _reap


@pytest.fixture(autouse=True)
def _reap() -> Iterator[None]:
    """End whatever ``judge serve`` (and game process) a test started and left running when
    it failed, so a failure leaves no judge behind."""
    yield
    while _STARTED:
        proc, child = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if child is not None and alive(child):
            os.kill(child, signal.SIGKILL)


def _serve(tmp_path: Path, relay: CaptureSMTP) -> tuple[subprocess.Popen[bytes], int, int, Path]:
    """``judge serve`` in a process of its own; it, its SMTP port and its game process's pid
    (both ended after the test if it leaves them running, :func:`_reap`)."""
    port = free_port()
    log = tmp_path / "judge.log"
    toml = judge_toml(tmp_path, port, relay.port)
    toml.write_text(toml.read_text().replace("stop_seconds = 2\n", "stop_seconds = 2\ngame_process = true\n"))
    proc = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--config", str(toml)],
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=log.open("ab"), stderr=subprocess.STDOUT)
    _STARTED.append((proc, None))
    _wait_listening(port, proc)
    found = re.findall(r"game process (\d+) started", log.read_text())
    assert found, log.read_text()
    _STARTED[-1] = (proc, int(found[-1]))
    return proc, port, int(found[-1]), log


def test_the_game_process_ends_when_the_judge_is_killed(tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    """kill -9 of ``judge serve``: its game process sees its socket end and stops; the next
    judge answers what was accepted."""
    proc, port, child, _ = _serve(tmp_path, capture_smtp)
    url = f"sqlite:///{tmp_path / 'data' / 'judge.db'}"
    try:
        send(port, mail(1, "help"))
        capture_smtp.wait_for(1)
        # marked sent first: a kill in the instant between the relay's 250 and that commit
        # would send the reply again (test_server's kill test counts those)
        wait(lambda: count(url, OutboxMessage, OutboxMessage.status == "sent") == 1, "the reply marked sent")
        proc.kill()
        proc.wait(10)
        wait(lambda: not alive(child), "the orphaned game process to stop")
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, port, child, _ = _serve(tmp_path, capture_smtp)
    try:
        send(port, mail(2, "help"))
        capture_smtp.wait_for(2)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    wait(lambda: not alive(child), "the game process to stop with the judge", 5)
    assert help_replies(capture_smtp) == ["<m1@example.org>", "<m2@example.org>"]


def test_sigterm_to_every_process_of_the_judge(tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    """A service manager's stop sends SIGTERM to every process of the unit at once: both
    stop, and the judge does not start its game process again on the way out."""
    proc, port, child, log = _serve(tmp_path, capture_smtp)
    send(port, mail(1, "help"))
    capture_smtp.wait_for(1)
    os.kill(child, signal.SIGTERM)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(15) == 0
    wait(lambda: not alive(child), "the game process to stop", 5)
    text = log.read_text()
    assert "starting it again" not in text and text.count("game process ready") == 1, text


def test_a_game_process_stopped_by_sigterm_is_not_started_again_before_the_judge_stops(
        migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    """The race of a service manager's stop, made certain: the game process has its SIGTERM and
    has ended, and the judge has seen it end, before the judge's own SIGTERM is handled (a
    busy machine). The judge waits for its stop instead of starting another game process."""
    config = make_config(tmp_path, migrated_url, capture_smtp, game_process=True)
    said: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("judge.game_process")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)

    async def main() -> None:
        server = JudgeServer(config)
        await server.start()
        try:
            child = server.game_pid
            assert child is not None
            os.kill(child, signal.SIGTERM)
            await asyncio.to_thread(wait, lambda: any("ended" in m or "stopped by SIGTERM" in m for m in said),
                                    "the judge to see its game process end")
            await asyncio.sleep(0)
        finally:
            await server.stop()
        assert server.game_pid is None

    try:
        asyncio.run(main())
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert not any("starting it again" in m for m in said), said
    assert sum("started" in m for m in said) == 1, said
    assert forked_children() == [], "a game process outlived the judge"


def test_a_stop_while_a_restart_is_pending_leaves_no_process(migrated_url: str, tmp_path: Path,
                                                             capture_smtp: CaptureSMTP) -> None:
    """The judge stopped in the second after its game process died, before the next one is
    started: it starts none, and no forked process outlives it."""
    config = make_config(tmp_path, migrated_url, capture_smtp, game_process=True)
    seen: list[int] = []

    async def main() -> None:
        server = JudgeServer(config)
        await server.start()
        try:
            first = server.game_pid
            assert first is not None
            seen.append(first)
            os.kill(first, signal.SIGKILL)
            await asyncio.to_thread(wait, lambda: not alive(first), "the game process to die")
        finally:
            await server.stop()
        assert server.game_pid is None

    asyncio.run(main())
    assert not alive(seen[0])
    assert forked_children() == [], "a game process outlived the judge"


def _parent(pid: str) -> int:
    try:
        match = re.search(r"PPid:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
    except OSError:
        return 0
    return int(match.group(1)) if match else 0


def forked_children() -> list[int]:
    """The live processes forked by this test process's forkserver (the game processes)."""
    pids = [p.name for p in Path("/proc").iterdir() if p.name.isdigit()]
    servers = {int(p) for p in pids if _parent(p) == os.getpid()
               and b"forkserver" in Path(f"/proc/{p}/cmdline").read_bytes()}
    return [int(p) for p in pids if _parent(p) in servers and alive(int(p))]
