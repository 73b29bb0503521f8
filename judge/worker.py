"""The loop of a background stage: drain its work, then sleep until woken or polled.

Contract::

    loop = WakeLoop()
    loop.wake()                                   # from the event loop's thread: work arrived
    await loop.run(step, poll_seconds, after, log, "reading the inbox failed; retrying")

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
            try:
                await asyncio.wait_for(self._wake.wait(), poll_seconds)
            except TimeoutError:
                pass
