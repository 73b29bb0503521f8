"""A judge without SMTP for the game tests: mails go straight to handle_mail on a real
SQLite file, and the outbox rows each one queued come back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import Message
from itertools import count
from pathlib import Path

from conftest import migrate
from sqlalchemy import select

from judge.commands import handle_mail
from judge.config import Config
from judge.game.processing import process_game
from judge.mail.reader import IncomingMail
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import Game, find_game
from judge.store.mail import OutboxMessage
from judge.store.passwords import check_password

STANDARD_LETTERS = "AEFGIRT"
STANDARD_POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
#: Phases are processed as soon as every order is in (njudge waits half an hour, and at least
#: 12 hours after the previous phase for movement). The tests' games are NMR (a phase is
#: processed when grace ends) and send no reminders, unless a test sends SET NONMR or SET
#: REMINDER, or gives its own config.
NO_DELAY = {"M": "delay 0 min 0", "R": "delay 0 min 0", "B": "delay 0 min 0"}


class Judge:
    """Sends mail to the game layer and reads what it queued."""

    def __init__(self, url: str, now: datetime | None = None, config: Config | None = None) -> None:
        migrate(url)
        self.engine = make_engine(url)
        self.factory = make_sessionmaker(self.engine)
        self.config = config or Config(code="TEST", address="judge@example.org", data_dir=Path("."),
                                       clocks=NO_DELAY, nmr=True, reminder_hours=0,
                                       secret="a judge secret for the tests")
        self.now = now or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
        self._ids = count(1)

    def mail(self, sender: str, text: str) -> list[OutboxMessage]:
        """Handle one mail; the rows it queued (the reply first among those to ``sender``)."""
        mid = f"<m{next(self._ids)}@test>"
        incoming = IncomingMail(mid, sender, "", "orders", text, Message(), text.encode())
        with self.factory() as s, s.begin():
            last = s.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id.desc()).limit(1)) or 0
            handle_mail(s, self.config, incoming, self.now)
        return self.since(last)

    def reply(self, sender: str, text: str) -> OutboxMessage:
        replies = [r for r in self.mail(sender, text) if r.kind == "reply"]
        assert len(replies) == 1, replies
        return replies[0]

    def since(self, last: int) -> list[OutboxMessage]:
        with self.factory() as s:
            return list(s.scalars(select(OutboxMessage).where(OutboxMessage.id > last).order_by(OutboxMessage.id)))

    def game(self, name: str) -> Game:
        with self.factory() as s:
            game = find_game(s, name)
            assert game is not None
            _ = list(game.players)
            return game

    def due(self, name: str) -> datetime | None:
        """The next moment the deadline job must look at ``name`` (None: never)."""
        with self.factory() as s:
            game = find_game(s, name)
            return game.due_at if game is not None else None

    def step(self, name: str) -> list[OutboxMessage]:
        """Let the clock run to the game's next due moment and run the deadline job; the
        rows it queued."""
        due = self.due(name)
        assert due is not None, f"nothing is due in {name}"
        self.now = max(self.now, due)
        last = self.last_row()
        with self.factory() as s, s.begin():
            process_game(s, self.config, name, self.now)
        return self.since(last)

    def last_row(self) -> int:
        with self.factory() as s:
            return s.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id.desc()).limit(1)) or 0

    def tick(self, name: str, hours: float = 1000) -> bool:
        """Let ``hours`` pass and run the deadline job for ``name``."""
        self.now += timedelta(hours=hours)
        with self.factory() as s, s.begin():
            return process_game(s, self.config, name, self.now)


def start_standard(judge: Judge, name: str = "dt") -> dict[str, str]:
    """Create a Standard game, sign on seven players with preferences A..T; power -> address."""
    judge.mail("gm@example.org", f"create ?{name} gmpw standard")
    for i, letter in enumerate(STANDARD_LETTERS):
        judge.mail(f"p{i}@example.org", f"signon ?{name} pw{i}\nset preference {letter}")
    game = judge.game(name)
    return {p.power: p.email for p in game.players if p.power}


def as_power(judge: Judge, power: str, text: str, name: str = "dt") -> list[OutboxMessage]:
    """A mail from ``power``'s player in a game of :func:`start_standard`: its sign-on, then ``text``."""
    i = STANDARD_POWERS.index(power)
    return judge.mail(f"p{i}@example.org", f"signon {STANDARD_LETTERS[i]}{name} {password_of(judge, name, power)}\n{text}")


def password_of(judge: Judge, name: str, power: str) -> str:
    """The password ``power`` signed on with (``pw0``..``pw6`` in start_standard), checked
    against the stored hash. The one ``pN@example.org`` signed on with, ``pwN``, is tried
    first: every wrong guess costs a whole scrypt (a right one is remembered, so the judge's
    own check of the sign-on that follows costs nothing)."""
    game = judge.game(name)
    player = next(p for p in game.players if p.power == power)
    candidates = [f"pw{i}" for i in range(7)] + ["pw"]
    own = f"pw{player.email.removeprefix('p').partition('@')[0]}"
    if own in candidates:
        candidates.insert(0, candidates.pop(candidates.index(own)))
    return next(pw for pw in candidates if check_password(pw, player.password_hash))


#: A hold for every unit of every power in Spring 1901 (Standard).
HOLDS = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "France": "A par h\nA mar h\nF bre h", "Germany": "A mun h\nA ber h\nF kie h",
    "Italy": "A ven h\nA rom h\nF nap h", "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h",
    "Turkey": "F ank h\nA con h\nA smy h",
}


def signon_of(judge: Judge, power: str, name: str = "dt") -> tuple[str, str]:
    """(address, sign-on line) of ``power``'s player in a game of :func:`start_standard`."""
    address = f"p{STANDARD_LETTERS.index(power[0])}@example.org"
    return address, f"signon {power[0]}{name} {password_of(judge, name, power)}\n"
