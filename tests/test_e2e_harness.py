"""The real judge server for the end-to-end tests: started in-process on a free port, its
relay a CaptureSMTP, players talking to it with smtplib over loopback.

``LiveJudge.mail(sender, text, expect=n)`` sends one mail and waits until the relay holds
``n`` more messages; it returns them. The reply is the one whose In-Reply-To is the mail's
Message-ID.
"""

from __future__ import annotations

import asyncio
import re
import smtplib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
from conftest import Captured, CaptureSMTP, free_port, migrate
from sqlalchemy import func, select

from judge import clock
from judge.config import Config
from judge.mail.inbox import MailHandler
from judge.server import JudgeServer
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import find_game
from judge.store.mail import InboxMessage, OutboxMessage
from judge.store.passwords import check_password

JUDGE = "judge@judge.test"


def later(**delta: float) -> str:
    """A moment ``delta`` (``timedelta``'s keywords) after the judge's clock, as SET DEADLINE
    takes it. A test moves the clock (``judge.clock.advance``) to reach it: nothing waits for
    a deadline on the wall clock."""
    return (clock.now() + timedelta(**delta)).strftime("%Y-%m-%d %H:%M:%S UTC")
#: Phases are processed as soon as every order is in (njudge waits half an hour, and at least
#: 12 hours after the previous phase for movement). The tests' games are NMR (a phase is
#: processed when grace ends) unless a test sends SET NONMR, and send no reminders unless a
#: test sends SET REMINDER: most tests want that.
NO_DELAY = {"M": "delay 0 min 0", "R": "delay 0 min 0", "B": "delay 0 min 0"}


@dataclass
class Mail:
    """A mail the judge sent, as the relay got it."""

    to: str
    subject: str
    body: str
    in_reply_to: str
    reply_to: str = ""

    @classmethod
    def of(cls, captured: Captured) -> Mail:
        msg = captured.message
        body = msg.get_body(preferencelist=("plain",))
        text = body.get_content() if body is not None else ""
        text = text.replace("\r\n", "\n")
        return cls(",".join(captured.rcpt_tos), str(msg["Subject"]), text, str(msg.get("In-Reply-To", "")),
                   str(msg.get("Reply-To", "")))


