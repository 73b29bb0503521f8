"""The inbox: store each received message durably, then read and answer it, one savepoint each.

Contract (hook 5)::

    InboxProcessor(sessionmaker, config, handler, on_processed=None, on_failure=None)

``handler(session, config, mail, now)`` is called inside the message's savepoint of the
batch's session and queues its replies with :func:`judge.store.mail.queue_mail`; the server
passes the command layer's (the mail path knows no game). The session may hold what the
batch's earlier mails kept for it (:mod:`judge.store.kept`); a handler undoes its work with
savepoints of its own, never ``session.rollback()`` (the batch's whole transaction). ``on_failure``, with the same arguments, answers a mail the
judge could not act on (its handler failed and all its work was undone); the server passes
the command layer's, which writes the text.

Each row ends in one of three ways. Loops and junk (:mod:`.loops`) are "ignored" with the
reason in ``note``. Mail over the per-sender rate limit (``[limits]
sender_mails_per_minute``, :mod:`judge.store.ratelimit`) is still given to the handler,
flagged ``over_limit`` (``tell`` for the first, then ``quiet``), because the From header
that keys the limit can be forged and only the command layer knows whether a mail proves
its sender (a correct password or reply address): the handler returns whether it read the
mail; one it did not read (it answered the first, then nothing) is "ignored". A mail whose structure cannot be read (``IncomingMail.unreadable``)
is given to the handler, which answers that it could not be read, and is "done" with the
reason in ``note``. Everything else is given to the handler and is "done". A handler that
raises has all its work rolled back (a savepoint) and the error goes in ``note``. A mail is
applied once and whole, or not at all: only a transient database failure (:func:`transient`:
a lock not had, a deadlock, a serialization failure, a lost connection) leaves the row
"failed", read again after ``inbox_retry_seconds`` (doubling; the handler is told the
arrival time, and does not apply a mail to a game that changed since it
arrived); any other failure, or ``inbox_max_attempts`` transient ones, "quarantines" the row
at once (``judge mail list`` shows it, with the error) and ``on_failure`` answers the sender
that the mail was not acted on. A quarantined row is never read again unless the operator
retries it. A message is handled at most once: rows are claimed with ``FOR UPDATE SKIP
LOCKED`` where the database has it. Rows are claimed and committed in batches (up to
``BATCH_MAILS``), each mail in its own savepoint, so its replies and its row's status are
committed together and a crash loses or repeats nothing.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import bindparam, insert, or_, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from ..config import Config
from ..store import kept, ratelimit
from ..store.base import utcnow
from ..store.mail import InboxMessage, InboxStatus
from ..worker import WakeLoop
from .loops import refusal_reason
from .reader import NO_ID_DOMAIN, IncomingMail, message_id_of, read_message

log = logging.getLogger(__name__)

BATCH_MAILS = 64  # rows claimed per transaction
BATCH_SECONDS = 0.25  # a batch takes no more rows after this, so replies are not held long
#: PostgreSQL, from a batch's second mail on: how long a mail may wait for a lock another
#: transaction holds before it is put back and the batch commits the mails before it.
YIELD_LOCKS_AFTER = "SET LOCAL lock_timeout = '20ms'"

#: Reads one mail in the caller's transaction; whether it read it (False: it refused a mail
#: over the sender's limit unread). A handler that returns None read it.
MailHandler = Callable[[Session, Config, IncomingMail, datetime], bool | None]
#: How a reader answers a mail it could not act on (the command layer's, for the text).
FailureHandler = Callable[[Session, Config, IncomingMail, datetime], None]


@dataclass(frozen=True, slots=True)
class Arrival:
    """A message as the listener took it: raw bytes, envelope, and the Message-ID it is kept by."""

    raw: bytes
    envelope_sender: str
    recipients: list[str]
    message_id: str

    @classmethod
    def of(cls, raw: bytes, envelope_sender: str, recipients: list[str]) -> Arrival:
        """A message without a Message-ID gets a new one each time it arrives: it cannot be
        told apart from a second mail with the same text (the README's own smtplib example
        sent twice), so it is never taken for a copy and dropped."""
        message_id = message_id_of(raw)
        if message_id.endswith(NO_ID_DOMAIN):
            message_id = f"<{message_id[1:25]}.{uuid.uuid4().hex}{NO_ID_DOMAIN}"
        return cls(raw, envelope_sender, recipients, message_id)


# Made once: the listener stores every message through them.
_KNOWN = select(InboxMessage.message_id).where(InboxMessage.message_id.in_(bindparam("ids", expanding=True)))
_STORE = insert(InboxMessage)


def store_many(factory: sessionmaker[Session], arrivals: Sequence[Arrival]) -> list[bool]:
    """Commit ``arrivals`` to the inbox in one transaction; for each, whether it was stored
    (False: its Message-ID is there already, or came earlier in ``arrivals``). Raises
    IntegrityError when another process stored one of them meanwhile (nothing is stored).
    Plain statements on the engine, no session: the listener stores every message this way."""
    out: list[bool] = []
    rows: list[dict[str, object]] = []
    engine = factory.kw["bind"]
    with engine.begin() as connection:
        ids = {a.message_id for a in arrivals}
        known = set(connection.scalars(_KNOWN, {"ids": list(ids)}))
        now = utcnow()
        for arrival in arrivals:
            if arrival.message_id in known:
                out.append(False)
                continue
            known.add(arrival.message_id)
            rows.append({"message_id": arrival.message_id, "envelope_sender": arrival.envelope_sender,
                         "recipients": arrival.recipients, "raw": arrival.raw, "received_at": now, "status": InboxStatus.NEW,
                         "attempts": 0})
            out.append(True)
        if rows:
            connection.execute(_STORE, rows)
    return out


def store_incoming(factory: sessionmaker[Session], raw: bytes, envelope_sender: str,
                   recipients: list[str]) -> tuple[bool, str]:
    """Commit ``raw`` to the inbox; (False, id) when its Message-ID is there already (see
    :meth:`Arrival.of` for a message without one)."""
    arrival = Arrival.of(raw, envelope_sender, recipients)
    try:
        return store_many(factory, [arrival])[0], arrival.message_id
    except IntegrityError:
        return False, arrival.message_id


LOCK_CONFLICTS = {"40P01", "40001", "55P03"}  # deadlock, serialization failure, lock not available


def _lock_conflict(exc: BaseException) -> bool:
    """Whether ``exc`` is the database giving up on a lock (SQLSTATE), not the mail's fault."""
    return isinstance(exc, DBAPIError) and getattr(exc.orig, "sqlstate", None) in LOCK_CONFLICTS


