"""The game half of the judge server: the inbox reader with the command layer, the deadline
scheduler and the picture stage, in the server's own process or in a process of its own
(the picture stage's PNGs made in processes of their own, :mod:`judge.picture_process`).

Contract::

    work = GameWork(factory, config, handler, queue, on_mail_queued)
    await work.start(); work.mail_arrived(); await work.stop(grace)

    games = GameProcess(config, on_mail_queued)     # the same work, in a child process
    await games.start(); games.mail_arrived(); await games.stop(grace)

The server keeps the mail path (listener, sender) and gives the rest to one of these (which
one: :mod:`judge.server`; a process of its own by default on PostgreSQL). Split in two
processes, the judge uses two cores: the listener answers ``250`` and the sender
delivers while the other process reads the inbox and processes phases, where in one process
they would take turns under one interpreter lock. The database is the only state the two
share, as it is between two judge nodes; besides it they send each other one-byte wake-ups
over a socket pair (``mail_arrived``: the inbox has new rows; back, ``mail_queued``: the
outbox has new rows). A lost wake-up costs nothing but time: every stage also polls.

The child is forked from a ``forkserver`` that has the judge's modules imported, so it
starts in a few milliseconds. It ignores SIGINT (a terminal's ^C reaches the whole process
group: the parent stops it), stops on SIGTERM (a service manager stops every process of the
unit), and stops when the socket reaches its end: a parent killed with SIGKILL leaves no
child behind once the child's work in hand is committed. A child that dies is started
again within a second; what it held was rolled back by the database and is read again.
A child stopped by SIGTERM says so before it ends (``TERMINATED``): a service manager stops
every process of the unit, and the judge's own SIGTERM may be handled only after it has
seen the child end, so the judge waits ``TERMINATED_SECONDS`` for its stop before starting
another child (one stopped alone, by hand, is started again after that).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal
import socket
import time
from collections.abc import Callable, Coroutine
from multiprocessing.process import BaseProcess
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from .commands import answer_failure, handle_mail
from .config import Config
from .game.pictures import PictureStage
from .logs import setup_logging
from .mail.inbox import InboxProcessor, MailHandler
from .picture_process import PicturePool, default_processes
from .scheduler import GAME_QUEUE, DeadlineScheduler, DueQueue
from .store.base import make_engine, make_sessionmaker
from .worker import set_within

log = logging.getLogger(__name__)

ARRIVED, QUEUED, READY, STOP, TERMINATED = b"i", b"o", b"r", b"s", b"t"
START_SECONDS = 60.0  # a child that has not said it is ready by then is killed
RESTART_SECONDS = 1.0  # the pause before a child that died is started again
TERMINATED_SECONDS = 30.0  # the pause before a child stopped by SIGTERM is: the judge's stop may follow


class GameWork:
    """The inbox reader, the deadline scheduler and the picture stage on one database."""

    def __init__(self, factory: sessionmaker[Session], config: Config, handler: MailHandler,
                 queue: DueQueue, on_mail_queued: Callable[[], None]) -> None:
        self.on_mail_queued = on_mail_queued
        processes = config.picture_processes
        self.drawing = PicturePool(default_processes() if processes is None else processes)
        self.pictures = PictureStage(factory, config.sender_poll_seconds, on_made=on_mail_queued,
                                     draw=self.drawing.draw)
        self.scheduler = DeadlineScheduler(factory, config, queue, on_processed=self._queued)
        self.processor = InboxProcessor(factory, config, handler, on_processed=self._processed,
                                        on_failure=answer_failure)
        self._tasks: list[asyncio.Task[None]] = []

    def _queued(self) -> None:
        self.on_mail_queued()
        self.pictures.wake()

    def _processed(self) -> None:
        """An inbox batch committed: its mail may have set a deadline or made a phase ready."""
        self._queued()
        self.scheduler.wake()

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> None:
        self._tasks.append(asyncio.get_running_loop().create_task(coro, name=name))

    async def start(self) -> None:
        """Start the stages; the reader begins with what is waiting."""
        self._spawn(self.processor.run(), "inbox")
        self._spawn(self.pictures.run(), "pictures")
        await self.scheduler.start()

    def mail_arrived(self) -> None:
        """New mail is in the inbox (call from the event loop's thread)."""
        self.processor.wake()

    async def stop(self, grace: float) -> None:
        """Let the phases being processed commit (up to ``grace`` seconds), then stop."""
        await self.scheduler.stop(grace)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        self.drawing.close()


def _send(sock: socket.socket, what: bytes) -> None:
    """Send a wake-up; a full socket already holds one, a closed one has nobody to wake."""
    with contextlib.suppress(BlockingIOError, OSError):
        sock.send(what)


class GameProcess:
    """:class:`GameWork` with the command layer and the game's deadlines, in a child process."""

    @staticmethod
    def available() -> bool:
        """Whether this system can fork a game process from a forkserver (POSIX can)."""
        return "forkserver" in multiprocessing.get_all_start_methods()

    def __init__(self, config: Config, on_mail_queued: Callable[[], None]) -> None:
        self.config = config
        self.on_mail_queued = on_mail_queued
        self._process: BaseProcess | None = None
        self._sock: socket.socket | None = None
        self._ready = asyncio.Event()
        self._running = False
        self._stopping = False
        self._restart: asyncio.Task[None] | None = None
        self._terminated = False  # the child said it was stopped by SIGTERM

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        return self._process.pid if self._process is not None and self._process.is_alive() else None

    async def start(self) -> None:
        """Start the child and wait until its stages run (its reader begins with what waits)."""
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        ours, theirs = socket.socketpair()
        level = logging.getLogger().getEffectiveLevel() or logging.WARNING
        process = ctx.Process(target=_child_main, args=(self.config, theirs, level),
                              name=f"judge {self.config.code} games", daemon=False)
        process.start()
        theirs.close()
        ours.setblocking(False)
        self._process, self._sock = process, ours
        self._ready, self._running, self._terminated = asyncio.Event(), False, False
        asyncio.get_running_loop().add_reader(ours.fileno(), self._readable)
        try:
            ready = await set_within(self._ready, START_SECONDS)
        except BaseException:  # cancelled (a stop during a restart): leave no child behind
            process.kill()
            await self._end(5)
            raise
        if not ready:
            await self._end(0)
            raise RuntimeError(f"the game process did not start within {START_SECONDS:.0f} s")
        if not self._running:
            await self._end(1)
            raise RuntimeError(f"the game process ended as it started (exit code {process.exitcode})")
        log.info("game process %d started", process.pid)

    def _readable(self) -> None:
        assert self._sock is not None
        try:
            data = self._sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the child's end closed: it stopped, or it died
            asyncio.get_running_loop().remove_reader(self._sock.fileno())
            if not self._ready.is_set():
                self._ready.set()  # start() sees it never ran
            elif not self._stopping and self._restart is None:
                self._restart = asyncio.get_running_loop().create_task(self._start_again(), name="game-restart")
            return
        if TERMINATED in data:
            self._terminated = True
        if READY in data:
            self._running = True
            self._ready.set()
        if QUEUED in data:
            self.on_mail_queued()

    async def _start_again(self) -> None:
        """Put the dead child away and start another, until one runs or the judge stops."""
        try:
            process = self._process
            await self._end(RESTART_SECONDS)
            if self._stopping:  # the judge is stopping too (a service manager stops them all)
                return
            if self._terminated:
                log.warning("the game process was stopped by SIGTERM; waiting %.0f s for the judge's stop "
                            "before starting another", TERMINATED_SECONDS)
                await asyncio.sleep(TERMINATED_SECONDS)  # stop() cancels this
            log.error("the game process ended (exit code %s); starting it again",
                      process.exitcode if process is not None else None)
            while not self._stopping:
                await asyncio.sleep(RESTART_SECONDS)
                try:
                    await self.start()
                    return
                except Exception:  # noqa: BLE001 - the database may be away: try again
                    log.exception("starting the game process failed; trying again")
        finally:
            self._restart = None

    def mail_arrived(self) -> None:
        """New mail is in the inbox."""
        if self._sock is not None:
            _send(self._sock, ARRIVED)

    async def stop(self, grace: float) -> None:
        """Ask the child to stop and wait for it (``grace`` seconds and one more), then kill it."""
        self._stopping = True
        if self._restart is not None:
            self._restart.cancel()
            await asyncio.gather(self._restart, return_exceptions=True)
        if self._sock is not None:
            _send(self._sock, STOP)
        await self._end(grace + 1)

    async def _end(self, wait: float) -> None:
        process, sock = self._process, self._sock
        if process is not None:
            await asyncio.to_thread(process.join, wait)
            if process.is_alive():
                log.error("the game process did not stop within %.0f s; killing it", wait)
                process.kill()
                await asyncio.to_thread(process.join, 5)
        if sock is not None:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(sock.fileno())
            sock.close()
        self._process = self._sock = None


def _child_main(config: Config, sock: socket.socket, log_level: int) -> None:
    """The child process: the game work until told to stop, or until the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    setup_logging(log_level)
    asyncio.run(_child(config, sock))


async def _child(config: Config, sock: socket.socket) -> None:
    loop = asyncio.get_running_loop()
    engine = make_engine(config.database_url)
    factory = make_sessionmaker(engine, mail_domain=config.domain)
    stop = asyncio.Event()
    sock.setblocking(False)
    work = GameWork(factory, config, handle_mail, GAME_QUEUE, lambda: _send(sock, QUEUED))

    def readable() -> None:
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data or STOP in data:  # told to stop, or the parent is gone
            loop.remove_reader(sock.fileno())
            stop.set()
            return
        if ARRIVED in data:
            work.mail_arrived()

    def terminated() -> None:
        _send(sock, TERMINATED)  # before the socket ends: the parent must not take it for a death
        stop.set()

    loop.add_reader(sock.fileno(), readable)
    loop.add_signal_handler(signal.SIGTERM, terminated)
    started = time.monotonic()
    try:
        await work.start()
        _send(sock, READY)
        log.info("game process ready in %.2f s", time.monotonic() - started)
        await stop.wait()
        await work.stop(config.stop_seconds)
    finally:
        sock.close()
        engine.dispose()
