"""The inbox: store each received message durably, then read and answer it, one transaction each.

Contract (hook 5)::

    InboxProcessor(sessionmaker, config, handler, on_processed=None)

``handler(session, config, mail, now)`` is called inside the message's transaction and queues
its replies with :func:`judge.store.mail.queue_mail`; the server passes the command layer's
(the mail path knows no game). A handler that raises has its
work rolled back (a savepoint) and the message is marked "failed" with the error in ``note``;
loops and junk are marked "ignored"; everything else "done". A message is handled at most
once: rows are claimed with ``FOR UPDATE SKIP LOCKED`` where the database has it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..config import Config
from ..store.base import utcnow
from ..store.mail import InboxMessage
from .loops import refusal_reason
from .reader import IncomingMail, message_id_of, read_message

log = logging.getLogger(__name__)

MailHandler = Callable[[Session, Config, IncomingMail, datetime], None]


def store_incoming(factory: sessionmaker[Session], raw: bytes, envelope_sender: str,
                   recipients: list[str]) -> tuple[bool, str]:
    """Commit ``raw`` to the inbox; (False, id) when its Message-ID is there already."""
    message_id = message_id_of(raw)
    try:
        with factory() as session, session.begin():
            if session.scalar(select(InboxMessage.id).where(InboxMessage.message_id == message_id)):
                return False, message_id
            session.add(InboxMessage(message_id=message_id, envelope_sender=envelope_sender,
                                     recipients=recipients, raw=raw, received_at=utcnow(), status="new"))
    except IntegrityError:
        return False, message_id
    return True, message_id


class InboxProcessor:
    """Reads the inbox in arrival order, one message per transaction."""

    def __init__(self, factory: sessionmaker[Session], config: Config, handler: MailHandler,
                 on_processed: Callable[[], None] | None = None) -> None:
        self.factory = factory
        self.config = config
        self.handler = handler
        self.on_processed = on_processed
        self._wake = asyncio.Event()

    def process_one(self) -> bool:
        """Handle the oldest "new" message; False when there is none."""
        with self.factory() as session, session.begin():
            row = session.scalars(select(InboxMessage).where(InboxMessage.status == "new")
                                  .order_by(InboxMessage.id).limit(1)
                                  .with_for_update(skip_locked=True)).first()
            if row is None:
                return False
            now = utcnow()
            sender = row.envelope_sender
            try:
                mail = read_message(row.raw)
                sender = mail.sender or sender
                reason = refusal_reason(mail, row.envelope_sender, self.config)
                if reason:
                    row.status, row.note = "ignored", reason
                else:
                    with session.begin_nested():
                        self.handler(session, self.config, mail, now)
                    row.status = "done"
            except Exception as exc:  # noqa: BLE001 - one bad message must not stop the judge
                log.exception("handling %s from %s failed", row.message_id, sender)
                row.status, row.note = "failed", f"{type(exc).__name__}: {exc}"[:2000]
            row.processed_at = now
            log.info("mail read %s from %s: %s%s", row.message_id, sender, row.status,
                     f" ({row.note})" if row.note else "")
        return True

    def process_pending(self) -> int:
        """Handle every waiting message; how many were handled."""
        count = 0
        while self.process_one():
            count += 1
        return count

    def wake(self) -> None:
        """Tell :meth:`run` that a message arrived (call from the event loop's thread)."""
        self._wake.set()

    async def run(self) -> None:
        """Process leftover and arriving messages until cancelled."""
        while True:
            self._wake.clear()
            try:
                while await asyncio.to_thread(self.process_one):
                    if self.on_processed:
                        self.on_processed()
            except Exception:  # noqa: BLE001 - the database may be briefly away; retry later
                log.exception("reading the inbox failed; retrying")
            try:
                await asyncio.wait_for(self._wake.wait(), self.config.inbox_poll_seconds)
            except TimeoutError:
                pass
