"""Due games as a queue (issue 24 item 1): ``game.due_at`` always equals what the game's
settings say (:func:`judge.game.due.due_at`) after every mail and every run of the deadline
job, the sweep puts a wrong one right, and a game one judge process has claimed is skipped by
another's claim (PostgreSQL's ``FOR UPDATE SKIP LOCKED``)."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update
from test_game_grace import SPRING
from test_game_helpers import Judge, password_of, start_standard

from judge.config import Config
from judge.game import due
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import Game
from judge.store.mail import OutboxMessage

GM = "gm@example.org"


class CheckedJudge(Judge):
    """A :class:`Judge` that checks every game's ``due_at`` after each mail and each run."""

    checks = 0

    def consistent(self) -> None:
        with self.factory() as s:
            games = list(s.scalars(select(Game)))
            wrong = {g.name: (g.due_at, due.due_at(g)) for g in games if g.due_at != due.due_at(g)}
        assert wrong == {}, wrong
        self.checks += 1

    def mail(self, sender: str, text: str) -> list[OutboxMessage]:
        rows = super().mail(sender, text)
        self.consistent()
        return rows

    def step(self, name: str) -> list[OutboxMessage]:
        rows = super().step(name)
        self.consistent()
        return rows

    def tick(self, name: str, hours: float = 1000) -> bool:
        changed = super().tick(name, hours)
        self.consistent()
        return changed


def _order(judge: Judge, power: str, text: str | None = None) -> None:
    address = f"p{'AEFGIRT'.index(power[0])}@example.org"
    judge.reply(address, f"signon {power[0]}dt {password_of(judge, 'dt', power)}\n"
                         f"{SPRING[power] if text is None else text}")


def _master(judge: Judge, text: str) -> None:
    reply = judge.reply(GM, f"signon Mdt gmpw\n{text}")
    assert "[Error Flag]" not in reply.subject, reply.body


def test_due_at_always_equals_what_the_settings_say(tmp_path: Path) -> None:
    judge = CheckedJudge(f"sqlite:///{tmp_path / 'judge.db'}",
                         config=Config(code="TEST", address="judge@example.org", data_dir=tmp_path,
                                       clocks={"M": "delay 0.5 min 0", "R": "delay 0 min 0", "B": "delay 0 min 0"},
                                       reminder_hours=0))
    start_standard(judge)
    assert judge.due("dt") is not None
    _master(judge, "set reminder 8")
    reminder = judge.due("dt")
    deadline = judge.game("dt").deadline
    assert deadline is not None and reminder == deadline - timedelta(hours=8)
    for power in list(SPRING)[:-1]:
        _order(judge, power)
    judge.step("dt")  # the reminder to Turkey
    assert judge.due("dt") == deadline
    _order(judge, "Turkey")  # all in: processed after the half-hour delay
    assert judge.due("dt") == judge.now + timedelta(hours=0.5)
    _order(judge, "Turkey", "F ank - xyz")  # an error: no longer submitted, the delay is off
    assert judge.due("dt") == deadline
    _master(judge, "set nonmr\nset grace 24")
    judge.step("dt")  # the late notice at the deadline
    judge.step("dt")  # the end of grace: Turkey abandoned, the game waits
    assert judge.game("dt").phase == "S1901M"
    _master(judge, "pause")
    assert judge.due("dt") is None, "a paused game is never due"
    _master(judge, "resume")
    assert judge.due("dt") is not None
    _master(judge, f"set deadline {(judge.now + timedelta(days=3)):%Y-%m-%d %H:%M} UTC")
    _master(judge, "process")
    assert judge.game("dt").phase == "F1901M"
    assert judge.checks > 15


def test_the_sweep_puts_a_wrong_due_at_right(tmp_path: Path) -> None:
    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(judge)
    right = judge.due("dt")
    assert right is not None
    with judge.factory() as s, s.begin():  # a write that went round the ORM
        s.execute(update(Game).values(due_at=right + timedelta(days=9)))
    with judge.factory() as s, s.begin():
        assert due.sweep(s) == 1
    assert judge.due("dt") == right
    with judge.factory() as s, s.begin():
        assert due.sweep(s) == 0


def test_a_claimed_game_is_skipped_by_another_judges_claim(database_url: str, tmp_path: Path) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer: a second claim waits for the first to commit")
    judge = Judge(database_url)
    start_standard(judge)
    _master(judge, "set grace 0")
    deadline = judge.game("dt").deadline
    assert deadline is not None
    now = deadline + timedelta(minutes=1)
    engine = make_engine(database_url)
    factory = make_sessionmaker(engine)
    claimed = threading.Event()
    release = threading.Event()
    first: list[str | None] = []

    def one_node() -> None:
        with factory() as s, s.begin():
            first.append(due.claim_due(s, judge.config, now))
            claimed.set()
            release.wait(10)

    node = threading.Thread(target=one_node)
    node.start()
    try:
        assert claimed.wait(10)
        with factory() as s, s.begin():
            assert due.claim_due(s, judge.config, now) is None, "the other node's game was claimed again"
    finally:
        release.set()
        node.join(10)
        engine.dispose()
    assert first == ["dt"]
    assert judge.game("dt").phase == "F1901M"
