"""Issue 23, item 1 and design rule 1 over real SMTP: a mail is applied once, whole, to the
game it was written for, or not at all, and the sender is told which.

- ``CLEAR`` then ``PHASE`` and an order in one mail, for a phase that already had orders in
  advance, is applied whole and answered once (it failed with an IntegrityError, got no
  reply, and was read again a minute later against whatever the game then was).
- A handler that fails has all its work undone, the sender is told the mail was not acted
  on, and the row is quarantined at once: never read again.
- A mail that waits on a lock another connection holds on its game (PostgreSQL: a real row
  lock) is applied when the game is unchanged; when the lock's holder changed the game
  meanwhile, the mail is not applied and the reply asks the player to send it again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import test_e2e_harness as harness
from conftest import CaptureSMTP
from sqlalchemy import select, text
from sqlalchemy.orm import Session
from test_e2e_harness import LiveJudge, start_game

from judge.commands import handle_mail
from judge.config import Config
from judge.game.processing import process_game
from judge.mail.reader import IncomingMail, read_message
from judge.store import queues
from judge.store.base import make_engine, make_sessionmaker, utcnow
from judge.store.games import find_game, order_sets
from judge.store.held import FutureOrders
from judge.store.mail import InboxMessage

live = harness.live
GM = "gm@players.test"


def inbox_rows(url: str) -> list[tuple[str, int, str | None]]:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as s:
            return [(r.status, r.attempts, r.note) for r in s.scalars(select(InboxMessage).order_by(InboxMessage.id))]
    finally:
        engine.dispose()


def future_lines(url: str, game: str) -> dict[str, list[str]]:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as s:
            row = find_game(s, game)
            assert row is not None
            rows = s.scalars(select(FutureOrders).where(FutureOrders.game_id == row.id))
            return {r.phase: list(r.lines) for r in rows}
    finally:
        engine.dispose()


def test_clear_then_phase_for_a_phase_with_orders_is_applied_whole(live: LiveJudge) -> None:
    powers = start_game(live, "clr")
    france = powers["France"]
    reply = live.reply(france, "signon Fclr pw\nphase fall 1901 movement\nF bre - mao")
    assert "Kept for the Fall 1901 Movement (F1901M)" in reply.body
    reply = live.reply(france, "signon Fclr pw\nclear\nphase fall 1901 movement\nA par - bur")
    assert "Kept for the Fall 1901 Movement (F1901M)" in reply.body, reply.body
    assert "not acted on" not in reply.body
    assert future_lines(live.url, "clr") == {"F1901M": ["A par - bur"]}
    live.quiet()
    assert all(status == "done" for status, _, _ in inbox_rows(live.url)), inbox_rows(live.url)


# -- a handler that fails --------------------------------------------------------------------


class Failing:
    """The command layer's handler, then a failure after its work (a genuinely failing
    handler, given to the server through its ``handler`` seam): every mail whose text says
    ``boom``, and the first reading of a mail whose subject is ``fail once``, fail after
    the commands were applied."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
        first = mail.message_id not in self.calls
        self.calls.append(mail.message_id)
        handle_mail(session, config, mail, now)
        if "boom" in mail.text or (mail.subject == "fail once" and first):
            raise RuntimeError("the handler broke")


@pytest.fixture
def failing(database_url: str, tmp_path: Path) -> Iterator[tuple[LiveJudge, Failing]]:
    relay = CaptureSMTP().start()
    handler = Failing()
    judge = LiveJudge(database_url, relay, tmp_path, handler=handler, inbox_retry_seconds=0.05,
                      inbox_poll_seconds=0.05)
    try:
        yield judge, handler
    finally:
        judge.stop()
        relay.stop()


def test_a_failing_handler_is_answered_and_never_read_again(failing: tuple[LiveJudge, Failing]) -> None:
    live, handler = failing
    reply = live.reply(GM, "create ?doomed gmpw standard\nboom")
    assert "was not acted on" in reply.body, reply.body
    assert live.game_value("doomed", "name") is None
    live.reply(GM, "create ?fine gmpw standard")
    assert live.game_value("fine", "name") == "fine"
    live.quiet()
    (status, attempts, note), done = inbox_rows(live.url)
    assert (status, attempts) == ("quarantined", 1)
    assert "RuntimeError: the handler broke" in (note or "")
    assert done[0] == "done"
    assert len(handler.calls) == 2


