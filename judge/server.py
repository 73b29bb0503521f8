"""The judge server: the mail path (listener, sender) in this process's asyncio loop, and the
game work (inbox reader, deadline scheduler, picture stage) in a process of its own or in
the same loop.

Contract (hook 7)::

    server = JudgeServer(config)        # the command layer's mail handler, the game's deadlines
    server = JudgeServer(config, handler=..., queue=...)   # others, for tests
    await server.start()                # listening once this returns
    await server.stop()

``run(config)`` starts it and stops it on SIGINT/SIGTERM (``judge serve``). The database must
be migrated first (``judge serve`` does that). With ``[judge] game_process = true`` (the
default on PostgreSQL) the game work runs in a child process
(:class:`judge.game_process.GameProcess`), so the judge uses two cores; with ``false`` (the
default on SQLite, whose one writer the two processes would take turns at: measured, no
faster), with hooks of a test's own, on an in-memory SQLite database or where there is no
forkserver (Windows), it runs in this loop (:class:`judge.game_process.GameWork`). On start
the reader processes every message left "new" by an earlier run, and the sender puts back
the mail a dead process had claimed, so a crash loses nothing and stalls nothing. A stop
closes the listener, lets the work in hand finish for up to ``stop_seconds`` and breaks the
rest off (it stays queued), so a service manager's stop never ends in a kill. Every
``health_seconds`` a health line logs the queues.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from sqlalchemy import make_url

from .commands import handle_mail
from .config import Config
from .game_process import GameProcess, GameWork
from .mail.inbox import MailHandler
from .mail.listener import start_listener
from .mail.sender import Sender
from .mail.transport import Transport
from .scheduler import GAME_QUEUE, DueQueue
from .store import queues, ratelimit
from .store.base import make_engine, make_sessionmaker, utcnow

log = logging.getLogger(__name__)


def _in_memory(url: str) -> bool:
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


class JudgeServer:
    """Wires the mail path and the game work together around one database."""

    def __init__(self, config: Config, *, handler: MailHandler = handle_mail,
                 queue: DueQueue = GAME_QUEUE, transport: Transport | None = None) -> None:
        self.config = config
        self.engine = make_engine(config.database_url)
        self.factory = make_sessionmaker(self.engine, mail_domain=config.domain)
        self.sender = Sender(self.factory, config, transport)
        own_hooks = handler is handle_mail and queue is GAME_QUEUE
        split = config.game_process
        if split is None:
            split = make_url(config.database_url).get_backend_name() == "postgresql"
        self.games: GameWork | GameProcess
        if split and own_hooks and not _in_memory(config.database_url) and GameProcess.available():
            self.games = GameProcess(config, on_mail_queued=self.sender.wake)
        else:
            self.games = GameWork(self.factory, config, handler, queue, on_mail_queued=self.sender.wake)
        self._listener: asyncio.Server | None = None
        self._health_task: asyncio.Task[None] | None = None
        self._sender_task: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        """The port the listener is bound to (useful when the configured port is 0)."""
        assert self._listener is not None and self._listener.sockets
        return int(self._listener.sockets[0].getsockname()[1])

    @property
    def game_pid(self) -> int | None:
        """The game process's id, while the game work runs in one."""
        return self.games.pid if isinstance(self.games, GameProcess) else None

    async def start(self) -> None:
        """Start the sender and the game work, then listen for mail."""
        await asyncio.to_thread(self.sender.beat)  # put back what a dead process had claimed
        loop = asyncio.get_running_loop()
        self._sender_task = loop.create_task(self.sender.run(), name="sender")
        self._health_task = loop.create_task(self._health(), name="health")
        await self.games.start()
        self._listener = await start_listener(self.factory, self.config, self.games.mail_arrived)
        log.info("judge %s started (%s, node %s)", self.config.code, self.sender.name, self.sender.node_id)

    def health_line(self) -> str:
        """One line on the queues: inbox and outbox rows by status, the oldest waiting."""
        with self.factory() as session, session.begin():
            count = queues.counts(session)
            inbox, outbox = queues.oldest_waiting(session)
            ratelimit.prune(session, utcnow(), 3600)
        now = utcnow()

        def age(when: object) -> str:
            return f"{(now - when).total_seconds():.0f}s" if when is not None else "-"  # type: ignore[operator]

        i, o = count["inbox"], count["outbox"]
        return (f"health: inbox new {i.get('new', 0)} failed {i.get('failed', 0)} quarantined "
                f"{i.get('quarantined', 0)} (oldest new {age(inbox)}); outbox pending {o.get('pending', 0)} "
                f"failed {o.get('failed', 0)} sent {o.get('sent', 0)} (oldest pending {age(outbox)})")

    async def _health(self) -> None:
        while True:
            await asyncio.sleep(self.config.health_seconds)
            try:
                log.info("%s", await asyncio.to_thread(self.health_line))
            except Exception:  # noqa: BLE001 - the database may be briefly away
                log.exception("reading the queues for the health line failed")

    async def stop(self) -> None:
        """Stop listening, then stop the workers within ``stop_seconds``; committed work is
        never undone and what was not finished stays queued."""
        grace = self.config.stop_seconds
        if self._listener is not None:
            self._listener.close()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._listener.wait_closed(), min(2, grace))
            self._listener = None
        # The phases being processed and the mails being sent share the one grace, so a
        # stop takes at most that long after the listener closed, not the sum of the two.
        await asyncio.gather(self.games.stop(grace), self.sender.stop(grace))
        for task in (self._sender_task, self._health_task):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self.engine.dispose()
        log.info("judge %s stopped", self.config.code)


async def serve(config: Config) -> None:
    """Run a :class:`JudgeServer` until SIGINT or SIGTERM."""
    server = JudgeServer(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await server.start()
    try:
        await stop.wait()
    finally:
        await server.stop()


def run(config: Config) -> None:
    """Blocking entry point of ``judge serve``."""
    asyncio.run(serve(config))
