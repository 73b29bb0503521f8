"""Result mails' pictures made in processes of their own, beside the judge's.

Contract::

    pool = PicturePool(processes)          # 0: made in the caller's thread
    for png in pool.draw(svgs): ...        # the PNGs in the order of ``svgs``, each as it is made
    pool.close()                           # the processes end

Making a picture's PNG costs some 25 ms of processor time (the board kept,
:mod:`judge.render.pictures.compose`), and a deadline burst makes one for every game due:
5,000 at once on a busy judge. In the judge's own process that work takes turns with the
game work and the sender under one interpreter lock; in processes of their own it runs on
every core, niced (:data:`NICENESS`), so it takes only what the mail path and the game work
leave (``bench/mail_throughput.py`` prints the burst). The
processes are forked from a ``forkserver`` (as the game process is, :mod:`judge.game_process`),
each keeps its own boards and tiles, and they are given only SVG text and give back PNG
bytes: the database stays with the caller.

A picture process never outlives the judge: it ignores SIGINT (a terminal's ^C reaches the
whole process group; the judge stops it), ends on SIGTERM (a service manager stops every
process of the unit), and ends when the pipe the judge holds for it reaches its end, which
the kernel closes when the judge dies, even by SIGKILL. A process that dies breaks the pool:
the pictures in hand fail (the picture stage tries them again) and the next call starts
new processes.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection

from .render.pictures import svg_to_png

log = logging.getLogger(__name__)


NICENESS = 10  # added to a picture process's: the mail path and the game work go first
MOST_PROCESSES = 4  # the default's cap: each keeps its boards and tiles (some 100 MB)


def default_processes() -> int:
    """Picture processes when the configuration names none: one a core (up to
    :data:`MOST_PROCESSES`) where there are two cores or more and a forkserver to fork
    from, else none (pictures made in the judge's process). They run niced, so they take
    the cores the judge's other work leaves: a burst's pictures use every core without
    slowing the mail in or the phases."""
    cores = os.cpu_count() or 1
    if cores < 2 or "forkserver" not in multiprocessing.get_all_start_methods():
        return 0
    return min(cores, MOST_PROCESSES)


def _watch(alive: Connection) -> None:
    """In a picture process: end it the moment the judge's end of ``alive`` closes."""
    try:
        alive.recv()
    except (EOFError, OSError):
        pass
    os._exit(0)


def _start(alive: Connection) -> None:
    """A picture process's start: niced, SIGINT left to the judge, and the watch on the judge."""
    os.nice(NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(alive,), name="judge-watch", daemon=True).start()


class PicturePool:
    """Makes PNGs of SVGs in ``processes`` processes of their own (0: in the caller's thread)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._alive: tuple[Connection, Connection] | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["judge.render.pictures"])
                # The processes get the reading end; this one keeps both, so only its death
                # (or close()) brings them to the end of the pipe.
                self._alive = ctx.Pipe(duplex=False)
                self._pool = ProcessPoolExecutor(self.processes, mp_context=ctx, initializer=_start,
                                                 initargs=(self._alive[0],))
            return self._pool

    def draw(self, svgs: Sequence[str]) -> Iterator[bytes]:
        """The PNG of each of ``svgs``, in order, each as soon as it is made (blocking)."""
        if self.processes <= 0 or len(svgs) == 0:
            yield from (svg_to_png(svg) for svg in svgs)
            return
        pool = self._executor()
        try:
            yield from pool.map(svg_to_png, svgs)
        except BrokenProcessPool:
            log.warning("a picture process ended; its pictures will be made again")
            self._drop(pool)
            raise

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        """Forget a broken (or closing) pool and end its processes."""
        with self._lock:
            if self._pool is not pool:
                return
            self._pool, alive = None, self._alive
            self._alive = None
        pool.shutdown(wait=False, cancel_futures=True)
        if alive is not None:
            for end in alive:
                end.close()

    def close(self) -> None:
        """End the picture processes (pictures in hand are dropped: they stay waiting)."""
        pool = self._pool
        if pool is not None:
            self._drop(pool)
