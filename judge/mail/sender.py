"""The sender: drains the outbox in id order to the relay (or Maildir), with retries and backoff.

Each mail is claimed in a short transaction (its ``next_attempt_at`` moved a lease of twice
the relay timeout plus a second ahead, so another judge process leaves it alone), delivered,
and only then marked "sent". A crash in between leaves it pending: once the lease is over it
is sent again, byte for byte the same mail with the same Message-ID, so the copy is
recognisable (SMTP cannot do better: the relay may accept just before the crash). A refused or failed attempt is retried after
``sender_retry_base_seconds`` doubling each time up to ``sender_retry_max_seconds``; a
permanent refusal (5xx) or ``sender_max_attempts`` failures mark it "failed".
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, sessionmaker

from ..config import Config
from ..store.base import utcnow
from ..store.mail import OutboxMessage
from .transport import Transport, is_permanent, transport_for

log = logging.getLogger(__name__)

RESERVED = frozenset({"from", "to", "subject", "date", "message-id", "x-loop", "auto-submitted",
                      "mime-version", "content-type", "content-transfer-encoding"})


def build_message(row: OutboxMessage, config: Config) -> EmailMessage:
    """The mail for an outbox row, with the judge's From, Message-ID and loop headers."""
    msg = EmailMessage()
    msg["From"] = formataddr((config.code, config.address))
    msg["To"] = row.to_addr
    msg["Subject"] = row.subject
    msg["Date"] = format_datetime(row.created_at)
    msg["Message-ID"] = row.message_id
    msg["X-Loop"] = config.address
    msg["Auto-Submitted"] = "auto-replied" if row.kind == "reply" else "auto-generated"
    for name, value in (row.headers or {}).items():
        if name.lower() not in RESERVED:
            msg[name] = value
    msg.set_content(row.body if row.body.endswith("\n") else row.body + "\n")
    return msg


class Sender:
    """Sends due outbox rows; :meth:`run` keeps doing so until cancelled."""

    def __init__(self, factory: sessionmaker[Session], config: Config,
                 transport: Transport | None = None) -> None:
        self.factory = factory
        self.config = config
        self.transport = transport or transport_for(config)
        self.lease = timedelta(seconds=2 * config.relay_timeout + 1)
        self._wake = asyncio.Event()

    def claim(self) -> OutboxMessage | None:
        """Take the oldest due pending row for this attempt (None: nothing is due)."""
        with self.factory() as session, session.begin():
            now = utcnow()
            row = session.scalars(
                select(OutboxMessage)
                .where(OutboxMessage.status == "pending",
                       or_(OutboxMessage.next_attempt_at.is_(None), OutboxMessage.next_attempt_at <= now))
                .order_by(OutboxMessage.id).limit(1).with_for_update(skip_locked=True)).first()
            if row is not None:
                row.next_attempt_at = now + self.lease
            return row

    def _sent(self, row: OutboxMessage) -> None:
        with self.factory() as session, session.begin():
            stored = session.get_one(OutboxMessage, row.id)
            stored.status, stored.sent_at = "sent", utcnow()
            stored.attempts += 1
            stored.last_error = None
        log.info("mail out %s to %s (%s%s) via %s", row.message_id, row.to_addr, row.kind,
                 f", {row.game}" if row.game else "", self.transport.name)

    def _failed(self, row: OutboxMessage, exc: BaseException, permanent: bool) -> None:
        cfg = self.config
        with self.factory() as session, session.begin():
            stored = session.get_one(OutboxMessage, row.id)
            stored.attempts += 1
            stored.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            if permanent or stored.attempts >= cfg.sender_max_attempts:
                stored.status = "failed"
                log.error("mail out %s to %s failed for good after %d attempts: %s", row.message_id,
                          row.to_addr, stored.attempts, stored.last_error)
                return
            delay = min(cfg.sender_retry_base_seconds * 2 ** (stored.attempts - 1), cfg.sender_retry_max_seconds)
            stored.next_attempt_at = utcnow() + timedelta(seconds=delay)
            log.warning("mail out %s to %s not sent (attempt %d, retry in %.1fs): %s", row.message_id,
                        row.to_addr, stored.attempts, delay, stored.last_error)

    def send_due(self) -> int:
        """Deliver every due row, stopping at the first failure that is not permanent."""
        handled = 0
        try:
            while (row := self.claim()) is not None:
                handled += 1
                try:
                    self.transport.deliver(build_message(row, self.config), row.to_addr)
                except Exception as exc:  # noqa: BLE001 - every failure is recorded on the row
                    permanent = is_permanent(exc)
                    self._failed(row, exc, permanent)
                    if not permanent:
                        break
                else:
                    self._sent(row)
        finally:
            self.transport.close()
        return handled

    def wake(self) -> None:
        """Tell :meth:`run` that mail was queued (call from the event loop's thread)."""
        self._wake.set()

    async def run(self) -> None:
        """Send due mail whenever woken, and every ``sender_poll_seconds``, until cancelled."""
        while True:
            self._wake.clear()
            try:
                await asyncio.to_thread(self.send_due)
            except Exception:  # noqa: BLE001 - the database may be briefly away; retry later
                log.exception("sending the outbox failed; retrying")
            try:
                await asyncio.wait_for(self._wake.wait(), self.config.sender_poll_seconds)
            except TimeoutError:
                pass
