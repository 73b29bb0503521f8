"""Mails read in one batch are answered as if each had had a transaction of its own: the game
views a batch keeps for its next mails (judge.game.view) change no reply and no stored row, and
a mail starts with nothing else in the session (judge.store.kept)."""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import judge.mail.inbox as inbox
from judge.commands import handle_mail
from judge.config import Config
from judge.game.tokens import reply_address
from judge.mail.inbox import Arrival, InboxProcessor, store_many
from judge.mail.reader import IncomingMail
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import Absence, Game, OrderSet, Player, find_game
from judge.store.held import FutureOrders
from judge.store.kept import AS_OF, GAME_VIEWS
from judge.store.mail import OutboxMessage
from judge.store.migrate import upgrade
from judge.store.ratelimit import RateLimit

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
CONFIG = Config(code="TEST", address="judge@example.org", data_dir=Path("."), nmr=True, reminder_hours=0,
                clocks={"M": "delay 0 min 0", "R": "delay 0 min 0", "B": "delay 0 min 0"},
                secret="a judge secret for the tests", sender_mails_per_minute=1000, game_mails_per_minute=1000)
LETTERS = "AEFGIRT"
OPENINGS = ["A vie - gal\nA bud - ser\nF tri - alb", "F lon - nth\nF edi - nwg\nA lvp - yor",
            "A par - bur\nF bre - mao\nA mar s A par - bur", "A ber - kie\nA mun - ruh\nF kie - den",
            "A ven - tyr\nA rom - apu\nF nap - ion", "A mos - ukr\nA war - gal\nF sev - bla\nF stp/sc - bot",
            "A con - bul\nA smy - con\nF ank - bla"]


def player(n: int) -> str:
    return f"p{n}@example.org"


def signon(n: int, game: str = "ga") -> str:
    return f"signon {LETTERS[n]}{game} pw{n}"


#: (sender, text): a game formed, with a second one and what reads a game without its lock.
FORMING: list[tuple[str, str]] = [
    ("gm@example.org", "create ?ga gmpw standard"),
    *[(player(n), f"signon ?ga pw{n}\nset preference {LETTERS[n]}") for n in range(7)],
    ("gm@example.org", "create ?gb gmpw standard"),
    (player(5), "list gb"),
    (player(2), "signon Fga wrong\nA par - bur"),
    (player(3), "list ga"),
    (player(0), "signon ?gb pw0"),
    (player(4), "whois p1@example.org"),
]
#: The first phase ordered and processed and the next one begun, with what a kept view must
#: not carry from one mail to the next: a mail's errors, a rolled-back mail's orders
#: (``FAILS``), a reply-to-play mail's change to a player (``BY_REPLY``), absences added out
#: of order.
PLAYING: list[tuple[str, str]] = [
    (player(0), f"{signon(0)}\nA vie - gal\nA bud - lon\nF tri - alb"),
    (player(0), f"{signon(0)}\n{OPENINGS[0]}"),
    (player(1), f"{signon(1)}\n{OPENINGS[1]}"),
    (player(1), f"{signon(1)}\nF lon - wal"),
    (player(1), f"{signon(1)}\nA lvp - edi"),
    (player(1), "BY_REPLY"),
    *[(player(n), f"{signon(n)}\n{OPENINGS[n]}") for n in range(2, 7)],
    (player(1), f"{signon(1)}\n{OPENINGS[1]}\nset absence 20 Jan\nset absence 10 Jan"),
    ("gm@example.org", "signon Mga gmpw"),
    (player(3), f"{signon(3)}\nphase fall 1901 movement\nA kie - hol"),
    (player(1), f"{signon(1)}\nset nowait"),
    (player(1), f"{signon(1)}\nF nth - nwy"),
    (player(3), f"{signon(3)}\nA ruh - bel"),
]
FAILS = 3  # PLAYING's mail whose handler fails after its work (rolled back)


def raw(mid: str, sender: str, text: str, to: str = "judge@example.org") -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: {mid}\r\n\r\n{text}\r\n").encode()


#: What a mail found in the session as it started, besides the rows of the views kept for it.
LEFT_OVER: list[str] = []


