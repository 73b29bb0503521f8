"""The sender: drains the outbox to the relay (or Maildir) over several connections, with
retries, backoff and quarantine, and stops within seconds when asked.

Contract::

    sender = Sender(sessionmaker, config)   # or Sender(..., transport=one_transport)
    sender.send_due()                       # deliver everything due now (blocking)
    await sender.run()                      # keep doing so until stop()
    await sender.stop(grace)                # finish the mails in hand, release the rest

Each worker (``sender_connections`` of them on a relay, one for a Maildir or a given
transport) claims a few due rows at a time by writing this process's node id into
``claimed_by`` (``FOR UPDATE SKIP LOCKED`` where the database has it), leaving those written
after a mail of their game that still waits (so a game's mails leave in the order they were
written, :func:`held_back`), delivers them in id order and marks each one "sent": the update is staged on the worker's own connection just
before the DATA's closing dot goes out (the transport's ``ready``) and committed the moment
the relay's 250 is read, so that commit, with no lock left to wait for, is the whole window
in which a crash can send a mail twice (then byte for byte the same, Message-ID included). A process that dies leaves its claims behind; the next process to start on this
host, or any process once the dead one has not been seen for ``node_timeout_seconds``,
puts them back (:mod:`judge.store.nodes`), so they go out seconds after a restart.

A failure counts an attempt on that mail only: a 4xx is retried after
``sender_retry_base_seconds`` doubling up to ``sender_retry_max_seconds`` while the other
mails go on; a 5xx (for the recipient, at ``MAIL FROM`` or for the content) or
``sender_max_attempts`` failures quarantine it (status "failed", the error kept, logged;
``judge mail retry`` sends it again). A relay that is down or drops the connection stops
the worker until the next round.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from functools import partial

from sqlalchemy import Connection, Engine, Select, bindparam, or_, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from .. import clock
from ..config import Config
from ..store import nodes
from ..store.base import utcnow
from ..store.mail import QUEUE_WHERE, OutboxMessage, OutboxStatus
from ..worker import set_within
from .transport import DeliveryError, Transport, transport_for

log = logging.getLogger(__name__)

CLAIM_BATCH = 16
CLAIM_ROUNDS = 8  # batches a claim looks through when every row of one is held back
_MARK_SENT = (update(OutboxMessage).where(OutboxMessage.id == bindparam("row_id"))
              .values(status=OutboxStatus.SENT, sent_at=bindparam("now"), attempts=OutboxMessage.attempts + 1,
                      last_error=None, claimed_by=None))


def claim_statement(now: datetime, limit: int) -> Select[tuple[OutboxMessage]]:
    """The claim's SELECT: the ``limit`` oldest pending, unclaimed rows due by ``now``, locked
    (skipping rows another process has locked, where the database can). It must walk an
    index in id order and stop at its ``limit``th row: ``ix_outbox_message_queue`` (whose
    WHERE it says word for word) or ``ix_outbox_message_status``; a plan that sorts reads
    every pending row, 40,000 of them after a 5,000-game burst, for each claim."""
    return (select(OutboxMessage)
            .where(text(QUEUE_WHERE),
                   or_(OutboxMessage.next_attempt_at.is_(None), OutboxMessage.next_attempt_at <= now))
            .order_by(OutboxMessage.id).limit(limit).with_for_update(skip_locked=True))


def held_back(session: Session, rows: list[OutboxMessage], now: datetime) -> list[OutboxMessage]:
    """``rows`` (just selected for a claim) without those written after a pending mail of
    the same game that waits for a retry or is in another worker's hands: a game's mails
    leave in the order they were written, so after a relay's refusal or outage a player's
    results never arrive before the acknowledgement of their orders. One query on the
    ``game`` index for the games of the batch."""
    games = {row.game for row in rows if row.game is not None}
    if not games:
        return rows
    taken = {row.id for row in rows}
    first_waiting: dict[str, int] = {}
    for game, row_id in session.connection().execute(
            _WAITING, {"games": sorted(games), "below": max(taken), "now": now}):
        if game is not None and row_id not in taken:
            first_waiting.setdefault(game, row_id)
    return [row for row in rows if row.game is None or row.id < first_waiting.get(row.game, row.id + 1)]


_OUTBOX = OutboxMessage.__table__.c
#: :func:`held_back`'s query, made once (one list parameter for the games) and run on the
#: session's connection (the claim has nothing to flush yet): building it for each claim,
#: 2,500 claims in a 5,000-game burst, cost more than running it.
_WAITING = (select(_OUTBOX.game, _OUTBOX.id)
            .where(_OUTBOX.game.in_(bindparam("games", expanding=True)), _OUTBOX.status == OutboxStatus.PENDING,
                   _OUTBOX.id < bindparam("below"),
                   or_(_OUTBOX.next_attempt_at > bindparam("now"),
                       _OUTBOX.claimed_by.is_not(None)))
            .order_by(_OUTBOX.id))


class Sender:
    """Sends due outbox rows; :meth:`run` keeps doing so until :meth:`stop`."""

    def __init__(self, factory: sessionmaker[Session], config: Config, transport: Transport | None = None,
                 *, transports: Callable[[], Transport] | None = None) -> None:
        self.factory = factory
        self._engine: Engine = factory.kw["bind"]
        self._postgres = self._engine.dialect.name == "postgresql"
        self.config = config
        self._given = transport
        self._make = transports or (lambda: transport_for(config))
        self.connections = 1 if transport is not None or not config.relay_host else config.sender_connections
        self.name = transport.name if transport is not None else transport_for(config).name
        self.node_id: str | None = None
        self.windows: deque[float] = deque(maxlen=100_000)  # seconds from the relay's 250 to "sent"
        self._wake = asyncio.Event()
        self._stopping = threading.Event()
        self._active: set[Transport] = set()
        self._lock = threading.Lock()
        self._node_lock = threading.Lock()

    # -- the node this process is, so its claims outlive it only briefly ------------------------

    def _ensure_node(self) -> str:
        with self._node_lock:
            if self.node_id is None:
                with self.factory() as session, session.begin():
                    node_id = nodes.register(session, clock.wall())
                self.node_id = node_id  # only once committed: other threads may beat at once
        if self.node_id is None:
            raise RuntimeError("no node id")
        return self.node_id

    def beat(self) -> int:
        """Say this process is alive and free the claims of dead ones; how many were freed."""
        node_id = self._ensure_node()
        with self.factory() as session, session.begin():
            now = clock.wall()  # a lease between processes: a test's moved clock must not age it
            nodes.heartbeat(session, node_id, now)
            freed = nodes.release_dead(session, node_id, now, self.config.node_timeout_seconds)
        if freed:
            log.warning("%d mail(s) claimed by a judge process that is gone were put back in the queue", freed)
        return freed

    # -- one row's life ------------------------------------------------------------------------

    def claim(self, limit: int = CLAIM_BATCH) -> list[OutboxMessage]:
        """Take up to ``limit`` of the oldest due, unclaimed pending rows for this process,
        but none written after a mail of the same game that still waits (:func:`held_back`)."""
        node_id = self._ensure_node()
        with self.factory() as session, session.begin():
            now = utcnow()
            skipped: list[int] = []
            for _ in range(CLAIM_ROUNDS):  # a batch all held back: look past it
                statement = claim_statement(now, limit)
                found = list(session.scalars(statement.where(OutboxMessage.id.not_in(skipped)) if skipped
                                             else statement))
                rows = held_back(session, found, now)
                if rows or len(found) < limit:
                    break
                skipped.extend(row.id for row in found)
            for row in rows:
                row.claimed_by = node_id
            return rows

    def _marker(self) -> Connection:
        """A worker's own connection for its "sent" commits: no pool checkout (and its ping)
        per mail. On PostgreSQL its commits do not wait for the WAL flush (see :meth:`_sent`)."""
        conn = self._engine.connect()
        if self._postgres:
            conn.exec_driver_sql("SET synchronous_commit TO OFF")
            conn.commit()
        return conn

    def _unmark(self, conn: Connection) -> None:
        """Give a worker's connection back as the pool handed it out (the setting undone)."""
        try:
            if self._postgres:
                conn.rollback()
                conn.exec_driver_sql("RESET synchronous_commit")
                conn.commit()
        except Exception:  # noqa: BLE001 - a broken connection must not go back to the pool
            conn.invalidate()
        finally:
            conn.close()

    @staticmethod
    def _stage_sent(conn: Connection, row: OutboxMessage) -> None:
        """Mark ``row`` sent in the worker's open transaction, not yet committed: called just
        before the hand-over, so any lock (SQLite's one writer, the row on PostgreSQL) is
        waited for before the relay has the mail, not after."""
        conn.execute(_MARK_SENT, {"row_id": row.id, "now": utcnow()})

    def _sent(self, conn: Connection, row: OutboxMessage, accepted_at: float) -> None:
        # Core on the worker's connection, not the ORM: this commit is the duplicate window.
        # On PostgreSQL it is durable once the WAL writer flushes (within 200 ms by default):
        # a kill of the judge loses nothing; only a crash of the database server itself could
        # forget a "sent" and send that mail once more, byte for byte the same.
        try:
            conn.commit()
        except Exception:
            conn.rollback()
            raise
        self.windows.append(time.monotonic() - accepted_at)
        log.info("mail out %s to %s (%s%s) via %s", row.message_id, row.to_addr, row.kind,
                 f", {row.game}" if row.game else "", self.name)

    def _failed(self, row: OutboxMessage, exc: DeliveryError) -> None:
        cfg = self.config
        with self.factory() as session, session.begin():
            stored = session.get_one(OutboxMessage, row.id)
            stored.attempts += 1
            stored.last_error = str(exc)[:2000]
            stored.claimed_by = None
            if exc.permanent or stored.attempts >= cfg.sender_max_attempts:
                stored.status = OutboxStatus.FAILED
                log.error("mail out %s to %s failed for good after %d attempt(s), quarantined: %s",
                          row.message_id, row.to_addr, stored.attempts, stored.last_error)
                return
            delay = min(cfg.sender_retry_base_seconds * 2 ** (stored.attempts - 1), cfg.sender_retry_max_seconds)
            stored.next_attempt_at = utcnow() + timedelta(seconds=delay)
            log.warning("mail out %s to %s not sent (attempt %d, retry in %.1fs): %s", row.message_id,
                        row.to_addr, stored.attempts, delay, stored.last_error)

    def _release(self, rows: Sequence[OutboxMessage]) -> None:
        if not rows:
            return
        with self.factory() as session, session.begin():
            session.execute(update(OutboxMessage).where(OutboxMessage.id.in_([r.id for r in rows]),
                                                        OutboxMessage.claimed_by == self.node_id)
                            .values(claimed_by=None))

    # -- workers -------------------------------------------------------------------------------

    def _work(self, transport: Transport, first: list[OutboxMessage] | None = None) -> int:
        """Deliver claimed rows over ``transport`` until none is due: ``first`` (rows claimed
        for it already), then a claim at a time; how many were tried."""
        handled = 0
        with self._lock:
            self._active.add(transport)
        marker: Connection | None = None
        try:
            while True:
                if self._stopping.is_set():
                    self._release(first or [])
                    break
                rows = first if first is not None else self.claim()
                first = None
                if not rows:
                    break
                if marker is None:
                    marker = self._marker()
                for i, row in enumerate(rows):
                    if self._stopping.is_set():
                        self._release(rows[i:])
                        return handled
                    handled += 1
                    try:
                        transport.deliver(row, self.config, partial(self._stage_sent, marker, row))
                    except DeliveryError as exc:
                        marker.rollback()
                        self._failed(row, exc)
                        if exc.connection:
                            self._release(rows[i + 1:])
                            return handled
                    except BaseException:
                        marker.rollback()  # not handed over (or not known to be): back in the queue
                        self._release(rows[i:])
                        raise
                    else:
                        self._sent(marker, row, transport.accepted_at)
        finally:
            with self._lock:
                self._active.discard(transport)
            transport.close()
            if marker is not None:
                self._unmark(marker)
        return handled

    def send_due(self) -> int:
        """Deliver every due row now (blocking); how many were tried."""
        self._ensure_node()
        if self._given is not None:
            return self._work(self._given)
        if self.connections == 1:
            return self._work(self._make())
        first = self.claim()
        if len(first) < CLAIM_BATCH:
            # All that is due is in hand (a reply or a few, after an inbox batch): one
            # connection delivers it; more workers would only claim nothing.
            return self._work(self._make(), first) if first else 0
        with ThreadPoolExecutor(self.connections, thread_name_prefix="sender") as pool:
            transports = [self._make() for _ in range(self.connections)]
            return sum(pool.map(self._work, transports, [first] + [None] * (self.connections - 1)))

    def wake(self) -> None:
        """Tell :meth:`run` that mail was queued (call from the event loop's thread)."""
        self._wake.set()

    async def _beats(self) -> None:
        interval = max(0.2, self.config.node_timeout_seconds / 4)
        while not self._stopping.is_set():
            try:
                if await asyncio.to_thread(self.beat):
                    self._wake.set()
            except Exception:  # noqa: BLE001 - the database may be briefly away; try again
                log.exception("recording this judge process as alive failed")
            await asyncio.sleep(interval)

    async def run(self) -> None:
        """Send due mail whenever woken, and every ``sender_poll_seconds``, until stopped."""
        beats = asyncio.get_running_loop().create_task(self._beats(), name="sender-heartbeat")
        try:
            while not self._stopping.is_set():
                self._wake.clear()
                try:
                    await asyncio.to_thread(self.send_due)
                except Exception:  # noqa: BLE001 - the database may be briefly away; retry later
                    log.exception("sending the outbox failed; retrying")
                await set_within(self._wake, self.config.sender_poll_seconds)
        finally:
            beats.cancel()

    async def stop(self, grace: float) -> None:
        """Stop taking mail; give the mails in hand ``grace`` seconds, then break the
        connections off; put back whatever this process still holds."""
        self._stopping.set()
        self._wake.set()
        deadline = time.monotonic() + grace
        while self._active and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        with self._lock:
            hung = list(self._active)
        for transport in hung:
            transport.abort()
        if self.node_id is not None:
            node_id = self.node_id

            def leave() -> int:
                with self.factory() as session, session.begin():
                    return nodes.leave(session, node_id)

            released = await asyncio.to_thread(leave)
            if released:
                log.info("%d claimed mail(s) put back in the queue for the next start", released)