class LiveJudge:
    """A running JudgeServer in a thread of its own."""

    def __init__(self, url: str, relay: CaptureSMTP, tmp_path: Path, *, handler: MailHandler | None = None,
                 **settings: object) -> None:
        migrate(url)
        self.url = url
        self.relay = relay
        self.config = Config(
            code="E2E", address=JUDGE, keeper="keeper@judge.test", data_dir=tmp_path, database_url=url,
            smtp_host="127.0.0.1", smtp_port=free_port(), relay_host="127.0.0.1", relay_port=relay.port,
            sender_poll_seconds=0.2, sender_retry_base_seconds=0.5, inbox_poll_seconds=0.5,
            scheduler_sync_seconds=0.5, clocks=NO_DELAY, nmr=True, reminder_hours=0,
            # No pictures unless a test asks (``pictures=True``): drawing them, and carrying and
            # parsing 100 KB attachments, was a sixth of the e2e tests' CPU, and only the tests
            # of pictures, their ordering and the soak look at them. Those that ask have them
            # made in the judge's process, whose kept boards every test of the worker shares
            # (picture processes would draw each map's board again for every test);
            # tests/test_e2e_pictures.py runs the picture processes.
            picture_processes=0, pictures=False,
            # The game work in the judge's process on PostgreSQL too (a process of its own is
            # the judge's default there): a game process starts cold (templates compiled, maps
            # read, statements cached anew), a quarter of a PostgreSQL test's CPU. The soak,
            # tests/test_e2e_once.py and tests/test_game_process.py run the judge's default.
            game_process=False,
        )
        if settings:
            self.config = replace(self.config, **settings)
        self.server = JudgeServer(self.config) if handler is None else JudgeServer(self.config, handler=handler)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self._loop).result(10)
        self._seen = 0
        self._mails: dict[int, Mail] = {}

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def send(self, sender: str, text: str, *, subject: str = "orders", headers: dict[str, str] | None = None,
             envelope: str | None = None, to: str = JUDGE) -> str:
        """Send one mail to the judge (at ``to``: its address, or a tagged one); its Message-ID."""
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Message-ID"] = mid = make_msgid(domain="players.test")
        for key, value in (headers or {}).items():
            msg[key] = value
        msg.set_content(text)
        with smtplib.SMTP("127.0.0.1", self.config.smtp_port, timeout=10) as smtp:
            smtp.send_message(msg, from_addr=sender if envelope is None else envelope, to_addrs=[to])
        return mid

    def mail(self, sender: str, text: str, *, expect: int = 1, timeout: float = 15.0) -> list[Mail]:
        """Send a mail and return the ``expect`` mails the judge sends because of it."""
        self.send(sender, text)
        return self.collect(expect, timeout)

    def collect(self, expect: int, timeout: float = 15.0) -> list[Mail]:
        self.relay.wait_for(self._seen + expect, timeout)
        new = [self._mail(i) for i in range(self._seen, self._seen + expect)]
        self._seen += expect
        return new

    def settle(self, timeout: float = 15.0) -> None:
        """Wait (up to ``timeout``) until the judge has read every mail it was given and sent
        every mail it queued: the inbox has nothing new or due again, the outbox nothing pending."""
        deadline = time.monotonic() + timeout
        engine = make_engine(self.url)
        try:
            while True:
                with make_sessionmaker(engine)() as s:
                    unread = s.scalar(select(func.count()).select_from(InboxMessage)
                                      .where(InboxMessage.status.in_(("new", "failed"))))
                    unsent = s.scalar(select(func.count()).select_from(OutboxMessage)
                                      .where(OutboxMessage.status == "pending"))
                if not unread and not unsent:
                    return
                if time.monotonic() > deadline:
                    raise AssertionError(f"the judge did not settle: {unread} mails unread, {unsent} unsent")
                self.relay.wait_for(len(self.relay.messages) + 1, timeout=0.05, strict=False)
        finally:
            engine.dispose()

    def quiet(self) -> None:
        """Assert that once the judge has settled it has sent nothing more than was collected."""
        self.settle()
        assert len(self.relay.messages) == self._seen, [Mail.of(c).subject for c in self.relay.messages[self._seen:]]

    def reply(self, sender: str, text: str, *, expect: int = 1) -> Mail:
        """Send a mail; the one reply to it (among ``expect`` mails)."""
        mails = self.mail(sender, text, expect=expect)
        replies = [m for m in mails if m.subject.startswith("Re:") and m.to == sender]
        assert len(replies) == 1, [(m.to, m.subject) for m in mails]
        return replies[0]

    def answers(self, message_id: str) -> list[Mail]:
        """Every mail the relay holds that answers the mail ``message_id`` (after :meth:`settle`)."""
        return [m for m in map(self._mail, range(len(self.relay.messages))) if m.in_reply_to == message_id]

    def _mail(self, index: int) -> Mail:
        """The relay's mail at ``index``, read once: the relay only ever appends."""
        mail = self._mails.get(index)
        if mail is None:
            mail = self._mails[index] = Mail.of(self.relay.messages[index])
        return mail

    def confirm(self, address: str, asked: Mail, *, expect: int = 1) -> list[Mail]:
        """Confirm the request ``asked`` (the judge's confirmation mail) from ``address`` the
        way a person does: a mail with the line ``CONFIRM <token>`` it names; the ``expect``
        mails that causes (the reply first among them, and any notice of the change)."""
        token = re.search(r"^\s*CONFIRM (\S+)\s*$", asked.body, re.MULTILINE)
        assert token is not None, asked.body
        return self.mail(address, f"confirm {token.group(1)}", expect=expect)

    def observe(self, address: str, game: str, password: str) -> Mail:
        """``address`` observes ``game``: the OBSERVE mail, its confirmation, confirmed; the
        reply to the confirmation (it says the address is observing)."""
        asked = self.reply(address, f"observe {game} {password}")
        return self.confirm(address, asked)[0]

    def password(self, game: str, power: str, candidates: tuple[str, ...] = ("pw",)) -> str:
        """The password ``power`` signed on with: the one of ``candidates`` its stored hash matches."""
        engine = make_engine(self.url)
        try:
            with make_sessionmaker(engine)() as s:
                row = find_game(s, game)
                assert row is not None
                stored = next(p.password_hash for p in row.players if p.power == power)
        finally:
            engine.dispose()
        return next(pw for pw in candidates if check_password(pw, stored))

    def phase(self, game: str) -> str | None:
        return self.game_value(game, "phase")

    def game_value(self, game: str, column: str) -> Any:
        """A column of the game's row as stored now (None if there is no such game)."""
        engine = make_engine(self.url)
        try:
            with make_sessionmaker(engine)() as s:
                row = find_game(s, game)
                return getattr(row, column) if row else None
        finally:
            engine.dispose()


def running_judge(database_url: str, tmp_path: Path, **settings: object) -> Iterator[LiveJudge]:
    """A LiveJudge (with ``settings`` over the tests' config) and its relay, for a fixture
    to yield from; both stopped afterwards."""
    relay = CaptureSMTP().start()
    judge = LiveJudge(database_url, relay, tmp_path, **settings)
    try:
        yield judge
    finally:
        judge.stop()
        relay.stop()


@pytest.fixture
def live(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    yield from running_judge(database_url, tmp_path)


def bodies_to(mails: list[Mail], address: str) -> list[Mail]:
    return [m for m in mails if m.to == address]


def start_game(live: LiveJudge, name: str, variant: str = "standard", *, players: list[str] | None = None,
               master: str = "gm@players.test", existing: bool = False) -> dict[str, str]:
    """Create game ``name`` (unless ``existing``: its master created it) and sign on one
    player per power (preferences in map order); power -> address. The start mails are
    collected."""
    from judge.maps import load_map

    m = load_map(variant)
    if not existing:
        live.reply(master, f"create ?{name} gmpw {variant}")
    powers = [p.name for p in m.powers]
    addresses = players or [f"{p.lower()}@players.test" for p in powers]
    for i, (power, address) in enumerate(zip(powers, addresses, strict=True)):
        last = i == len(powers) - 1
        live.mail(address, f"signon ?{name} pw\nset preference {m.power(power).letter}",
                  expect=1 + (len(powers) + 1 if last else 0))
    return dict(zip(powers, addresses, strict=True))


def not_replies(mails: list[Mail]) -> list[Mail]:
    """The mails that are no reply to an incoming mail (press, notices, results)."""
    return [m for m in mails if not m.subject.startswith("Re:")]


def reply_among(mails: list[Mail], sender: str) -> Mail:
    """The one reply to ``sender`` among ``mails``."""
    replies = [m for m in mails if m.subject.startswith("Re:") and m.to == sender]
    assert len(replies) == 1, [(m.to, m.subject) for m in mails]
    return replies[0]
