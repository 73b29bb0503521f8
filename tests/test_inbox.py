"""The inbox: stored once per Message-ID, read in order, one transaction per message."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from judge.config import Config
from judge.mail.inbox import Arrival, InboxProcessor, store_incoming, store_many, transient
from judge.mail.reader import IncomingMail
from judge.store.base import make_engine, make_sessionmaker, utcnow
from judge.store.mail import InboxMessage, OutboxMessage, archive_for, queue_mail
from judge.store.ratelimit import RateLimit

CONFIG = Config(address="judge@example.org", code="TEST", sender_mails_per_minute=1000)


def raw(n: int, sender: str = "ann@example.org", extra: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: judge@example.org\r\nSubject: s{n}\r\nMessage-ID: <m{n}@example.org>\r\n"
            f"{extra}\r\nline {n}\r\n").encode()


@pytest.fixture
def factory(migrated_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(migrated_url)
    yield make_sessionmaker(engine, mail_domain="example.org")
    engine.dispose()


class Echo:
    """A handler that answers every message with its text, remembering what it saw."""

    def __init__(self, fail_on: str = "") -> None:
        self.seen: list[str] = []
        self.fail_on = fail_on

    def __call__(self, session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
        self.seen.append(mail.text)
        queue_mail(session, mail.sender, f"Re: {mail.subject}", mail.text, in_reply_to=mail.message_id,
                   game="g1")
        if self.fail_on and self.fail_on in mail.text:
            raise ValueError("bad command")


def rows(factory: sessionmaker[Session]) -> list[InboxMessage]:
    with factory() as session:
        return list(session.scalars(select(InboxMessage).order_by(InboxMessage.id)))


def test_messages_are_handled_in_order(factory: sessionmaker[Session]) -> None:
    for n in range(3):
        assert store_incoming(factory, raw(n), "ann@example.org", ["judge@example.org"]) == (True, f"<m{n}@example.org>")
    echo = Echo()
    processor = InboxProcessor(factory, CONFIG, handler=echo)
    assert processor.process_pending() == 3
    assert echo.seen == ["line 0", "line 1", "line 2"]
    assert [(r.status, r.note) for r in rows(factory)] == [("done", None)] * 3
    assert all(r.processed_at and r.processed_at.tzinfo for r in rows(factory))
    with factory() as session:
        replies = sent_for(session, "g1")
        assert [r.subject for r in replies] == ["Re: s0", "Re: s1", "Re: s2"]
        assert replies[0].headers["In-Reply-To"] == "<m0@example.org>"
        assert replies[0].to_addr == "ann@example.org"
    assert processor.process_pending() == 0


def test_duplicate_message_id_stored_once_and_handled_once(factory: sessionmaker[Session]) -> None:
    assert store_incoming(factory, raw(1), "ann@example.org", [])[0] is True
    echo = Echo()
    InboxProcessor(factory, CONFIG, handler=echo).process_pending()
    assert store_incoming(factory, raw(1), "ann@example.org", [])[0] is False
    assert InboxProcessor(factory, CONFIG, handler=echo).process_pending() == 0
    assert echo.seen == ["line 1"]
    assert len(rows(factory)) == 1


def test_one_commit_stores_a_group_each_message_id_once(factory: sessionmaker[Session]) -> None:
    store_incoming(factory, raw(1), "ann@example.org", [])
    group = [Arrival.of(raw(n), "ann@example.org", ["judge@example.org"]) for n in (1, 2, 3, 2)]
    assert store_many(factory, group) == [False, True, True, False]
    assert [r.message_id for r in rows(factory)] == ["<m1@example.org>", "<m2@example.org>", "<m3@example.org>"]
    assert InboxProcessor(factory, CONFIG, handler=Echo()).process_pending() == 3


def test_loops_and_junk_are_ignored(factory: sessionmaker[Session]) -> None:
    store_incoming(factory, raw(1, extra="Auto-Submitted: auto-replied\r\n"), "ann@example.org", [])
    store_incoming(factory, raw(2, sender="judge@example.org"), "judge@example.org", [])
    store_incoming(factory, raw(3), "", [])
    store_incoming(factory, raw(4, extra="Precedence: bulk\r\n"), "ann@example.org", [])
    echo = Echo()
    assert InboxProcessor(factory, CONFIG, handler=echo).process_pending() == 4
    assert echo.seen == []
    assert [r.status for r in rows(factory)] == ["ignored"] * 4
    assert all(r.note for r in rows(factory))
    with factory() as session:
        assert session.scalar(select(func.count()).select_from(OutboxMessage)) == 0


def test_a_failing_message_is_rolled_back_and_the_rest_go_on(factory: sessionmaker[Session]) -> None:
    for n in range(3):
        store_incoming(factory, raw(n), "ann@example.org", [])
    echo = Echo(fail_on="line 1")
    assert InboxProcessor(factory, CONFIG, handler=echo).process_pending() == 3
    statuses = [(r.status, r.note) for r in rows(factory)]
    assert statuses == [("done", None), ("quarantined", "ValueError: bad command"), ("done", None)]
    with factory() as session:
        assert [r.subject for r in sent_for(session, "g1")] == ["Re: s0", "Re: s2"]


def test_a_failing_message_still_counts_against_the_senders_limit(factory: sessionmaker[Session]) -> None:
    """The handler's work is undone, not the mail's count: the third mail is over a limit of two."""
    for n in range(4):
        store_incoming(factory, raw(n), "ann@example.org", [])
    config = Config(address="judge@example.org", code="TEST", sender_mails_per_minute=2)
    assert InboxProcessor(factory, config, handler=Echo(fail_on="line 0")).process_pending() == 4
    assert [(r.status, r.attempts) for r in rows(factory)] == [("quarantined", 1), ("done", 0), ("ignored", 0),
                                                                 ("ignored", 0)]
    assert [r.note for r in rows(factory)][2:] == ["over 2 mails a minute (told once)",
                                                   "over 2 mails a minute (already told)"]
    with factory() as session:
        assert [r.subject for r in sent_for(session, "g1")] == ["Re: s1", "Re: s2"]


def sent_for(session: Session, game: str) -> list[OutboxMessage]:
    return list(session.scalars(select(OutboxMessage).where(OutboxMessage.game == game).order_by(OutboxMessage.id)))


def test_queue_mail_one_row_per_recipient(factory: sessionmaker[Session]) -> None:
    with factory() as session, session.begin():
        made = queue_mail(session, ["A <a@x.org>", "a@X.ORG", "", "b@y.org"], "Result", "body",
                          game="g2", phase="S1901M", kind="result", headers={"X-Game": "g2"}, archive=True)
        assert made == 2
        queue_mail(session, ["a@x.org"], "Re: x", "reply", game="g2", kind="reply")
    with factory() as session:
        assert [m.to_addr for m in sent_for(session, "g2")] == ["A <a@x.org>", "b@y.org", "a@x.org"]
        assert [m.to_addr for m in archive_for(session, "g2", "result")] == ["A <a@x.org>"], "one archive copy"
        assert archive_for(session, "g2", "press") == [] and len(archive_for(session, "g2")) == 1
        row = archive_for(session, "g2")[0]
        assert (row.status, row.attempts, row.phase, row.headers) == ("pending", 0, "S1901M", {"X-Game": "g2"})
        assert row.created_at.tzinfo is not None


def test_two_readers_share_the_inbox(factory: sessionmaker[Session]) -> None:
    """Two judge processes on one database: each message is handled exactly once."""
    for n in range(40):
        store_incoming(factory, raw(n), "ann@example.org", [])
    echo = Echo()
    readers = [InboxProcessor(factory, CONFIG, handler=echo) for _ in range(2)]
    threads = [threading.Thread(target=reader.process_pending) for reader in readers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(echo.seen) == sorted(f"line {n}" for n in range(40))
    assert [r.status for r in rows(factory)] == ["done"] * 40


class CrossLocks:
    """A handler that locks the rate-limit rows its mail names ("lock a b"), waiting between
    them, so two readers' batches taking them in opposite orders deadlock."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.locked = threading.Event()

    def __call__(self, session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
        for key in mail.text.split()[1:]:
            session.scalars(select(RateLimit).where(RateLimit.key == key).with_for_update()).one()
            self.locked.set()
            time.sleep(0.15)  # within the batch's 0.25 s, so each batch goes on to its second mail
        self.seen.append(mail.text)


def test_a_batch_that_loses_a_deadlock_commits_the_rest_and_reads_the_mail_again(
        factory: sessionmaker[Session], migrated_url: str) -> None:
    """Two readers, each with a batch of two mails locking games in opposite orders: the
    database breaks the deadlock; the losing mail is read again in the next batch, not failed."""
    if not migrated_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time: no deadlock between readers")
    with factory() as session, session.begin():
        session.add_all([RateLimit(key=k, tokens=1.0, updated_at=utcnow()) for k in ("g1", "g2")])
    bodies = ["lock g1", "lock g2", "lock g2", "lock g1"]
    for n, body in enumerate(bodies):
        sender = f"p{n}@example.org"  # each its own rate-limit row, which the reader locks too
        store_incoming(factory, raw(n, sender).replace(f"line {n}".encode(), body.encode()), sender, [])
    handler = CrossLocks()
    readers = [InboxProcessor(factory, CONFIG, handler=handler) for _ in range(2)]
    first = threading.Thread(target=readers[0].process_batch, args=(2,))
    first.start()
    assert handler.locked.wait(10)  # the first reader has claimed rows 1 and 2; the second claims 3 and 4
    second = threading.Thread(target=readers[1].process_batch, args=(2,))
    second.start()
    first.join(30)
    second.join(30)
    InboxProcessor(factory, CONFIG, handler=handler).process_pending()
    assert sorted(handler.seen) == sorted(bodies)
    assert [(r.status, r.attempts) for r in rows(factory)] == [("done", 0)] * 4


def test_a_later_mail_of_a_batch_does_not_wait_for_a_lock_held_elsewhere(
        factory: sessionmaker[Session], migrated_url: str) -> None:
    """A batch's second mail needs a row another transaction holds (another node's batch):
    the batch does not wait for it while holding its own locks, which that node may be
    waiting for. It commits the first mail at once and leaves the second for the next batch."""
    if not migrated_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time: no row lock to wait for")
    with factory() as session, session.begin():
        session.add_all([RateLimit(key=k, tokens=1.0, updated_at=utcnow()) for k in ("g1", "g2")])
    for n, body in enumerate(["lock g1", "lock g2"]):
        sender = f"p{n}@example.org"
        store_incoming(factory, raw(n, sender).replace(f"line {n}".encode(), body.encode()), sender, [])
    handler = CrossLocks()
    reader = InboxProcessor(factory, CONFIG, handler=handler)
    done: list[int] = []
    with factory() as other, other.begin():
        other.scalars(select(RateLimit).where(RateLimit.key == "g2").with_for_update()).one()
        batch = threading.Thread(target=lambda: done.append(reader.process_batch(2)))
        batch.start()
        batch.join(5)
        assert not batch.is_alive(), "the batch waited for the lock held elsewhere"
    assert done == [1] and handler.seen == ["lock g1"]
    assert reader.process_pending() == 1
    assert handler.seen == ["lock g1", "lock g2"]
    assert [(r.status, r.attempts) for r in rows(factory)] == [("done", 0)] * 2


def test_only_a_failure_that_may_pass_is_transient(factory: sessionmaker[Session], migrated_url: str) -> None:
    """Issue 23, rule 1: a real lock not had is transient (the mail is read again, while its
    game is unchanged); a real IntegrityError is not (the mail is quarantined and answered)."""
    store_incoming(factory, raw(1), "ann@example.org", [])
    with pytest.raises(IntegrityError) as clash, factory() as session, session.begin():
        session.add(InboxMessage(message_id="<m1@example.org>", envelope_sender="a@b", recipients=[], raw=b"",
                                 received_at=utcnow()))
    assert not transient(clash.value)
    sqlite = migrated_url.startswith("sqlite")
    holder = make_engine(migrated_url)
    waiter = (create_engine(migrated_url, connect_args={"timeout": 0.05}) if sqlite else make_engine(migrated_url))
    try:
        with holder.connect() as held:
            held.exec_driver_sql("UPDATE inbox_message SET note = 'held'")  # its transaction holds the lock
            with pytest.raises(OperationalError) as locked, waiter.connect() as other:
                if not sqlite:
                    other.exec_driver_sql("SET lock_timeout = '50ms'")
                other.exec_driver_sql("UPDATE inbox_message SET note = 'other'")
            held.rollback()
    finally:
        holder.dispose()
        waiter.dispose()
    assert transient(locked.value)
