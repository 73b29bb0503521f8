"""Deadlines: one APScheduler job that runs the due games, and wakes again at the earliest
``due_at``; the database is the queue (:mod:`judge.game.due`), with nothing copied in memory.

Contract (hook 6)::

    DeadlineScheduler(sessionmaker, config, queue, on_processed=None)
    await scheduler.start(); scheduler.wake(); await scheduler.stop(timeout)

``queue`` is a :class:`DueQueue` of three functions, each run in a transaction of its own:
``claim(session, config, now) -> name | None`` claims one game due by ``now`` and acts on it
(None: nothing is due); ``earliest(session) -> moment | None`` is the earliest moment any
game is due; ``sweep(session) -> int`` computes every game's moment again (a guard). The
server passes the game layer's (:data:`GAME_QUEUE`).

A run claims games on up to ``PROCESS_THREADS`` threads until none is due, then reads the
earliest moment and puts the one job there (the judge's clock, :mod:`judge.clock`, may be
ahead of the wall clock in a test: the job runs that much earlier). :meth:`wake` asks for a
run now: after an inbox batch (its mail may have set a deadline or made a phase ready), when
the clock moves, and after each sweep (every ``scheduler_sync_seconds``, and at start). A
wake during a run makes the run look again before it sleeps. Another judge process on the
same database claims other games (``SKIP LOCKED``); while it holds the only due ones, this
one looks again every ``BUSY_SECONDS``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from sqlalchemy.orm import Session, sessionmaker

from . import clock
from .config import Config
from .game import due

log = logging.getLogger(__name__)
_T = TypeVar("_T")

PROCESS_THREADS = 4  # phases processed at once; the listener's threads stay free during a burst
BUSY_SECONDS = 0.2  # how soon to look again when the due games are held by another process
FAILED_SECONDS = 1.0  # how soon to look again after the database failed a claim
JOB = "due-games"


@dataclass(frozen=True, slots=True)
class DueQueue:
    """What the deadline job runs (see the module's contract)."""

    claim: Callable[[Session, Config, datetime], str | None]
    earliest: Callable[[Session], datetime | None]
    sweep: Callable[[Session], int]


GAME_QUEUE = DueQueue(due.claim_due, due.earliest, due.sweep)


class DeadlineScheduler:
    """Runs the due games of the database's queue when they are due."""

    def __init__(self, factory: sessionmaker[Session], config: Config, queue: DueQueue = GAME_QUEUE,
                 on_processed: Callable[[], None] | None = None) -> None:
        self.factory = factory
        self.config = config
        self.queue = queue
        self.on_processed = on_processed
        self.scheduler = AsyncIOScheduler(timezone=UTC, job_defaults={
            "misfire_grace_time": None, "coalesce": True, "max_instances": 1})
        self._pool = ThreadPoolExecutor(max_workers=PROCESS_THREADS, thread_name_prefix="deadline")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._running = False
        self._again = False
        self._stopping = False
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Start the jobs: a sweep at once (then a run of what is due) and every
        ``scheduler_sync_seconds``."""
        self._loop = asyncio.get_running_loop()
        self.scheduler.start()
        self.scheduler.add_job(self._sweep, "interval", seconds=self.config.scheduler_sync_seconds,
                               id="sweep-due", replace_existing=True)
        clock.on_change(self._clock_moved)
        # The first sweep runs at once but is not waited for: the judge is ready sooner.
        self.scheduler.add_job(self._sweep, "date", run_date=datetime.now(UTC), id="sweep-first")

    async def stop(self, timeout: float = 10) -> None:
        """Stop scheduling and wait (up to ``timeout``) for the games being processed to commit."""
        self._stopping = True
        clock.off_change(self._clock_moved)
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=timeout)
        for task in list(self._tasks):
            task.cancel()
        self._pool.shutdown(wait=False)

    def wake(self) -> None:
        """Run the due games now (call from the event loop's thread)."""
        if self._stopping:
            return
        if self._running:
            self._again = True
        else:
            self._plan(datetime.now(UTC))

    def _clock_moved(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.wake)

    def _plan(self, run_at: datetime) -> None:
        if not self._stopping and self.scheduler.running:
            self.scheduler.add_job(self._run, "date", run_date=run_at, id=JOB, replace_existing=True)

    def _track(self) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _sweep(self) -> None:
        """The sweep (a job: stop waits for it); then a run of what is due."""
        if self._stopping:
            return
        self._track()
        try:
            wrong = await asyncio.to_thread(self._in_transaction, self.queue.sweep)
            if wrong:
                log.warning("the sweep found %d game(s) with a wrong due_at", wrong)
        except Exception:  # noqa: BLE001 - the next sweep tries again
            log.exception("sweeping the deadline queue failed")
        self.wake()

    def _in_transaction(self, work: Callable[[Session], _T]) -> _T:
        with self.factory() as session, session.begin():
            return work(session)

    def _drain(self) -> int:
        """Claim and process due games until none is left (or the judge stops); how many."""
        done = 0
        while not self._stopping:
            with self.factory() as session, session.begin():
                name = self.queue.claim(session, self.config, clock.now())
            if name is None:
                return done
            done += 1
            log.info("deadline for %s: done", name)
            if self.on_processed is not None and self._loop is not None:
                self._loop.call_soon_threadsafe(self.on_processed)
        return done

    async def _run(self) -> None:
        if self._stopping:
            return
        self._track()
        self._running = True
        loop = asyncio.get_running_loop()
        failed = False
        next_at: datetime | None = None
        try:
            while not self._stopping:
                self._again = False
                try:
                    next_at = await asyncio.to_thread(self._in_transaction, self.queue.earliest)
                    if next_at is not None and next_at <= clock.now():
                        await asyncio.gather(*(loop.run_in_executor(self._pool, self._drain)
                                               for _ in range(PROCESS_THREADS)))
                        next_at = await asyncio.to_thread(self._in_transaction, self.queue.earliest)
                except Exception:  # noqa: BLE001 - the database may be briefly away
                    log.exception("running the due games failed; trying again")
                    failed = True
                    break
                if not self._again:
                    break
        finally:
            self._running = False
        if self._stopping:
            return
        now = clock.now()
        if failed:
            self._plan(datetime.now(UTC) + timedelta(seconds=FAILED_SECONDS))
        elif next_at is not None:
            wait = max(next_at - now, timedelta(seconds=BUSY_SECONDS))
            self._plan(datetime.now(UTC) + wait)
