"""The seeded long-game soak (issue 23, "Done when"): whole games by mail, checked after
every mail. The driver and the list of what is checked: ``soak_driver.py``.

Each seed plays one game (the seed picks the map: Standard, Colonial, Oceania in turn;
gunboat on odd seeds; the press, the options and every mail at random) against the real judge
over real SMTP, with SQLite and, where 127.0.0.1:5432 answers, PostgreSQL, and the web
archive under uvicorn. The judge's rate limits are raised: the soak plays a game in seconds,
a thousand times faster than people do (the limits have tests of their own).

CI runs seeds 0-2 (one game per map, two years each; PostgreSQL with the first seed only).
By hand, more and longer::

    JUDGE_SOAK_SEEDS=1-200 JUDGE_SOAK_YEARS=4 .venv/bin/python -m pytest -n 2 tests/test_soak.py

``JUDGE_SOAK_SEEDS`` names seeds (``1-200``, ``3,7,9``); with it set every seed runs on both
databases. ``JUDGE_SOAK_YEARS`` is the number of game years before the master terminates
(default 2). A failing seed is replayed by naming it alone (``JUDGE_SOAK_SEEDS=7``, and
``-k sqlite`` for one database); ``JUDGE_SOAK_TRACE=/tmp/soak.txt`` writes every mail sent
and received (and, at the end, the archive's pages) to that file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from soak_driver import Soak, seeds_from
from test_e2e_harness import LiveJudge, running_judge
from test_web import ArchiveServer

CI_SEEDS = "0-2"
SEEDS = seeds_from(os.environ.get("JUDGE_SOAK_SEEDS", CI_SEEDS))
YEARS = int(os.environ.get("JUDGE_SOAK_YEARS", "2"))
#: No limit on mails, and the judge's defaults: pictures on (the players turn them off at random),
#: the game work in a process of its own on PostgreSQL.
UNLIMITED = {"sender_mails_per_minute": 100_000, "game_mails_per_minute": 100_000, "pictures": True,
             "game_process": None}


@pytest.fixture
def soak_judge(request: pytest.FixtureRequest, database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    seed = request.node.callspec.params["seed"]
    if "JUDGE_SOAK_SEEDS" not in os.environ and database_url.startswith("postgresql") and seed != SEEDS[0]:
        pytest.skip("CI plays PostgreSQL with the first seed only (JUDGE_SOAK_SEEDS plays every seed on both)")
    yield from running_judge(database_url, tmp_path, **UNLIMITED)


@pytest.fixture
def archive(soak_judge: LiveJudge) -> Iterator[ArchiveServer]:
    server = ArchiveServer(soak_judge.config)
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("seed", SEEDS)
def test_soak(seed: int, soak_judge: LiveJudge, archive: ArchiveServer) -> None:
    soak = Soak(soak_judge, archive, seed, cap_years=YEARS)
    soak.play()
    assert not soak.problems, f"seed {seed}: {len(soak.sent)} mails; the soak found:\n{soak.report()}"
