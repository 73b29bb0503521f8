"""What the scheduler reads after an inbox batch: the deadlines of the games the batch wrote,
not every game's (that read grew with the number of games and ran several times a second
while mail came in). Over real SMTP, with the periodic sync of every deadline out of the
way (600 s), so only the reads after mail can schedule anything."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from conftest import CaptureSMTP
from sqlalchemy import event
from test_e2e_harness import LiveJudge, start_game

GM = "gm@players.test"
DEADLINE_READ = "SELECT game.name, game.deadline, game.grace"  # judge.store.games.games_with_deadlines


def _soon(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S UTC")


def idle(live: LiveJudge, timeout: float = 10) -> None:
    """Wait until the scheduler neither reads deadlines nor pauses between reads: syncs asked
    for are taken together, so one may still be due after the mail that asked is answered."""
    scheduler = live.server.games.scheduler  # type: ignore[union-attr]
    deadline = time.monotonic() + timeout
    while scheduler._sync_lock.locked():  # noqa: SLF001 - the state this test waits on
        assert time.monotonic() < deadline, "the scheduler never finished its sync"
        time.sleep(0.01)


def test_an_inbox_batch_reads_again_only_the_deadlines_of_the_games_it_wrote(database_url: str,
                                                                            tmp_path: Path) -> None:
    relay = CaptureSMTP().start()
    live = LiveJudge(database_url, relay, tmp_path, scheduler_sync_seconds=600, game_process=False)
    reads: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        if statement.startswith(DEADLINE_READ):
            reads.append(str(parameters))

    try:
        powers = start_game(live, "sync")
        start_game(live, "other", players=[f"o{n}@players.test" for n in range(7)])
        live.settle()
        idle(live)  # the sign-ons' syncs are read (they may wait a quarter second for more)
        event.listen(live.server.engine, "before_cursor_execute", seen)

        live.reply("someone@players.test", "help")
        live.settle()
        idle(live)
        assert reads == [], "a mail that wrote no game read deadlines"

        live.mail(GM, f"signon Msync gmpw\nset deadline {_soon(2)}\nset grace 0.0005", expect=1 + 8)
        late = live.collect(8, timeout=20)  # the new deadline was scheduled from that read alone
        assert all("Late Notice" in m.subject for m in late), [m.subject for m in late]
        assert reads and all("'sync'" in r and "'other'" not in r for r in reads), reads
        results = live.collect(8, timeout=20)
        assert all(m.subject == "E2E:sync - S1901M Results" for m in results)
        assert live.phase("sync") == "F1901M" and live.phase("other") == "S1901M"
        assert all("'other'" not in r for r in reads), reads
        assert len(powers) == 7
    finally:
        live.stop()
        relay.stop()