def failing(session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
    """The command layer's handler, failing for PLAYING's mail ``FAILS`` once it has done its
    work; what the session held besides the kept views' rows as the mail started goes in
    ``LEFT_OVER``."""
    LEFT_OVER.extend(not_kept(session))
    handle_mail(session, config, mail, now)
    if mail.message_id == f"<p{FAILS}@example.org>":
        raise RuntimeError("a handler that fails")


def not_kept(session: Session) -> list[str]:
    """The rows in ``session`` that belong to no view it keeps, and a mail's arrival left set."""
    views = session.info.get(GAME_VIEWS, {}).values()
    games = {view.game.id for view in views}
    players = {p.id for view in views for p in view.game.players}
    out = [repr(obj) for obj in session.identity_map.values()
           if not (isinstance(obj, Game) and obj.id in games or isinstance(obj, (Player, FutureOrders))
                   and obj.game_id in games or isinstance(obj, Absence) and obj.player_id in players)]
    return out + (["AS_OF"] if AS_OF in session.info else [])


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inbox, "utcnow", lambda: NOW)
    monkeypatch.setattr(inbox, "BATCH_SECONDS", 3600.0)


def run(url: str, batch: int) -> list[str]:
    """FORMING then PLAYING read ``batch`` mails to a transaction; every outbox row and stored
    row. The garbage collector is off, so rows a mail let go of stay alive (a game and its
    players refer to each other) and ``LEFT_OVER`` finds them if the session still holds them."""
    LEFT_OVER.clear()
    gc.disable()
    try:
        return _run(url, batch)
    finally:
        gc.enable()


def _run(url: str, batch: int) -> list[str]:
    upgrade(url)
    engine = make_engine(url)
    factory = make_sessionmaker(engine, mail_domain="example.org")
    processor = InboxProcessor(factory, CONFIG, failing)
    store_many(factory, [Arrival.of(raw(f"<f{k}@example.org>", s, t), s, [CONFIG.address])
                         for k, (s, t) in enumerate(FORMING)])
    while processor.process_batch(batch):
        pass
    with factory() as session:
        game = find_game(session, "ga")
        assert game is not None
        address = reply_address(CONFIG, game, next(p for p in game.players if p.email == player(1)))
        assert address is not None
    arrivals = []
    for k, (sender, text) in enumerate(PLAYING):
        to = address if text == "BY_REPLY" else CONFIG.address
        text = "set wait" if text == "BY_REPLY" else text
        arrivals.append(Arrival.of(raw(f"<p{k}@example.org>", sender, text, to), sender, [to]))
    store_many(factory, arrivals)
    while processor.process_batch(batch):
        pass
    try:
        return stored(factory)
    finally:
        engine.dispose()


#: A reply address's MAC rests on the member's salted password hash: it differs between runs.
_MAC = re.compile(r"judge\+(\d+)-[a-z0-9]+@")


def stored(factory: sessionmaker[Session]) -> list[str]:
    """Every outbox row (reply addresses without their MAC) and every row of the game tables."""
    out = []
    with factory() as session:
        for m in session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
            headers = {k: v for k, v in m.headers.items() if k not in ("In-Reply-To", "References")}
            text = f"{m.to_addr} {m.subject} {m.kind} {m.game} {m.phase} {m.archived} {headers}\n{m.body}"
            out.append(_MAC.sub(r"judge+\1-MAC@", text))
        for kind in (Game, Player, Absence, OrderSet, FutureOrders, RateLimit):
            table = kind.__table__
            skip = {"created_at", "updated_at", "joined_at", "password_hash"}
            for row in session.execute(select(table).order_by(*table.primary_key.columns)).mappings():
                out.append(repr({k: v for k, v in row.items() if k not in skip}))
    return out


@pytest.fixture
def alone(tmp_path: Path, fixed_clock: None) -> Iterator[list[str]]:
    """The script read one mail to a transaction (no batch keeps anything)."""
    yield run(f"sqlite:///{tmp_path / 'alone.db'}", 1)


def test_a_batch_answers_as_mails_alone_do(database_url: str, alone: list[str]) -> None:
    together = run(database_url, 64)
    assert any("Movement orders for Fall of 1901" in row for row in together)
    # The mail that failed (FAILS) changed England's orders in the view the mail before it
    # kept; the batch's next mail to the game reads them as the rollback left them.
    assert not any("Fleet London -> Wales" in row for row in together)
    assert LEFT_OVER == []
    assert sum("You are signed on as England" in row for row in together) == 5
    assert together == alone