def transient(exc: BaseException) -> bool:
    """Whether ``exc`` is a database failure that reading the mail again may not meet: a
    lock not had (SQLite "database is locked", PostgreSQL ``lock_timeout``), a deadlock, a
    serialization failure, a lost connection (the driver's OperationalError family, or a
    connection the pool found invalid). Anything else (an IntegrityError, a bug in a
    handler) would fail again, or worse, half succeed against a game that has moved on."""
    return isinstance(exc, DBAPIError) and (isinstance(exc, OperationalError) or exc.connection_invalidated
                                            or _lock_conflict(exc))


@dataclass(frozen=True, slots=True)
class _Claimed:
    """A claimed inbox row as the batch's claim read it (no ORM object: one query a batch)."""

    id: int
    message_id: str
    envelope_sender: str
    recipients: list[str] | None
    raw: bytes
    attempts: int
    next_attempt_at: datetime | None
    received_at: datetime


_CLAIM_COLUMNS = (InboxMessage.id, InboxMessage.message_id, InboxMessage.envelope_sender, InboxMessage.recipients,
                  InboxMessage.raw, InboxMessage.attempts, InboxMessage.next_attempt_at, InboxMessage.received_at)
#: The rows a batch claims: new, or failed and due again, oldest first (made once).
_CLAIM = (select(*_CLAIM_COLUMNS)
          .where(or_(InboxMessage.status == InboxStatus.NEW,
                     (InboxMessage.status == InboxStatus.FAILED) & (InboxMessage.next_attempt_at <= bindparam("now"))))
          .order_by(InboxMessage.id).limit(bindparam("limit")).with_for_update(skip_locked=True))
