"""The SMTP listener: commits each message to the inbox before it answers 250 (group commit).

It runs in the server's own asyncio loop (``loop.create_server`` with aiosmtpd's ``SMTP``
protocol), beside the sender; ``on_stored`` tells the inbox reader (in that loop or in the
game process, :mod:`judge.game_process`) that mail is waiting.
Messages over ``max_message_bytes`` are refused with 552 and nothing is stored; a message
whose Message-ID is already in the inbox is acknowledged and not stored again. Messages
arriving together from several sessions are committed in one transaction
(:class:`InboxHandler`); none is answered before the commit that holds it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope
from aiosmtpd.smtp import Session as SMTPSession
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..config import Config
from .inbox import Arrival, store_many

log = logging.getLogger(__name__)


GROUP_MAILS = 200  # messages committed in one transaction at most


class InboxHandler:
    """aiosmtpd handler: the DATA hook stores the raw message, then acknowledges it.

    Group commit: messages that arrive while a commit is under way wait for the next one,
    which stores them all in one transaction (in a worker thread, off the loop); each
    session gets its 250 only once that commit is done. Under load a commit serves many
    sessions; a lone message is committed at once."""

    def __init__(self, factory: sessionmaker[Session], config: Config,
                 on_stored: Callable[[], None] | None = None) -> None:
        self.factory = factory
        self.config = config
        self.on_stored = on_stored
        self._waiting: list[tuple[Arrival, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def handle_DATA(self, server: SMTP, session: SMTPSession, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if len(raw) > self.config.max_message_bytes:
            log.info("mail refused from %s: %d bytes is over the limit", envelope.mail_from, len(raw))
            return "552 5.3.4 Message too big"
        sender = envelope.mail_from or ""
        arrival = Arrival.of(raw, sender, list(envelope.rcpt_tos))
        try:
            stored = await self._store(arrival)
        except Exception:  # noqa: BLE001 - tell the client to retry rather than lose the mail
            log.exception("could not store mail from %s", sender)
            return "451 4.3.0 Could not store the message, try again later"
        log.info("mail in %s from %s to %s, %d bytes%s", arrival.message_id, sender or "<>",
                 ",".join(envelope.rcpt_tos), len(raw), "" if stored else " (duplicate, not stored)")
        return "250 2.0.0 OK: queued"

    def _store(self, arrival: Arrival) -> asyncio.Future[bool]:
        """Whether ``arrival`` was stored, once the commit that holds it is done."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._waiting.append((arrival, future))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write(), name="inbox-writer")
        return future

    async def _write(self) -> None:
        while self._waiting:
            group, self._waiting = self._waiting[:GROUP_MAILS], self._waiting[GROUP_MAILS:]
            arrivals = [arrival for arrival, _ in group]
            try:
                results: list[bool | BaseException] = list(
                    await asyncio.to_thread(store_many, self.factory, arrivals))
            except Exception:  # noqa: BLE001 - a copy stored meanwhile, or one bad message: each alone
                results = await asyncio.to_thread(self._one_by_one, arrivals)
            for (_, future), result in zip(group, results, strict=True):
                if future.done():  # the client went away; the message is stored all the same
                    continue
                if isinstance(result, BaseException):
                    future.set_exception(result)
                else:
                    future.set_result(result)
            if self.on_stored and any(result is True for result in results):
                self.on_stored()

    def _one_by_one(self, arrivals: list[Arrival]) -> list[bool | BaseException]:
        out: list[bool | BaseException] = []
        for arrival in arrivals:
            try:
                out.append(store_many(self.factory, [arrival])[0])
            except IntegrityError:
                out.append(False)
            except Exception as exc:  # noqa: BLE001 - this message's session gets the 451
                out.append(exc)
        return out


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
