"""The wake-or-poll loop of the server's background stages: a stop (a cancellation) ends it
whenever it comes, even in the very moment the loop is woken."""

from __future__ import annotations

import asyncio
import logging

from judge.worker import WakeLoop, set_within

log = logging.getLogger(__name__)


def test_a_loop_cancelled_as_it_is_woken_ends() -> None:
    """``asyncio.wait_for`` on Python 3.11 returns, not raises, when the event it waits for is
    set in the same moment as the cancel (gh-86296): the loop then went on polling for ever
    and the server's stop, which waits for it, never ended (a test run hung so)."""
    steps: list[int] = []

    async def main() -> bool:
        loop = WakeLoop()
        task = asyncio.get_running_loop().create_task(loop.run(lambda: steps.append(1) or 0, 60, None, log, "x"))
        while not steps:  # the first step ran; the loop now waits for a wake-up
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        loop.wake()
        task.cancel()
        done, _ = await asyncio.wait([task], timeout=5)
        return task in done and task.cancelled()

    assert asyncio.run(main()), "the cancelled loop is still running"


def test_set_within_says_whether_the_event_came() -> None:
    async def main() -> tuple[bool, bool]:
        event = asyncio.Event()
        missed = await set_within(event, 0.01)
        asyncio.get_running_loop().call_later(0.01, event.set)
        return missed, await set_within(event, 5)

    assert asyncio.run(main()) == (False, True)
