"""The judge's clock: every stage reads the time from :func:`now`, and tests move it.

Contract::

    from judge import clock
    clock.now()                     # aware UTC: the wall clock plus the clock's offset
    clock.advance(timedelta(hours=25)); clock.set(moment); clock.reset()   # tests
    clock.on_change(callback); clock.off_change(callback)   # told when the clock moves
    clock.wall()                    # the wall clock, for leases between processes only

The offset is 0 in a running judge. A test moves the clock forward instead of waiting for a
deadline (as Mailman's date factory does): the reminders, late notices, grace and absences
then come at once. The clock keeps running from the moment it was set.

A judge's game work may run in a process of its own (:mod:`judge.game_process`). So that the
moved clock reaches it, the offset is kept in the file named by the environment variable
``JUDGE_CLOCK_FILE`` when that is set (the tests set it before any process starts): every
process reads it there (again only when the file changed), and :func:`set` writes it. Such a
process learns that the clock moved at its deadline queue's next sweep; this process's
listeners are told at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ENV = "JUDGE_CLOCK_FILE"

_offset = timedelta(0)
_file_state: tuple[int, int, int] | None = None  # (inode, mtime_ns, size) of the file when last read
_lock = threading.Lock()
_listeners: list[Callable[[], None]] = []


def _path() -> Path | None:
    name = os.environ.get(ENV)
    return Path(name) if name else None


def _read(path: Path) -> timedelta:
    """The offset in ``path`` (seconds as text), read again only when the file changed."""
    global _offset, _file_state
    try:
        stat = path.stat()
    except FileNotFoundError:
        return timedelta(0)
    state = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    if state != _file_state:
        with _lock:
            text = path.read_text(encoding="ascii").strip()
            _offset = timedelta(seconds=float(text or 0))
            _file_state = state
    return _offset


def offset() -> timedelta:
    """How far the clock is ahead of the wall clock."""
    path = _path()
    return _read(path) if path is not None else _offset


def now() -> datetime:
    """The current time as a timezone-aware UTC datetime."""
    return datetime.now(UTC) + offset()


def wall() -> datetime:
    """The wall clock, never moved: for what measures processes rather than games (the
    heartbeats by which judge processes tell that another is gone)."""
    return datetime.now(UTC)


def set(moment: datetime) -> None:  # noqa: A001 - the clock's own verb
    """Set the clock to ``moment`` (it runs on from there) and tell the listeners."""
    global _offset, _file_state
    with _lock:
        _offset = moment - datetime.now(UTC)
        path = _path()
        if path is not None:
            new = path.with_name(f"{path.name}.{os.getpid()}")
            new.write_text(f"{_offset.total_seconds():.6f}\n", encoding="ascii")
            os.replace(new, path)  # a new file: readers see it change even within one mtime tick
            stat = path.stat()
            _file_state = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        listeners = list(_listeners)
    for listener in listeners:
        listener()


def advance(delta: timedelta) -> None:
    """Move the clock ``delta`` forward."""
    set(now() + delta)


def reset() -> None:
    """Back to the wall clock."""
    set(datetime.now(UTC))


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` (from the thread that moves the clock) whenever the clock is set."""
    with _lock:
        _listeners.append(listener)


def off_change(listener: Callable[[], None]) -> None:
    """Stop telling ``listener``."""
    with _lock:
        if listener in _listeners:
            _listeners.remove(listener)
