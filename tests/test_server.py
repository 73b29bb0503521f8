"""The whole mail path over real SMTP on loopback: listener, inbox, scheduler, sender, restarts."""

from __future__ import annotations

import asyncio
import os
import signal
import smtplib
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import CaptureSMTP, free_port
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from judge.config import Config
from judge.mail.reader import IncomingMail
from judge.scheduler import DueQueue
from judge.server import JudgeServer
from judge.store.base import make_engine, make_sessionmaker, utcnow
from judge.store.mail import InboxMessage, OutboxMessage, queue_mail
from judge.worker import set_within

ROOT = Path(__file__).resolve().parent.parent


def make_config(tmp_path: Path, url: str, relay: CaptureSMTP, **extra: object) -> Config:
    values: dict[str, object] = dict(
        code="TEST", address="judge@example.org", data_dir=tmp_path, database_url=url, smtp_port=free_port(),
        relay_host="127.0.0.1", relay_port=relay.port, relay_timeout=2, max_message_bytes=20_000,
        sender_poll_seconds=0.1, sender_retry_base_seconds=0.1, inbox_poll_seconds=1, scheduler_sync_seconds=1)
    values.update(extra)
    return Config(**values)  # type: ignore[arg-type]


def mail(n: int, body: str = "", sender: str = "ann@example.org", extra: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: judge@example.org\r\nSubject: s{n}\r\nMessage-ID: <m{n}@example.org>\r\n"
            f"{extra}\r\n{body or f'line {n}'}\r\n").encode()


def send(port: int, raw: bytes, mail_from: str = "ann@example.org") -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.sendmail(mail_from, ["judge@example.org"], raw)


def echo(session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
    queue_mail(session, mail.sender, f"Re: {mail.subject}", mail.text, in_reply_to=mail.message_id)


def count(url: str, model: type, *where: object) -> int:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            return int(session.scalar(select(func.count()).select_from(model).where(*where)) or 0)
    finally:
        engine.dispose()


def run_server(config: Config, scenario: Callable[[JudgeServer], object], **hooks: object) -> None:
    async def main() -> None:
        server = JudgeServer(config, **hooks)  # type: ignore[arg-type]
        await server.start()
        try:
            await asyncio.to_thread(scenario, server)
        finally:
            await server.stop()

    asyncio.run(main())


def test_mail_in_reply_out(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp)

    def scenario(server: JudgeServer) -> None:
        send(config.smtp_port, mail(1, "A par - bur\n-- \nAnn"))
        send(config.smtp_port, mail(1, "A par - bur"))  # the same Message-ID again
        send(config.smtp_port, mail(2, extra="Precedence: junk\r\n"))
        send(config.smtp_port, mail(3, sender="mailer-daemon@example.org"), mail_from="")
        capture_smtp.wait_for(1)
        time.sleep(0.3)

    run_server(config, scenario, handler=echo)
    (reply,) = capture_smtp.messages
    msg = reply.message
    assert reply.rcpt_tos == ["ann@example.org"] and msg["Subject"] == "Re: s1"
    assert msg.get_content().replace("\r\n", "\n") == "A par - bur\n" and msg["In-Reply-To"] == "<m1@example.org>"
    assert msg["X-Loop"] == "judge@example.org" and msg["Auto-Submitted"] == "auto-replied"
    assert count(migrated_url, InboxMessage) == 3
    assert count(migrated_url, InboxMessage, InboxMessage.status == "ignored") == 2
    assert count(migrated_url, OutboxMessage, OutboxMessage.status == "sent") == 1


def test_oversize_mail_gets_552_and_is_not_stored(migrated_url: str, tmp_path: Path,
                                                  capture_smtp: CaptureSMTP) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp)
    big = mail(1, ("x" * 70 + "\r\n") * 400)  # over 20_000 bytes in short lines

    def scenario(server: JudgeServer) -> None:
        with pytest.raises(smtplib.SMTPSenderRefused) as declared:  # SIZE announced in MAIL FROM
            send(config.smtp_port, big)
        assert declared.value.smtp_code == 552
        with smtplib.SMTP("127.0.0.1", config.smtp_port) as smtp:  # no SIZE: refused after DATA
            smtp.ehlo()
            assert smtp.mail("ann@example.org")[0] == 250
            assert smtp.rcpt("judge@example.org")[0] == 250
            assert smtp.data(big)[0] == 552
        send(config.smtp_port, mail(2))
        capture_smtp.wait_for(1)

    run_server(config, scenario, handler=echo)
    assert count(migrated_url, InboxMessage) == 1


