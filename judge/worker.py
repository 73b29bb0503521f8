"""The loop of a background stage: drain its work, then sleep until woken or polled.

Contract::

    loop = WakeLoop()
    loop.wake()                                   # from the event loop's thread: work arrived
    await loop.run(step, poll_seconds, after, log, "reading the inbox failed; retrying")

``set_within(event, seconds)`` waits for an event up to a time, and is what every loop of the
server that waits for a wake-up uses: ``asyncio.wait_for`` on Python 3.11 swallows a
cancellation that comes in the same moment as the event (gh-86296), and a loop around it
then never ends (a test run hung in a server's stop, its picture stage cancelled and still
polling).

``step`` runs in a worker thread and returns how much it did (0 or False: nothing left);
``after`` (if given) is called on the event loop after each step that did something. A step
that raises is logged with ``failure`` and tried again at the next wake or poll: the
database may be briefly away. Shared by the inbox reader (:mod:`judge.mail.inbox`) and the
picture stage (:mod:`judge.game.pictures`), which live in layers that must not import each
other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable


async def set_within(event: asyncio.Event, seconds: float) -> bool:
    """Wait until ``event`` is set, ``seconds`` at most; whether it was. A cancellation of the
    waiting task always goes through (see the module docstring)."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True


class WakeLoop:
    """A wake-up flag and the drain-then-wait loop around one stage's step."""

    def __init__(self) -> None:
        self._wake = asyncio.Event()

    def wake(self) -> None:
        """Tell :meth:`run` that there is work (call from the event loop's thread)."""
        self._wake.set()

    async def run(self, step: Callable[[], int | bool], poll_seconds: float, after: Callable[[], None] | None,
                  log: logging.Logger, failure: str) -> None:
        """Run ``step`` until it finds nothing, wait for a wake or ``poll_seconds``; forever."""
        while True:
            self._wake.clear()
            try:
                while await asyncio.to_thread(step):
                    if after is not None:
                        after()
            except Exception:  # noqa: BLE001 - the database may be briefly away; retry later
                log.exception(failure)
            await set_within(self._wake, poll_seconds)
