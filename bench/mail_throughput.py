"""Benchmark of the mail path: order mails per second, and deadline-to-results latency.

    .venv/bin/python bench/mail_throughput.py [--mails 500] [--clients 4] [--games 500] [--url URL]

1. Order mails go through the real SMTP listener (several clients at once); we time until
   every one is stored (250), read with its reply queued, and delivered to a local sink relay.
   The handler is the game module's when it exists (orders for started Standard games), else
   the "not ready" stand-in.
2. 1 and then N games get the same deadline; we time from that deadline until every game's
   result mails are queued, with the real scheduler and ``process_game``. Needs the game module.

Not part of the test suite; prints figures. Uses a fresh SQLite file unless --url is given.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import smtplib
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from email.message import Message
from pathlib import Path

from aiosmtpd.controller import Controller
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.config import Config  # noqa: E402
from judge.mail.reader import IncomingMail  # noqa: E402
from judge.scheduler import DeadlineScheduler  # noqa: E402
from judge.server import JudgeServer  # noqa: E402
from judge.store.base import make_engine, make_sessionmaker, utcnow  # noqa: E402
from judge.store.mail import InboxMessage, OutboxMessage  # noqa: E402
from judge.store.migrate import upgrade  # noqa: E402

HAVE_GAME = importlib.util.find_spec("judge.game.processing") is not None
LETTERS = "AEFGIRT"
OPENINGS = {"Austria": "A vie - gal\nA bud - ser\nF tri - alb", "England": "F lon - nth\nF edi - nwg\nA lvp - yor",
            "France": "A par - bur\nF bre - mao\nA mar s A par - bur", "Germany": "A ber - kie\nA mun - ruh\nF kie - den",
            "Italy": "A ven - tyr\nA rom - apu\nF nap - ion", "Russia": "A mos - ukr\nA war - gal\nF sev - bla\nF stp/sc - bot",
            "Turkey": "A con - bul\nA smy - con\nF ank - bla"}


class Sink:
    """A relay that counts what it is given."""

    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        self.count += 1
        return "250 OK"


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(what: Callable[[], bool], timeout: float = 600) -> float:
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            raise TimeoutError("benchmark stalled")
        time.sleep(0.01)
    return time.perf_counter()


def count(factory: sessionmaker[Session], model: type, *where: object) -> int:
    with factory() as session:
        return int(session.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def setup_games(factory: sessionmaker[Session], config: Config, prefix: str, n: int) -> list[tuple[str, str, str]]:
    """Start ``n`` Standard games through the game handler; (sender, game, power line) per player."""
    from judge.commands import handle_mail
    from judge.store.games import find_game

    def say(sender: str, text: str) -> None:
        mail = IncomingMail(f"<setup.{time.perf_counter_ns()}@bench>", sender, "", "setup", text, Message(),
                            text.encode())
        with factory() as session, session.begin():
            handle_mail(session, config, mail, utcnow())

    players: list[tuple[str, str, str]] = []
    for g in range(n):
        name = f"{prefix}{g}"
        say("gm@example.org", f"create ?{name} gmpw standard")
        for i, letter in enumerate(LETTERS):
            say(f"p{i}@example.org", f"signon ?{name} pw{i}\nset preference {letter}")
        with factory() as session:
            game = find_game(session, name)
            assert game is not None and game.phase, f"{name} did not start"
            players += [(p.email, name, f"signon {p.power[0]}{name} {p.password}\n{OPENINGS[p.power]}")
                        for p in game.players if p.power]
    return players


def order_mails(n: int, factory: sessionmaker[Session], config: Config) -> list[tuple[str, bytes]]:
    if HAVE_GAME:
        players = setup_games(factory, config, "tp", max(1, n // 7))
    else:
        players = [(f"p{i}@example.org", "", "A par - bur") for i in range(7)]
    mails = []
    for k in range(n):
        sender, _, text = players[k % len(players)]
        raw = (f"From: {sender}\r\nTo: {config.address}\r\nSubject: orders\r\n"
               f"Message-ID: <bench.{k}.{time.time_ns()}@example.org>\r\n\r\n{text}\r\n").encode()
        mails.append((sender, raw))
    return mails


def throughput(config: Config, factory: sessionmaker[Session], mails: int, clients: int) -> None:
    batch = order_mails(mails, factory, config)
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    config = Config(**{**config.__dict__, "relay_host": "127.0.0.1", "relay_port": relay.port})
    before = count(factory, OutboxMessage)

    def client(part: list[tuple[str, bytes]]) -> None:
        with smtplib.SMTP("127.0.0.1", config.smtp_port) as smtp:
            for sender, raw in part:
                smtp.sendmail(sender, [config.address], raw)

    async def main() -> tuple[float, float, float, float, int]:
        server = JudgeServer(config)
        await server.start()
        try:
            threads = [threading.Thread(target=client, args=(batch[i::clients],)) for i in range(clients)]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            await asyncio.to_thread(lambda: [t.join() for t in threads])
            accepted = time.perf_counter()
            read = await asyncio.to_thread(wait_until, lambda: count(
                factory, InboxMessage, InboxMessage.status == "new") == 0)
            queued = count(factory, OutboxMessage) - before
            sent = await asyncio.to_thread(wait_until, lambda: count(
                factory, OutboxMessage, OutboxMessage.status == "pending") == 0)
            return t0, accepted, read, sent, queued
        finally:
            await server.stop()
            relay.stop()

    t0, accepted, read, sent, queued = asyncio.run(main())
    handler = "game handler" if HAVE_GAME else "'not ready' stand-in"
    print(f"order mails through the listener ({mails} mails, {clients} clients, {handler}):")
    print(f"  stored (250):         {mails / (accepted - t0):8.1f} mails/s")
    print(f"  read, replies queued: {mails / (read - t0):8.1f} mails/s  ({read - t0:.2f} s)")
    print(f"  all {queued} mails they caused delivered: {queued / (sent - t0):8.1f} mails/s  ({sent - t0:.2f} s)")


def deadlines(config: Config, factory: sessionmaker[Session], games: int, prefix: str) -> None:
    from judge.game.processing import pending_deadlines, process_game
    from judge.store.games import Game

    t_setup = time.perf_counter()
    setup_games(factory, config, prefix, games)
    setup = time.perf_counter() - t_setup
    with factory() as session, session.begin():  # park every other game far away
        session.execute(update(Game).where(~Game.name.startswith(prefix)).values(deadline=utcnow() + timedelta(days=30)))
    before = count(factory, OutboxMessage, OutboxMessage.kind == "result")
    done: list[float] = []

    def process(session: Session, cfg: Config, game: str, now: object) -> bool:
        result = process_game(session, cfg, game, now)  # type: ignore[arg-type]
        if result:
            session.flush()
        return result

    async def main() -> float:
        scheduler = DeadlineScheduler(factory, config, pending_deadlines, process,
                                      on_processed=lambda: done.append(time.perf_counter()))
        due = utcnow() + timedelta(seconds=1)
        with factory() as session, session.begin():
            session.execute(update(Game).where(Game.name.startswith(prefix)).values(deadline=due))
        await scheduler.start()
        t_due = time.perf_counter() + (due - utcnow()).total_seconds()
        try:
            await asyncio.to_thread(wait_until, lambda: len(done) >= games)
        finally:
            await scheduler.stop()
        return max(done) - t_due

    latency = asyncio.run(main())
    results = count(factory, OutboxMessage, OutboxMessage.kind == "result") - before
    print(f"deadline to results queued, {games} game(s) due at once: {latency:.3f} s "
          f"({results} result mails; setup {setup:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=500)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--url", help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    url = args.url or f"sqlite:///{tmp / 'judge.db'}"
    config = Config(code="BENCH", address="judge@example.org", data_dir=tmp, database_url=url,
                    smtp_port=free_port(), sender_poll_seconds=0.2, sender_retry_base_seconds=0.2,
                    scheduler_sync_seconds=600)
    upgrade(url)
    engine = make_engine(url)
    factory = make_sessionmaker(engine, mail_domain=config.domain)
    print(f"database: {engine.dialect.name}")
    throughput(config, factory, args.mails, args.clients)
    if not HAVE_GAME:
        print("deadlines: skipped (judge.game.processing is missing)")
    else:
        deadlines(config, factory, 1, "one")
        deadlines(config, factory, args.games, "many")
    engine.dispose()


if __name__ == "__main__":
    main()