def test_sessions_at_once_share_commits_and_each_250_follows_its_commit(migrated_url: str, tmp_path: Path,
                                                                         capture_smtp: CaptureSMTP) -> None:
    """Eight clients at once, each sending one of its mails twice: when a client reads its
    250 the message is in the inbox already; fewer commits than messages; each stored once."""
    config = make_config(tmp_path, migrated_url, capture_smtp, sender_mails_per_minute=1000)
    groups: list[int] = []
    missing: list[int] = []

    def stored(_conn: object, statement: object, multiparams: list[object], params: object, *_: object) -> None:
        if getattr(statement, "is_insert", False) and getattr(statement, "table", None) == InboxMessage.__table__:
            groups.append(len(multiparams) if multiparams else 1)

    def client(first: int) -> None:
        for n in range(first, first + 10):
            send(config.smtp_port, mail(n))
            if count(migrated_url, InboxMessage, InboxMessage.message_id == f"<m{n}@example.org>") != 1:
                missing.append(n)
        send(config.smtp_port, mail(first))  # a copy: acknowledged, not stored again

    def scenario(server: JudgeServer) -> None:
        event.listen(server.engine, "after_execute", stored)
        threads = [threading.Thread(target=client, args=(10 * k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        capture_smtp.wait_for(80)

    run_server(config, scenario, handler=echo)
    assert missing == []
    assert count(migrated_url, InboxMessage) == 80
    assert count(migrated_url, OutboxMessage) == 80
    assert sum(groups) == 80 and len(groups) < 80, groups


class Deadlines:
    """Stand-in due games: a dict of moments; a claimed game queues one result mail. A game
    that cannot be processed ("stuck") is put off a second, as the game layer's queue puts off
    a game whose work fails."""

    def __init__(self) -> None:
        self.due: dict[str, datetime] = {}
        self.calls: Counter[str] = Counter()
        self.lock = threading.Lock()

    def claim(self, session: Session, config: Config, now: datetime) -> str | None:
        with self.lock:
            ready = sorted((when, game) for game, when in self.due.items() if when <= now)
            if not ready:
                return None
            game = ready[0][1]
            self.calls[game] += 1
            if game == "stuck":
                self.due[game] = now + timedelta(seconds=1)
                return game
            del self.due[game]
        time.sleep(0.01)  # long enough for wakes to overlap runs, as real phases do
        queue_mail(session, "all@example.org", f"{game} results", "results", game=game, kind="result")
        return game

    def earliest(self, session: Session) -> datetime | None:
        with self.lock:
            return min(self.due.values(), default=None)

    def sweep(self, session: Session) -> int:
        return 0

    @property
    def queue(self) -> DueQueue:
        return DueQueue(self.claim, self.earliest, self.sweep)

    def handler(self, session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
        game = mail.text.split()[-1]
        with self.lock:
            self.due[game] = now + timedelta(seconds=0.3)


def test_deadlines_are_processed(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp)
    games = Deadlines()
    games.due = {"late": utcnow() - timedelta(hours=1), "soon": utcnow() + timedelta(seconds=0.5),
                 "stuck": utcnow() - timedelta(minutes=1)}

    def scenario(server: JudgeServer) -> None:
        capture_smtp.wait_for(2)
        send(config.smtp_port, mail(1, "deadline new"))  # the handler sets a deadline; the batch wakes the job
        capture_smtp.wait_for(3)

    run_server(config, scenario, queue=games.queue, handler=games.handler)
    subjects = [c.message["Subject"] for c in capture_smtp.messages]
    assert subjects == ["late results", "soon results", "new results"]
    assert capture_smtp.messages[0].message["Auto-Submitted"] == "auto-generated"
    assert games.calls["stuck"] <= 3  # put off a second each time, not claimed in a tight loop
    assert set(games.due) == {"stuck"}


def test_many_deadlines_at_once(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp)
    games = Deadlines()
    due = utcnow() + timedelta(seconds=0.3)
    games.due = {f"g{n}": due for n in range(40)}

    def scenario(server: JudgeServer) -> None:
        capture_smtp.wait_for(40)

    run_server(config, scenario, queue=games.queue, handler=echo)
    assert games.calls == Counter({f"g{n}": 1 for n in range(40)})
    assert len(capture_smtp.messages) == 40


def test_a_moved_clock_runs_what_became_due_at_once(sqlite_db: str, tmp_path: Path) -> None:
    """The job sleeps until the earliest moment on the judge's clock: moving the clock past a
    deadline an hour away runs it at once, with nothing waiting on the wall clock."""
    from judge import clock
    from judge.scheduler import DeadlineScheduler
    from judge.store.migrate import upgrade

    upgrade(sqlite_db)
    engine = make_engine(sqlite_db)
    factory = make_sessionmaker(engine, mail_domain="example.org")
    games = Deadlines()
    games.due = {"later": utcnow() + timedelta(hours=1)}

    async def main() -> None:
        config = Config(code="TEST", address="judge@example.org", data_dir=tmp_path, scheduler_sync_seconds=600)
        done = asyncio.Event()
        scheduler = DeadlineScheduler(factory, config, games.queue, on_processed=done.set)
        await scheduler.start()
        try:
            assert not await set_within(done, 0.3), "an hour early"
            clock.advance(timedelta(hours=1))
            assert await set_within(done, 10), "the moved clock did not wake the job"
        finally:
            await scheduler.stop(2)

    try:
        asyncio.run(main())
    finally:
        clock.reset()
        engine.dispose()
    assert games.calls == Counter({"later": 1})


def _wait_listening(port: int, proc: subprocess.Popen[bytes], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the judge exited"
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=2) as smtp:
                smtp.noop()
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the judge did not start listening")


def judge_toml(tmp_path: Path, port: int, relay_port: int, extra: str = "", relay_timeout: float = 0.5) -> Path:
    path = tmp_path / "judge.toml"
    path.write_text(f"""
[judge]
address = "judge@example.org"
data_dir = "data"
stop_seconds = 2
[smtp]
port = {port}
[relay]
host = "127.0.0.1"
port = {relay_port}
timeout = {relay_timeout}
[sender]
poll_seconds = 0.1
retry_base_seconds = 0.1
[inbox]
poll_seconds = 0.5
[limits]
sender_mails_per_minute = 1000
{extra}""")
    return path


def test_kill_and_restart_loses_nothing_and_answers_once(tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    """kill -9 twice while mail flows both ways: every accepted mail is answered, within 10 s
    of the restart that followed its acceptance, and the duplicates are counted."""
    port = free_port()
    command = [sys.executable, "-m", "judge", "serve", "--config", str(judge_toml(tmp_path, port, capture_smtp.port))]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = (tmp_path / "judge.log").open("ab")
    starts: list[float] = []

    def start() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=log, stderr=log)
        _wait_listening(port, proc)
        starts.append(time.monotonic())
        return proc

    total = 30
    accepted: dict[int, float] = {}

    def client() -> None:  # like a real MTA: retry each message until the judge answers 250
        for n in range(total):
            while True:
                try:
                    send(port, mail(n, "help"))
                    accepted[n] = time.monotonic()
                    break
                except (OSError, smtplib.SMTPException):
                    time.sleep(0.05)

    def wait(condition: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 20
        while not condition():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.005)

    url = f"sqlite:///{tmp_path / 'data' / 'judge.db'}"
    proc = start()
    sending = threading.Thread(target=client, daemon=True)
    try:
        sending.start()
        wait(lambda: len(capture_smtp.messages) >= 5)  # replies are flowing out: kill the sender mid-way
        proc.kill()
        proc.wait()
        proc = start()
        wait(lambda: len(accepted) >= 18)  # mail is flowing in: kill the listener and reader mid-way
        proc.kill()
        proc.wait()
        proc = start()
        sending.join(30)
        assert sorted(accepted) == list(range(total))
        capture_smtp.wait_for(total, timeout=20)
        wait(lambda: count(url, OutboxMessage, OutboxMessage.status == "sent") >= total)
        time.sleep(0.3)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    assert count(url, InboxMessage) == total
    assert count(url, InboxMessage, InboxMessage.status == "new") == 0
    copies: dict[str, list[bytes]] = {}
    replied: Counter[str] = Counter()
    answered: dict[int, float] = {}
    for captured in capture_smtp.messages:
        mid = str(captured.message["Message-ID"])
        if mid not in copies:
            replied[str(captured.message["In-Reply-To"])] += 1
            answered[int(str(captured.message["In-Reply-To"])[2:].split("@")[0])] = captured.at
        copies.setdefault(mid, []).append(captured.data)
    assert replied == Counter(f"<m{n}@example.org>" for n in range(total))  # exactly one reply each
    waits = {n: answered[n] - max([accepted[n], *[s for s in starts if s <= answered[n]]]) for n in range(total)}
    print(f"slowest answer after acceptance or restart: {max(waits.values()):.2f} s")
    assert max(waits.values()) < 10, waits
    assert count(url, OutboxMessage) == len(copies)
    assert count(url, OutboxMessage, OutboxMessage.status != "sent") == 0
    # A kill between the relay's 250 and our commit (a fraction of a millisecond) can resend one
    # mail per kill (the limit of SMTP); such a copy is the same mail byte for byte, Message-ID
    # included, so it is recognisable.
    resent = {mid: datas for mid, datas in copies.items() if len(datas) > 1}
    print(f"duplicates after 2 kills: {sum(len(datas) - 1 for datas in resent.values())}")
    assert sum(len(datas) - 1 for datas in resent.values()) <= 2
    assert all(len(set(datas)) == 1 for datas in resent.values())


class SlowRelay(CaptureSMTP):
    """A relay that takes ``delay`` seconds over each message (``delay`` may grow mid-test)."""

    delay = 0.002

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        await asyncio.sleep(self.delay)
        return await super().handle_DATA(server, session, envelope)


def test_sigterm_stops_quickly_while_draining_a_backlog(tmp_path: Path) -> None:
    """17,000 mails queued; SIGTERM while they drain (and once the relay hangs): the judge is
    gone within stop_seconds and a little, and what it had claimed is back in the queue."""
    relay = SlowRelay().start()
    port = free_port()
    config_path = judge_toml(tmp_path, port, relay.port, relay_timeout=60)
    url = f"sqlite:///{tmp_path / 'data' / 'judge.db'}"
    from judge.store.migrate import upgrade

    upgrade(url)
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine, mail_domain="example.org")() as session, session.begin():
            for n in range(17_000):
                queue_mail(session, f"p{n}@example.org", f"s{n}", "body\n", kind="result")
    finally:
        engine.dispose()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = (tmp_path / "judge.log").open("ab")
    stops: list[float] = []
    try:
        for hang in (False, True):
            proc = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--config", str(config_path)],
                                    cwd=tmp_path, env=env, stdout=log, stderr=log)
            _wait_listening(port, proc)
            before = len(relay.messages)
            relay.wait_for(before + 200, timeout=20)
            if hang:
                relay.delay = 30.0
                time.sleep(0.5)
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(15) == 0
            stops.append(time.monotonic() - started)
    finally:
        relay.stop()
    print(f"SIGTERM to exit while draining: {stops[0]:.2f} s; with the relay hung: {stops[1]:.2f} s")
    assert all(s < 5 for s in stops), stops  # stop_seconds = 2
    from judge.store.nodes import Node

    assert count(url, OutboxMessage, OutboxMessage.claimed_by.is_not(None)) == 0
    assert count(url, Node) == 0
    assert count(url, OutboxMessage, OutboxMessage.status == "pending") > 0


def test_health_line_in_the_log(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP,
                                caplog: pytest.LogCaptureFixture) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp, health_seconds=0.2)
    caplog.set_level("INFO", logger="judge.server")

    def scenario(server: JudgeServer) -> None:
        send(config.smtp_port, mail(1))
        capture_smtp.wait_for(1)
        deadline = time.monotonic() + 5
        while not any("outbox pending 0 failed 0 sent 1" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, [r.getMessage() for r in caplog.records]
            time.sleep(0.05)

    run_server(config, scenario, handler=echo)
    line = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("health:"))
    assert "inbox new" in line and "quarantined" in line and "oldest pending" in line
