"""Deadlines: one APScheduler job per game whose phase is due, the database the source of truth.

Contract (hook 6)::

    DeadlineScheduler(sessionmaker, config, pending, process, on_processed=None)

``pending(session, games) -> [(game, due)]`` lists the deadlines of ``games`` (None: of every
game); ``process(session, config, game, now) -> bool`` processes the game's phase if it is due
(taking the row lock) and queues its result mails; the server passes the game layer's
(``judge.game.processing``). The jobs are rebuilt from every game's deadline at start and
every ``scheduler_sync_seconds``; after an inbox batch (:meth:`request_sync` with the games
it wrote) and after a run (that game) only those games' deadlines are read again, so the
cost of keeping up with mail does not grow with the number of games. Each job runs
``process`` in its own transaction. A run that processes nothing (or fails) is tried again
one sync interval later. While phases are being processed, syncs asked for meanwhile are
taken together at most every ``SYNC_SPACING`` (2) seconds, so a 5,000-game burst does not
re-read its games back to back. While mail keeps coming (an inbox batch every few
milliseconds, each asking for a sync), they are taken together every ``MAIL_SYNC_SPACING``
(0.25) seconds: the first is read at once, the rest a quarter of a second later at most.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from sqlalchemy.orm import Session, sessionmaker

from .config import Config
from .store.base import utcnow
from .worker import set_within

log = logging.getLogger(__name__)

PendingFn = Callable[[Session, Collection[str] | None], list[tuple[str, datetime]]]
ProcessFn = Callable[[Session, Config, str, datetime], bool]
PROCESS_THREADS = 4  # phases processed at once; the listener's threads stay free during a burst
SYNC_SPACING = 2.0  # seconds between reads of deadlines while phases are being processed
MAIL_SYNC_SPACING = 0.25  # and while mail keeps asking for them (a batch of mail every few ms)


class DeadlineScheduler:
    """Keeps the APScheduler jobs in step with the deadlines in the database."""

    def __init__(self, factory: sessionmaker[Session], config: Config, pending: PendingFn, process: ProcessFn,
                 on_processed: Callable[[], None] | None = None) -> None:
        self.factory = factory
        self.config = config
        self.pending = pending
        self.process = process
        self.on_processed = on_processed
        self.scheduler = AsyncIOScheduler(timezone=UTC, job_defaults={
            "misfire_grace_time": None, "coalesce": True, "max_instances": 1})
        self.scheduled: dict[str, datetime] = {}
        self._hold: dict[str, datetime] = {}
        self._sync_lock = asyncio.Lock()
        self._sync_again = False
        self._asked: set[str] | None = set()  # the games the next read is for; None: every game
        self._tasks: set[asyncio.Task[None]] = set()
        self._running: set[str] = set()
        self._finished: dict[str, int] = {}  # game -> epoch its last run ended
        self._epoch = 0
        self._pool = ThreadPoolExecutor(max_workers=PROCESS_THREADS, thread_name_prefix="deadline")
        self._stopping = False
        self._stopped = asyncio.Event()  # set by stop(): ends a sync's pause between burst reads

    async def start(self) -> None:
        """Start the scheduler with the jobs read from the database."""
        self.scheduler.start()
        await self.sync()
        self.scheduler.add_job(self.sync, "interval", seconds=self.config.scheduler_sync_seconds,
                               id="sync-deadlines", replace_existing=True)

    async def stop(self, timeout: float = 10) -> None:
        """Stop scheduling and wait (up to ``timeout``) for phases being processed to commit."""
        self._stopping = True
        self._stopped.set()
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        deadline = asyncio.get_running_loop().time() + timeout
        while self._tasks and (left := deadline - asyncio.get_running_loop().time()) > 0:
            await asyncio.wait(list(self._tasks), timeout=left)
        try:  # a sync in flight ends on its own, not cancelled (and logged) with the loop
            await asyncio.wait_for(self._sync_lock.acquire(), max(0.0, deadline - asyncio.get_running_loop().time()))
        except TimeoutError:
            pass
        else:
            self._sync_lock.release()
        for task in list(self._tasks):
            task.cancel()
        self._pool.shutdown(wait=False)

    def _read(self, games: set[str] | None) -> list[tuple[str, datetime]]:
        with self.factory() as session, session.begin():
            return list(self.pending(session, games))

    async def sync(self, games: Iterable[str] | None = None) -> None:
        """Re-read the deadlines of ``games`` (None: of every game) and add, move or drop
        jobs to match."""
        if self._stopping:
            return
        if games is None:
            self._asked = None
        elif self._asked is not None:
            self._asked.update(games)
        if self._sync_lock.locked():
            self._sync_again = True
            return
        async with self._sync_lock:
            self._sync_again = True
            while self._sync_again and not self._stopping:
                self._sync_again = False
                asked, self._asked = self._asked, set()
                if asked is not None and not asked:
                    continue
                started = self._epoch
                try:
                    self._apply(await asyncio.to_thread(self._read, asked), started, asked)
                except Exception:  # noqa: BLE001 - the next sync tries again
                    log.exception("reading the deadlines failed")
                    self._asked = None  # what was asked for is read with the rest next time
                if self._sync_again:
                    # A burst: every run (or inbox batch) asks for a sync; those coming in the
                    # next moment share one read instead of one read each.
                    await set_within(self._stopped, SYNC_SPACING if self._running else MAIL_SYNC_SPACING)

    def request_sync(self, games: Iterable[str] | None = None) -> None:
        """Ask for a :meth:`sync` of ``games`` (None: of every game) soon (call from the
        event loop's thread)."""
        self._track(asyncio.get_running_loop().create_task(self.sync(games)))

    def _track(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _apply(self, deadlines: list[tuple[str, datetime]], started: int, games: set[str] | None) -> None:
        """Match the jobs of ``games`` (None: every game's) to ``deadlines``, read when the
        epoch was ``started``.

        A game whose run ended after that read began is left alone: the read may predate its
        commit, and the sync that run asks for will schedule its next deadline.
        """
        wanted = {game: max(due, self._hold.get(game, due)) for game, due in deadlines}
        if games is None:
            self._hold = {game: when for game, when in self._hold.items() if game in wanted}
            gone = set(self.scheduled) - wanted.keys()
        else:  # the games not read keep their jobs and holds
            self._hold = {game: when for game, when in self._hold.items() if game in wanted or game not in games}
            gone = (set(self.scheduled) & games) - wanted.keys()
        for game in gone:
            self._remove(game)
        for game, due in wanted.items():
            if game in self._running or self._finished.get(game, -1) > started:
                continue
            if self.scheduled.get(game) != due:
                self.scheduler.add_job(self._run, "date", run_date=due, args=[game], id=f"deadline:{game}",
                                       replace_existing=True)
                self.scheduled[game] = due
                log.debug("deadline for %s at %s", game, due.isoformat())

    def _remove(self, game: str) -> None:
        self.scheduled.pop(game, None)
        try:
            self.scheduler.remove_job(f"deadline:{game}")
        except JobLookupError:
            pass

    def _process(self, game: str) -> bool:
        if self._stopping:
            return False
        with self.factory() as session, session.begin():
            return self.process(session, self.config, game, utcnow())

    async def _run(self, game: str) -> None:
        if self._stopping:
            return
        task = asyncio.current_task()
        if task is not None:
            self._track(task)
        self.scheduled.pop(game, None)
        self._running.add(game)
        try:
            processed = await asyncio.get_running_loop().run_in_executor(self._pool, self._process, game)
        except Exception:  # noqa: BLE001 - one game must not stop the others
            log.exception("processing %s failed; trying again later", game)
            processed = False
        finally:
            self._running.discard(game)
            self._epoch += 1
            self._finished[game] = self._epoch
        if processed:
            self._hold.pop(game, None)
            log.info("deadline for %s: phase processed", game)
            if self.on_processed:
                self.on_processed()
        else:
            self._hold[game] = utcnow() + timedelta(seconds=self.config.scheduler_sync_seconds)
        try:
            await self.sync([game])
        except asyncio.CancelledError:
            if not self._stopping:
                raise  # a shutdown cancels the follow-up sync; anything else is real