def test_a_mail_read_again_after_its_game_changed_is_not_applied(failing: tuple[LiveJudge, Failing]) -> None:
    """The Oceania case of issue 23: a mail fails, the player's next mail changes the orders,
    and the first is read again (the operator's ``judge mail retry``): it must not put back
    what the player has since changed."""
    live, _ = failing
    powers = start_game(live, "oc")
    france = powers["France"]
    live.send(france, "signon Foc pw\nA par - bur", subject="fail once")
    told = live.collect(1)[0]
    assert "none of your mail was acted on" in told.body.replace("\n", " "), told.body
    live.reply(france, "signon Foc pw\nA par h")
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s, s.begin():
            row = s.scalars(select(InboxMessage).where(InboxMessage.status == "quarantined")).one()
            assert queues.retry(s, "inbox", row.id)
    finally:
        engine.dispose()
    again = live.collect(1)[0]
    assert "send it again" in again.body.replace("\n", " "), again.body
    assert _orders(live, "oc", "France") == ["A par h"]
    live.quiet()


# -- a mail that waits on a lock -------------------------------------------------------------


def _postgres(url: str) -> None:
    if not url.startswith("postgresql"):
        pytest.skip("SQLite has one writer: a mail waiting for the lock could not have been stored either")


def _wait_for_lock_waiter(url: str) -> None:
    """Wait (with a deadline) until a connection waits for a lock: the inbox at the game's row."""
    engine = make_engine(url)
    deadline = time.monotonic() + 15
    try:
        while True:
            with engine.connect() as c:
                if c.scalar(text("SELECT count(*) FROM pg_locks WHERE NOT granted")):
                    return
            assert time.monotonic() < deadline, "the inbox never waited for the game's lock"
            threading.Event().wait(0.02)
    finally:
        engine.dispose()


def _reply_to(live: LiveJudge, message_id: str) -> harness.Mail:
    live.settle()
    replies = [harness.Mail.of(c) for c in live.relay.messages if c.message.get("In-Reply-To") == message_id]
    assert len(replies) == 1, [r.subject for r in replies]
    return replies[0]


def _orders(live: LiveJudge, game: str, power: str) -> list[str]:
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            row = find_game(s, game)
            assert row is not None and row.phase is not None
            stored = order_sets(s, row, row.phase).get(power)
    finally:
        engine.dispose()
    return [e["line"] for e in stored.entries] if stored is not None else []


def test_a_mail_held_by_a_lock_is_applied_while_the_game_is_unchanged(live: LiveJudge) -> None:
    _postgres(live.url)
    powers = start_game(live, "lck")
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as holder, holder.begin():
            assert find_game(holder, "lck", lock=True) is not None
            mid = live.send(powers["France"], "signon Flck pw\nA par - bur")
            _wait_for_lock_waiter(live.url)
    finally:
        engine.dispose()
    reply = _reply_to(live, mid)
    assert "send it again" not in reply.body
    assert _orders(live, "lck", "France") == ["A par - bur"]


def test_a_mail_held_by_a_lock_is_not_applied_when_the_game_changed(live: LiveJudge) -> None:
    _postgres(live.url)
    powers = start_game(live, "chg")
    france = powers["France"]
    engine = make_engine(live.url)
    try:
        factory = make_sessionmaker(engine, mail_domain=live.config.domain)
        with factory() as holder, holder.begin():
            assert find_game(holder, "chg", lock=True) is not None
            first = live.send(france, "signon Fchg pw\nA par - bur")
            _wait_for_lock_waiter(live.url)
            # Meanwhile France's next mail is applied (by this connection, which holds the lock).
            raw = (f"From: {france}\r\nTo: {harness.JUDGE}\r\nSubject: again\r\n"
                   f"Message-ID: <later@players.test>\r\n\r\nsignon Fchg pw\r\nA par h\r\n").encode()
            later = replace(read_message(raw), received_at=utcnow())
            handle_mail(holder, live.config, later, utcnow())
    finally:
        engine.dispose()
    reply = _reply_to(live, first)
    assert "send it again" in reply.body, reply.body
    assert _orders(live, "chg", "France") == ["A par h"]
    assert inbox_rows(live.url)[-1][0] == "done"


def test_a_mail_held_by_a_lock_is_not_applied_after_the_phase_turned(live: LiveJudge) -> None:
    """The Standard case of issue 23: the phase turned (the scheduler's own processing, by
    the connection holding the lock) after Turkey's mail arrived and before it was read."""
    _postgres(live.url)
    powers = start_game(live, "turn")
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine, mail_domain=live.config.domain)() as holder, holder.begin():
            game = find_game(holder, "turn", lock=True)
            assert game is not None and game.grace_end is not None
            mid = live.send(powers["Turkey"], "signon Tturn pw\nA con - bul")
            _wait_for_lock_waiter(live.url)
            assert process_game(holder, live.config, "turn", game.grace_end + timedelta(minutes=1))
    finally:
        engine.dispose()
    reply = _reply_to(live, mid)
    assert "send it again" in reply.body.replace("\n", " "), reply.body
    assert "it is now Fall 1901" in reply.body.replace("\n", " "), reply.body
    assert live.phase("turn") == "F1901M"
    assert _orders(live, "turn", "Turkey") == []