#: How a handled row ends, for every row of a batch in one statement before its commit.
_FINISH = (update(InboxMessage).where(InboxMessage.id == bindparam("row_id"))
           .values(status=bindparam("status"), note=bindparam("note"), processed_at=bindparam("processed_at"),
                   attempts=bindparam("attempts"), next_attempt_at=bindparam("next_attempt_at")))


class InboxProcessor:
    """Reads the inbox in arrival order, many messages per transaction, one savepoint each."""

    def __init__(self, factory: sessionmaker[Session], config: Config, handler: MailHandler,
                 on_processed: Callable[[], None] | None = None, on_failure: FailureHandler | None = None) -> None:
        self.factory = factory
        self.config = config
        self.handler = handler
        self.on_failure = on_failure
        self.on_processed = on_processed
        self._loop = WakeLoop()

    def process_one(self) -> bool:
        """Handle the oldest message due (new, or failed and due again); False when none is."""
        return self.process_batch(1) > 0

    def process_batch(self, limit: int = BATCH_MAILS) -> int:
        """Handle up to ``limit`` of the oldest messages due in one transaction; how many.

        The claim reads the rows whole (one query); the batch is one session, and each
        message is read in a savepoint of its own, so one that fails is rolled back alone, as
        if it had had its own transaction. Between two mails the session lets go of every row
        the last one read but the game views it kept for the next ones, and any rollback
        forgets those too (:mod:`judge.store.kept`). The rows' new statuses are written
        together before the commit. The batch stops taking rows
        after ``BATCH_SECONDS`` (the rest stay as they were). One claim and one commit for
        many mails is what makes a burst cheap. On PostgreSQL a mail after the first waits
        at most 20 ms for a lock (``YIELD_LOCKS_AFTER``), then ends the batch: two nodes'
        batches take turns at a game or a sender instead of waiting on each other until the
        database finds the deadlock (a second each, ``deadlock_timeout``)."""
        engine = self.factory.kw["bind"]
        yielding = engine.dialect.name != "postgresql"  # SQLite: one writer, no row lock to wait for
        with self.factory() as session, session.begin():
            connection = session.connection()
            now = utcnow()
            claimed = [_Claimed(*row) for row in connection.execute(_CLAIM, {"now": now, "limit": limit})]
            started = time.monotonic()
            finished: list[dict[str, object]] = []
            for row in claimed:
                if finished and time.monotonic() - started > BATCH_SECONDS:
                    break
                if finished and not yielding:
                    # The batch holds locks now (games, rate-limit rows): a mail that waited
                    # for another reader's would make it wait for this batch's (two nodes).
                    connection.exec_driver_sql(YIELD_LOCKS_AFTER)
                    yielding = True
                kept.next_mail(session)
                try:
                    finished.append(self._process_row(session, row, utcnow(), yield_locks=bool(finished)))
                except DBAPIError:
                    # A lock another reader's batch holds (PostgreSQL, two nodes): not
                    # waited for past ``YIELD_LOCKS_AFTER``, or a deadlock lost. This mail
                    # is undone; the others commit (freeing their locks); it stays as it was
                    # and is read in the next batch.
                    log.info("mail %s waits for a lock another reader holds", row.id)
                    break
            if finished:
                connection.execute(_FINISH, finished)
        return len(finished)

    def _process_row(self, session: Session, row: _Claimed, now: datetime, *, yield_locks: bool) -> dict[str, object]:
        """Handle one claimed row; its new values (for ``_FINISH``). With ``yield_locks``, a
        deadlock or lock failure is raised rather than counted as the mail's failure (the mail
        is not at fault).

        The mail's work (its rate-limit count, the handler's changes) is flushed in the
        mail's savepoint; when the handler fails it is all rolled back and the mail is
        counted again, as it was before the handler ran, in a savepoint with the answer that
        it was not acted on."""
        sender = row.envelope_sender
        counted: IncomingMail | None = None
        note: str | None
        attempts, next_attempt_at = row.attempts, row.next_attempt_at
        savepoint = session.begin_nested()
        try:
            mail = replace(read_message(row.raw), message_id=row.message_id, recipients=tuple(row.recipients or ()),
                           received_at=row.received_at)
            sender = mail.sender or sender
            reason = refusal_reason(mail, row.envelope_sender, self.config)
            status: str
            if reason:
                status, note = InboxStatus.IGNORED, reason
            else:
                verdict = self._take(session, mail, now)
                counted = mail
                status, note = self._answer(session, mail, verdict, now)
                session.flush()
        except Exception as exc:  # noqa: BLE001 - one bad message must not stop the judge
            savepoint.rollback()
            if yield_locks and _lock_conflict(exc):
                raise
            log.exception("handling %s from %s failed", row.message_id, sender)
            attempts, status, note, next_attempt_at = self._failed(row, exc, now)
            if counted is not None:
                with session.begin_nested():
                    self._take(session, counted, now)
                    if status == InboxStatus.QUARANTINED and verdict != ratelimit.QUIET:
                        self._tell(session, counted, now)  # not a flood's: those past the first get no answer
        else:
            savepoint.commit()
        log.info("mail read %s from %s: %s%s", row.message_id, sender, status, f" ({note})" if note else "")
        return {"row_id": row.id, "status": status, "note": note, "processed_at": now, "attempts": attempts,
                "next_attempt_at": next_attempt_at}

    def _take(self, session: Session, mail: IncomingMail, now: datetime) -> ratelimit.Verdict:
        """Count ``mail`` against its sender's rate limit."""
        return ratelimit.take(session, f"sender:{mail.sender}", self.config.sender_mails_per_minute, 60, now)

    def _answer(self, session: Session, mail: IncomingMail, verdict: ratelimit.Verdict,
                now: datetime) -> tuple[str, str | None]:
        """Answer ``mail`` (counted: ``verdict``); its final (status, note)."""
        limit = self.config.sender_mails_per_minute
        if verdict != ratelimit.ALLOW:
            mail = replace(mail, over_limit=verdict)
        read = self.handler(session, self.config, mail, now) is not False
        if mail.over_limit and not read:
            told = "told once" if verdict == ratelimit.TELL else "already told"
            return InboxStatus.IGNORED, f"over {limit} mails a minute ({told})"
        if mail.over_limit:
            return InboxStatus.DONE, f"over {limit} mails a minute from the address, read as its sender proved who they are"
        if mail.unreadable:
            return InboxStatus.DONE, f"unreadable: {mail.unreadable}"
        return InboxStatus.DONE, None

    def _tell(self, session: Session, mail: IncomingMail, now: datetime) -> None:
        """Answer a mail the judge could not act on (``on_failure``), in a savepoint of its
        own; when that fails too, the mail gets no answer (the operator sees the row)."""
        if self.on_failure is None:
            return
        try:
            with session.begin_nested():
                self.on_failure(session, self.config, mail, now)
        except Exception:  # noqa: BLE001 - the row is quarantined all the same
            log.exception("answering %s, which could not be acted on, failed", mail.message_id)

    def _failed(self, row: _Claimed, exc: Exception, now: datetime) -> tuple[int, str, str, datetime | None]:
        """The failed row's (attempts, status, note, next_attempt_at): "failed" and due again
        after a transient database failure, else "quarantined" at once (never read again:
        the mail was not acted on, and the sender is told)."""
        attempts = row.attempts + 1
        note = f"{type(exc).__name__}: {exc}"[:2000]
        if not transient(exc):
            log.error("mail %s quarantined: its handler failed: %s", row.message_id, note)
            return attempts, "quarantined", note, row.next_attempt_at
        if attempts >= self.config.inbox_max_attempts:
            log.error("mail %s quarantined after %d failed attempts: %s", row.message_id, attempts, note)
            return attempts, InboxStatus.QUARANTINED, note, row.next_attempt_at
        return attempts, InboxStatus.FAILED, note, now + timedelta(seconds=self.config.inbox_retry_seconds * 2 ** (attempts - 1))

    def process_pending(self) -> int:
        """Handle every waiting message; how many were handled."""
        count = 0
        while handled := self.process_batch():
            count += handled
        return count

    def wake(self) -> None:
        """Tell :meth:`run` that a message arrived (call from the event loop's thread)."""
        self._loop.wake()

    async def run(self) -> None:
        """Process leftover and arriving messages until cancelled."""
        await self._loop.run(self.process_batch, self.config.inbox_poll_seconds, self.on_processed, log,
                             "reading the inbox failed; retrying")
