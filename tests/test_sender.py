"""The sender: Maildir without a relay, SMTP with one, retries with backoff, permanent failures."""

from __future__ import annotations

import asyncio
import mailbox
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest
from conftest import CaptureSMTP, free_port
from sqlalchemy import create_engine, delete, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from judge.config import Config
from judge.mail.outgoing import build_message
from judge.mail.sender import Sender, claim_statement
from judge.mail.transport import RelayTransport
from judge.store.base import make_engine, make_sessionmaker, utcnow
from judge.store.mail import OutboxMessage, queue_mail


@pytest.fixture
def factory(migrated_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(migrated_url)
    yield make_sessionmaker(engine, mail_domain="example.org")
    engine.dispose()


def config(tmp_path: Path, relay_port: int | None = None, **extra: object) -> Config:
    values: dict[str, object] = dict(code="TEST", address="judge@example.org", data_dir=tmp_path,
                                     sender_poll_seconds=0.05, sender_retry_base_seconds=0.1,
                                     sender_retry_max_seconds=0.4, relay_timeout=2)
    if relay_port:
        values.update(relay_host="127.0.0.1", relay_port=relay_port)
    values.update(extra)
    return Config(**values)  # type: ignore[arg-type]


def queue(factory: sessionmaker[Session], *recipients: str, kind: str = "reply") -> None:
    with factory() as session, session.begin():
        for n, to in enumerate(recipients):
            queue_mail(session, to, f"Subject {n}", f"Body {n}\nÉté\n", game="g1", kind=kind,
                       in_reply_to="<orig@example.org>")


def outbox(factory: sessionmaker[Session]) -> list[OutboxMessage]:
    with factory() as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_maildir_without_relay(factory: sessionmaker[Session], tmp_path: Path) -> None:
    cfg = config(tmp_path)
    queue(factory, "Ann <ann@example.org>", "bob@example.org")
    queue(factory, "carl@example.org", kind="result")
    assert Sender(factory, cfg).send_due() == 3
    box = mailbox.Maildir(cfg.maildir, create=False)
    msgs = sorted((message_from_bytes(box.get_bytes(k), policy=policy.default) for k in box.keys()),
                  key=lambda m: str(m["To"]))
    assert [str(m["To"]) for m in msgs] == ["Ann <ann@example.org>", "bob@example.org", "carl@example.org"]
    first = msgs[0]
    assert str(first["From"]) == "TEST <judge@example.org>"
    assert first["X-Loop"] == "judge@example.org"
    assert first["Auto-Submitted"] == "auto-replied"
    assert msgs[2]["Auto-Submitted"] == "auto-generated"
    assert first["In-Reply-To"] == "<orig@example.org>"
    assert first["Date"] and first["Subject"] == "Subject 0"
    assert first.get_content() == "Body 0\nÉté\n"
    rows = outbox(factory)
    assert {r.message_id for r in rows} == {str(m["Message-ID"]) for m in msgs}
    assert all(r.status == "sent" and r.sent_at and r.attempts == 1 for r in rows)
    assert Sender(factory, cfg).send_due() == 0


def test_relay_in_id_order(factory: sessionmaker[Session], tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    queue(factory, "a@example.org", "b@example.org", "c@example.org")
    Sender(factory, config(tmp_path, capture_smtp.port)).send_due()
    got = capture_smtp.wait_for(3)
    assert [c.rcpt_tos for c in got] == [["a@example.org"], ["b@example.org"], ["c@example.org"]]
    assert all(c.mail_from == "judge@example.org" for c in got)
    assert [c.message["Message-ID"] for c in got] == [r.message_id for r in outbox(factory)]


def test_relay_down_retries_with_backoff(factory: sessionmaker[Session], tmp_path: Path) -> None:
    port = free_port()
    cfg = config(tmp_path, port)
    queue(factory, "ann@example.org")
    sender = Sender(factory, cfg)
    relay = CaptureSMTP(port=port)

    async def until(done: Callable[[OutboxMessage], bool], seconds: float = 10) -> OutboxMessage:
        deadline = time.monotonic() + seconds
        while True:
            (row,) = outbox(factory)
            if done(row):
                return row
            assert time.monotonic() < deadline, (row.status, row.attempts)
            await asyncio.sleep(0.02)

    async def scenario() -> None:
        task = asyncio.create_task(sender.run())
        try:
            row = await until(lambda r: r.attempts >= 2)
            assert row.status == "pending"
            assert "Connection refused" in (row.last_error or "") or "Errno" in (row.last_error or "")
            assert row.next_attempt_at and row.next_attempt_at > row.created_at + timedelta(seconds=0.1)
            relay.start()
            await asyncio.to_thread(relay.wait_for, 1, 5)
            await until(lambda r: r.status == "sent")
        finally:
            task.cancel()
            relay.stop()

    asyncio.run(scenario())
    (row,) = outbox(factory)
    assert row.status == "sent" and row.attempts >= 3
    assert len(relay.messages) == 1


def test_backoff_doubles_and_gives_up(factory: sessionmaker[Session], tmp_path: Path) -> None:
    cfg = config(tmp_path, free_port(), sender_retry_base_seconds=10, sender_retry_max_seconds=15,
                 sender_max_attempts=3)
    queue(factory, "ann@example.org")
    sender = Sender(factory, cfg)
    delays = []
    for _ in range(3):
        with factory() as session, session.begin():
            session.scalars(select(OutboxMessage)).one().next_attempt_at = utcnow()
        before = utcnow()
        sender.send_due()
        took = (utcnow() - before).total_seconds()
        row = outbox(factory)[0]
        if row.status == "pending" and row.next_attempt_at:
            # the delay counts from the failed attempt, somewhere inside send_due (which may
            # take a while on a loaded machine): between the two ends of that call
            delay = (row.next_attempt_at - before).total_seconds()
            delays.append(next(d for d in (10, 15) if d - 0.01 <= delay <= d + took + 0.01))
    row = outbox(factory)[0]
    assert delays == [10, 15]
    assert (row.status, row.attempts) == ("failed", 3)


def test_permanent_refusal_fails_at_once(factory: sessionmaker[Session], tmp_path: Path) -> None:
    relay = CaptureSMTP(refuse=("nobody@example.org",)).start()
    try:
        queue(factory, "nobody@example.org", "ann@example.org")
        Sender(factory, config(tmp_path, relay.port)).send_due()
        relay.wait_for(1)
    finally:
        relay.stop()
    first, second = outbox(factory)
    assert (first.status, first.attempts) == ("failed", 1) and "550" in (first.last_error or "")
    assert second.status == "sent"


def test_reserved_headers_cannot_be_overridden(tmp_path: Path) -> None:
    row = OutboxMessage(to_addr="a@b.org", subject="s", body="b", kind="notice", message_id="<x@y>",
                        headers={"From": "evil@x.org", "X-Game": "g1", "Reply-To": "gm@x.org"},
                        created_at=utcnow())
    msg = build_message(row, config(tmp_path))
    assert msg["From"] == "TEST <judge@example.org>" and msg["X-Game"] == "g1"
    assert msg["Auto-Submitted"] == "auto-generated" and msg["Reply-To"] == "gm@x.org"


def test_two_senders_in_one_process_keep_each_others_claims(factory: sessionmaker[Session], tmp_path: Path) -> None:
    """Two judges in one interpreter share a pid: neither may take the other for a dead
    process of that pid and free the mail it is delivering (the other would send it again)."""
    queue(factory, "ann@example.org")
    one, two = Sender(factory, config(tmp_path)), Sender(factory, config(tmp_path))
    (claimed,) = one.claim()
    assert two.beat() == 0
    (row,) = outbox(factory)
    assert row.claimed_by == claimed.claimed_by == one.node_id
    assert two.claim() == []


def claim_cost(factory: sessionmaker[Session], pending: int) -> int:
    """What one claim costs with ``pending`` rows due behind 1,000 sent ones: SQLite's
    virtual-machine steps (in hundreds), or the rows PostgreSQL's plan reads."""
    with factory() as session, session.begin():
        queue_mail(session, [f"p{n}@example.org" for n in range(1000)], "Sent", "Body\n", kind="result")
        session.execute(update(OutboxMessage).values(status="sent"))
        queue_mail(session, [f"q{n}@example.org" for n in range(pending)], "Due", "Body\n", kind="result")
    statement = claim_statement(utcnow(), 16)
    with factory() as session, session.begin():
        if session.get_bind().dialect.name == "sqlite":
            steps = [0]

            def step() -> int:
                steps[0] += 1
                return 0

            raw = session.connection().connection.driver_connection
            raw.set_progress_handler(step, 100)
            try:
                assert len(session.scalars(statement).all()) == 16
            finally:
                raw.set_progress_handler(None, 0)
            return steps[0]
        compiled = statement.compile(session.get_bind())
        plan = session.connection().exec_driver_sql(f"EXPLAIN (ANALYZE, FORMAT JSON) {compiled}",
                                                    compiled.params).scalar_one()

        def rows(node: dict[str, Any]) -> int:
            here = node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0) if "Scan" in node["Node Type"] else 0
            return int(here) + sum(rows(child) for child in node.get("Plans", []))

        return rows(plan[0]["Plan"])


def test_a_claim_reads_no_more_of_the_queue_than_it_takes(factory: sessionmaker[Session]) -> None:
    """A claim walks the queue in id order and stops at its limit: after 5,000 games due at
    once it is one of 2,500 claims over 40,000 pending rows, and a plan that read and sorted
    every pending row (SQLite's, through the old (status, next_attempt_at, id) index) made
    the burst's sending quadratic."""
    few = claim_cost(factory, 20)
    with factory() as session, session.begin():
        session.execute(delete(OutboxMessage))
    many = claim_cost(factory, 2000)
    assert many <= few * 1.5 + 5, (few, many)


class RivalRelay(CaptureSMTP):
    """A relay that, holding a mail's closing dot, lets another writer try the lock the
    sender's "sent" update needs (SQLite's one writer, or the row on PostgreSQL) and keep it
    a second if it gets it, before answering 250."""

    def __init__(self, url: str, table: str) -> None:
        super().__init__()
        self.url, self.table = url, table
        self.row_id = 0
        self.rival_got_lock: bool | None = None

    def _rival(self, tried: threading.Event) -> None:
        if self.url.startswith("sqlite"):
            db = sqlite3.connect(make_url(self.url).database or "", timeout=0.1, isolation_level=None)
            try:
                db.execute("BEGIN IMMEDIATE")
                self.rival_got_lock = True
                tried.set()
                time.sleep(1)  # the other writer's work: a second under the lock
                db.execute("ROLLBACK")
            except sqlite3.OperationalError:
                self.rival_got_lock = False
                tried.set()
            finally:
                db.close()
            return
        engine = create_engine(self.url)
        with engine.connect() as conn:
            conn.exec_driver_sql("SET lock_timeout = '100ms'")
            try:
                conn.exec_driver_sql(f"SELECT id FROM {self.table} WHERE id = {self.row_id} FOR UPDATE")
            except DBAPIError:
                self.rival_got_lock = False
                tried.set()
                conn.rollback()
            else:
                self.rival_got_lock = True
                tried.set()
                time.sleep(1)
                conn.rollback()
        engine.dispose()

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        tried = threading.Event()
        threading.Thread(target=self._rival, args=(tried,), daemon=True).start()
        assert await asyncio.to_thread(tried.wait, 5)
        return await super().handle_DATA(server, session, envelope)


def test_sent_is_staged_before_the_dot_so_only_a_commit_follows_the_250(
        factory: sessionmaker[Session], migrated_url: str, tmp_path: Path) -> None:
    """Between the relay's 250 and "sent" (the window in which a crash sends a mail twice) the
    sender waits for no lock: it took it before the closing dot. A writer that tries the lock
    while the relay holds the mail does not get it, and the window stays short."""
    queue(factory, "ann@example.org")
    relay = RivalRelay(migrated_url, OutboxMessage.__tablename__).start()
    try:
        relay.row_id = outbox(factory)[0].id
        sender = Sender(factory, config(tmp_path, relay.port))
        assert sender.send_due() == 1
    finally:
        relay.stop()
    assert len(relay.messages) == 1
    assert relay.rival_got_lock is False
    assert [r.status for r in outbox(factory)] == ["sent"]
    assert sender.windows[-1] < 0.5, f"{sender.windows[-1]:.3f} s from the relay's 250 to 'sent'"


def test_a_failing_stage_hands_nothing_over(factory: sessionmaker[Session], tmp_path: Path,
                                            capture_smtp: CaptureSMTP) -> None:
    """When staging "sent" fails (the database is gone, say), the closing dot is never sent:
    the relay drops the transaction, and the transport's next mail goes on a new connection."""
    queue(factory, "ann@example.org", "bob@example.org")
    first, second = outbox(factory)
    cfg = config(tmp_path, capture_smtp.port)
    transport = RelayTransport(cfg)

    def fail() -> None:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError, match="database gone"):
        transport.deliver(first, cfg, fail)
    transport.deliver(second, cfg)
    transport.close()
    got = capture_smtp.wait_for(1)
    assert [c.rcpt_tos for c in got] == [["bob@example.org"]]
    assert len(capture_smtp.wait_for(2, timeout=0.3, strict=False)) == 1
