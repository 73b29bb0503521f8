"""The SMTP listener: commits each message to the inbox before it answers 250.

It runs in the server's own asyncio loop (``loop.create_server`` with aiosmtpd's ``SMTP``
protocol), so one loop carries the listener, the inbox reader, the scheduler and the sender.
Messages over ``max_message_bytes`` are refused with 552 and nothing is stored; a message
whose Message-ID is already in the inbox is acknowledged and not stored again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope
from aiosmtpd.smtp import Session as SMTPSession
from sqlalchemy.orm import Session, sessionmaker

from ..config import Config
from .inbox import store_incoming

log = logging.getLogger(__name__)


class InboxHandler:
    """aiosmtpd handler: the DATA hook stores the raw message, then acknowledges it."""

    def __init__(self, factory: sessionmaker[Session], config: Config,
                 on_stored: Callable[[], None] | None = None) -> None:
        self.factory = factory
        self.config = config
        self.on_stored = on_stored

    async def handle_DATA(self, server: SMTP, session: SMTPSession, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if len(raw) > self.config.max_message_bytes:
            log.info("mail refused from %s: %d bytes is over the limit", envelope.mail_from, len(raw))
            return "552 5.3.4 Message too big"
        sender = envelope.mail_from or ""
        try:
            stored, message_id = await asyncio.to_thread(
                store_incoming, self.factory, raw, sender, list(envelope.rcpt_tos))
        except Exception:  # noqa: BLE001 - tell the client to retry rather than lose the mail
            log.exception("could not store mail from %s", sender)
            return "451 4.3.0 Could not store the message, try again later"
        log.info("mail in %s from %s to %s, %d bytes%s", message_id, sender or "<>",
                 ",".join(envelope.rcpt_tos), len(raw), "" if stored else " (duplicate, not stored)")
        if stored and self.on_stored:
            self.on_stored()
        return "250 2.0.0 OK: queued"


async def start_listener(factory: sessionmaker[Session], config: Config,
                         on_stored: Callable[[], None] | None = None) -> asyncio.Server:
    """Listen on ``config.smtp_host:smtp_port`` in the running loop; returns the server."""
    handler = InboxHandler(factory, config, on_stored)

    def protocol() -> Any:
        return SMTP(handler, data_size_limit=config.max_message_bytes, enable_SMTPUTF8=True,
                    decode_data=False, hostname=config.domain, ident=f"judge {config.code}")

    loop = asyncio.get_running_loop()
    server = await loop.create_server(protocol, host=config.smtp_host, port=config.smtp_port,
                                      reuse_address=True)
    log.info("listening for mail on %s:%d", config.smtp_host, config.smtp_port)
    return server
