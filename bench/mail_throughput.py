"""Benchmark of the mail path: ingest against a bare SMTP sink, deadline bursts, delivery.

    .venv/bin/python bench/mail_throughput.py [--mails 2000] [--clients 4] [--nodes 1] [--games 5000] [--url URL]

1. The same order mails go, from the same ``--clients`` SMTP clients, first to a bare
   aiosmtpd sink, then to the judge's listener alone (stored, 250, nothing reading the inbox:
   the bound no reader can pass) and then through the judge's real listener, inbox and game
   handler until every reply is queued (orders for started Standard games). Printed: the
   rates, their ratios to the sink, the CPU time of the process per mail in each (the clients' share included: the
   figure to trust on a busy machine), and p50/p99 of the time from a mail's send to its 250
   and to its reply queued; and the CPU a mail the machine's cores would give everything
   (clients, judge, database server, relay) at half the sink's rate, beside what the run used
   (the relay's process and, for a PostgreSQL server on this machine, its processes, read
   from /proc). With ``--nodes N`` the judge is N nodes on the one database
   (each its own listener, reader and sender, as on N machines), the clients spread over
   their listeners.
2. 1 and then N games reach their deadline at once with grace set to the deadline, so every
   game (NMR, no reminders) is adjudicated (default holds) by the real ``JudgeServer`` and
   queues its result mails: the time from the deadline to the last game processed, and to
   the last result mail taken by a local sink relay in a process of its own, as a real relay
   is (the sender's ``sender_connections`` connections, pipelining offered by the sink), with
   the sender's window between the relay's 250 and "sent" (p50, p99, max), and the CPU time
   of the judge's processes in the burst (its game process's read from /proc).

Not part of the test suite; prints figures. A fresh SQLite file unless --url is given
(PostgreSQL: ``--url postgresql+psycopg://postgres@127.0.0.1:5432/<an empty database>``).
The games are made by mail once and then copied row by row (each game by mail would cost
eight scrypt hashes).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import os
import smtplib
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from email.message import Message
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import Engine, create_engine, delete, func, inspect, select, update
from sqlalchemy.orm import Session, sessionmaker

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.commands import handle_mail  # noqa: E402
from judge.config import Config  # noqa: E402
from judge.mail.listener import start_listener  # noqa: E402
from judge.mail.reader import IncomingMail  # noqa: E402
from judge.mail.sender import Sender  # noqa: E402
from judge.server import JudgeServer  # noqa: E402
from judge.store.base import make_engine, make_sessionmaker, utcnow  # noqa: E402
from judge.store.games import Game, Player, find_game  # noqa: E402
from judge.store.mail import InboxMessage, OutboxMessage  # noqa: E402
from judge.store.migrate import upgrade  # noqa: E402

LETTERS = "AEFGIRT"
OPENINGS = {"Austria": "A vie - gal\nA bud - ser\nF tri - alb", "England": "F lon - nth\nF edi - nwg\nA lvp - yor",
            "France": "A par - bur\nF bre - mao\nA mar s A par - bur", "Germany": "A ber - kie\nA mun - ruh\nF kie - den",
            "Italy": "A ven - tyr\nA rom - apu\nF nap - ion", "Russia": "A mos - ukr\nA war - gal\nF sev - bla\nF stp/sc - bot",
            "Turkey": "A con - bul\nA smy - con\nF ank - bla"}


class Sink:
    """A relay that counts what it is given, offering PIPELINING as real relays do."""

    def __init__(self) -> None:
        self.count = 0

    async def handle_EHLO(self, server: object, session: Any, envelope: object, hostname: str,
                          responses: list[str]) -> list[str]:
        session.host_name = hostname
        return [responses[0], "250-PIPELINING", *responses[1:]]

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        self.count += 1
        return "250 OK"


class LeanSink(asyncio.Protocol):
    """A relay that takes mail as one written in C does: whole reads scanned for the end of
    DATA, not a coroutine per line. The aiosmtpd sink spends some 6 ms of processor time on a
    result mail with its picture (80 KB, 1,100 lines), 40,000 of them in a 5,000-game burst:
    alone more than the 2 cores a 3-minute burst has; a relay such as Postfix spends a
    fraction of that. It offers PIPELINING, 8BITMIME and SMTPUTF8 and counts each mail."""

    def __init__(self, counter: Any) -> None:
        self.counter = counter
        self.buffer = bytearray()
        self.in_data = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(b"220 sink ESMTP\r\n")

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            if self.in_data:
                end = self.buffer.find(b"\r\n.\r\n")
                if end < 0:
                    del self.buffer[:max(0, len(self.buffer) - 4)]  # nothing is kept: only a split end
                    return
                del self.buffer[:end + 5]
                self.in_data = False
                with self.counter.get_lock():
                    self.counter.value += 1
                self.transport.write(b"250 OK\r\n")
                continue
            end = self.buffer.find(b"\r\n")
            if end < 0:
                return
            verb = bytes(self.buffer[:4]).upper()
            if verb == b"DATA":
                del self.buffer[:end]  # the CRLF stays: the body's end is CRLF . CRLF
                self.in_data = True
                self.transport.write(b"354 go on\r\n")
                continue
            del self.buffer[:end + 2]
            if verb == b"EHLO":
                self.transport.write(b"250-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")
            elif verb == b"QUIT":
                self.transport.write(b"221 bye\r\n")
                self.transport.close()
                return
            else:
                self.transport.write(b"250 OK\r\n")


def _serve_sink(port: int, counter: Any, ready: Any, lean: bool) -> None:
    """The sink relay's own process: counts each mail taken into the shared ``counter``."""
    if lean:
        async def serve() -> None:
            server = await asyncio.get_running_loop().create_server(lambda: LeanSink(counter), "127.0.0.1", port)
            ready.set()
            async with server:
                await server.serve_forever()

        asyncio.run(serve())
        return

    class SharedSink(Sink):
        async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
            with counter.get_lock():
                counter.value += 1
            return "250 OK"

    relay = Controller(SharedSink(), hostname="127.0.0.1", port=port)
    relay.start()
    ready.set()
    threading.Event().wait()


class SinkRelay:
    """A sink relay in a process of its own, as a real relay is: in this process's thread it
    would share the GIL with the judge and charge the relay's work to the judge. ``lean``:
    :class:`LeanSink`; else aiosmtpd's :class:`Sink`."""

    def __init__(self, lean: bool = True) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.port = free_port()
        self.kind = "lean sink" if lean else "aiosmtpd sink"
        self._count = ctx.Value("q", 0)
        ready = ctx.Event()
        self._proc = ctx.Process(target=_serve_sink, args=(self.port, self._count, ready, lean), daemon=True)
        self._proc.start()
        if not ready.wait(60):
            raise TimeoutError("sink relay did not start")

    @property
    def pid(self) -> int | None:
        return self._proc.pid

    @property
    def count(self) -> int:
        return int(self._count.value)

    def stop(self) -> None:
        self._proc.terminate()
        self._proc.join(10)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def process_cpu(pid: int | None) -> float:
    """The CPU seconds (user and system) process ``pid`` has used so far, read from Linux's
    /proc; 0 without a pid (the judge's game work in this process) or without /proc."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants_cpu(leave_out: set[int | None]) -> float:
    """The CPU seconds the living descendants of this process have used so far (the picture
    processes, children of a forkserver that is this process's child), but those in
    ``leave_out`` and theirs (the relay, the game process counted on its own); read from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    mine, total = os.getpid(), 0.0
    for pid in parents:
        chain, up = [pid], parents.get(pid)
        while up is not None and up not in (mine, 0, 1) and len(chain) < 16:
            chain.append(up)
            up = parents.get(up)
        if up == mine and pid != mine and not leave_out.intersection(chain):
            total += process_cpu(pid)
    return total


def server_cpu(name: str = "postgres") -> float:
    """The CPU seconds all processes called ``name`` on this machine have used so far (a
    local database server and its backends), read from /proc; 0 where it cannot be read."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, _, rest = stat.read_text().rpartition(")")
        except OSError:
            continue
        if head.partition("(")[2] == name:
            fields = rest.split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


WATCHER_CPU = [0.0]  # CPU seconds the bench's own watching (wait_until) has used, in its threads


def wait_until(what: Callable[[], bool], timeout: float = 1800, step: float = 0.01) -> float:
    """Poll ``what`` every ``step`` seconds until it holds; the moment it did. The CPU this
    thread spends polling is added to ``WATCHER_CPU``, so that the judge's CPU is printed
    without it: a count of 40,000 outbox rows 20 times a second is the bench's cost, and it
    grows with the run's length (a slower run would look costlier still)."""
    cpu = time.thread_time()
    deadline = time.monotonic() + timeout
    try:
        while not what():
            if time.monotonic() > deadline:
                raise TimeoutError("benchmark stalled")
            time.sleep(step)
        return time.perf_counter()
    finally:
        WATCHER_CPU[0] += time.thread_time() - cpu


WATCH: list[Engine] = []  # the watcher's own engine (see :func:`count`), made by main()


def count(model: type, *where: object) -> int:
    """Rows of ``model`` matching ``where``, read on the watcher's plain engine: on SQLite the
    judge's engines begin every transaction IMMEDIATE (taking the one write lock), and a
    watcher counting 80,000 outbox rows that way 20 times a second would hold up the writers
    it is timing. A plain read takes no lock."""
    with WATCH[0].connect() as connection:
        return int(connection.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile of sorted ``values`` (nearest rank)."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, max(0, math.ceil(q / 100 * len(values)) - 1))]


def template_game(factory: sessionmaker[Session], config: Config, name: str) -> None:
    """One Standard game started by mail (its master and seven players sign on)."""
    def say(sender: str, text: str) -> None:
        mail = IncomingMail(f"<setup.{time.perf_counter_ns()}@bench>", sender, "", "setup", text, Message(),
                            text.encode())
        with factory() as session, session.begin():
            handle_mail(session, config, mail, utcnow())

    say("gm@example.org", f"create ?{name} gmpw standard")
    for i, letter in enumerate(LETTERS):
        say(f"p{i}@example.org", f"signon ?{name} pw{i}\nset preference {letter}")


def copy_games(factory: sessionmaker[Session], source: str, names: list[str]) -> None:
    """Copy game ``source`` (its row and players) under each of ``names``."""
    game_cols = [c.key for c in inspect(Game).column_attrs if c.key not in ("id", "name")]
    player_cols = [c.key for c in inspect(Player).column_attrs if c.key not in ("id", "game_id")]
    with factory() as session:
        game = find_game(session, source)
        assert game is not None and game.phase, f"{source} did not start"
        values = {c: getattr(game, c) for c in game_cols}
        players = [{c: getattr(p, c) for c in player_cols} for p in game.players]
    for start in range(0, len(names), 500):
        with factory() as session, session.begin():
            for name in names[start:start + 500]:
                copy = Game(name=name, **values)
                copy.players = [Player(**p) for p in players]
                session.add(copy)


def order_mails(factory: sessionmaker[Session], config: Config, n: int) -> list[tuple[str, bytes]]:
    """``n`` order mails (signon line and opening orders) for started games, sender first."""
    template_game(factory, config, "tp")
    copy_games(factory, "tp", [f"tp{g}" for g in range(max(1, n // 7))])
    with factory() as session:
        game = find_game(session, "tp")
        assert game is not None
        who = [(p.email, p.power) for p in game.players if p.power]
    mails = []
    for k in range(n):
        email, power = who[k % 7]
        name = f"tp{(k // 7) % max(1, n // 7)}"
        text = f"signon {power[0]}{name} pw{int(email[1])}\n{OPENINGS[power]}"
        raw = (f"From: {email}\r\nTo: {config.address}\r\nSubject: orders\r\n"
               f"Message-ID: <bench.{k}.{time.time_ns()}@example.org>\r\n\r\n{text}\r\n").encode()
        mails.append((email, raw))
    return mails


def push(port: int | list[int], address: str, batch: list[tuple[str, bytes]],
         clients: int) -> tuple[float, dict[bytes, tuple[float, float]]]:
    """Send ``batch`` over ``clients`` connections (spread over the ports given, one for
    each judge node); seconds taken, and for each mail the wall time it was sent and the
    seconds until its 250."""
    sent: dict[bytes, tuple[float, float]] = {}
    ports = port if isinstance(port, list) else [port]

    def client(part: list[tuple[str, bytes]], port: int) -> None:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            for sender, raw in part:
                t = time.time()
                smtp.sendmail(sender, [address], raw)
                sent[raw] = (t, time.time() - t)

    threads = [threading.Thread(target=client, args=(batch[i::clients], ports[i % len(ports)]))
               for i in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, sent


def listener_alone(config: Config, factory: sessionmaker[Session], batch: list[tuple[str, bytes]],
                   clients: int) -> tuple[float, float, list[float]]:
    """The judge's own listener with nothing reading its inbox: the rate (mails/s), the CPU of
    this process and the times to 250 of storing ``batch`` (under other Message-IDs, deleted
    afterwards). It bounds the whole path: no reader can make the judge answer faster."""
    again = [(sender, raw.replace(b"<bench.", b"<ceiling.", 1)) for sender, raw in batch]

    async def main() -> tuple[float, dict[bytes, tuple[float, float]]]:
        server = await start_listener(factory, replace(config, smtp_port=free_port()))
        try:
            port = server.sockets[0].getsockname()[1]
            return await asyncio.to_thread(push, port, config.address, again, clients)
        finally:
            server.close()
            await server.wait_closed()

    cpu = time.process_time()
    seconds, acks = asyncio.run(main())
    cpu = time.process_time() - cpu
    with factory() as session, session.begin():
        session.execute(delete(InboxMessage).where(InboxMessage.message_id.like("<ceiling.%")))
    return len(batch) / seconds, cpu, sorted(a for _, a in acks.values())


def ingest(config: Config, factory: sessionmaker[Session], mails: int, clients: int, nodes: int = 1) -> None:
    batch = order_mails(factory, config, mails)
    sink = Sink()
    bare = Controller(sink, hostname="127.0.0.1", port=free_port())
    bare.start()
    cpu = time.process_time()
    try:
        sink_seconds, _ = push(bare.port, config.address, batch, clients)
    finally:
        bare.stop()
    sink_cpu = time.process_time() - cpu
    ceiling, ceiling_cpu, ceiling_acks = listener_alone(config, factory, batch, clients)
    relay = SinkRelay()
    config = Config(**{**config.__dict__, "relay_host": "127.0.0.1", "relay_port": relay.port})
    before = count(OutboxMessage)

    game_cpu = [0.0, 0.0, 0.0]  # the game processes', the database server's (PostgreSQL here), the relay's
    local_server = factory.kw["bind"].dialect.name == "postgresql" and factory.kw["bind"].url.host in (
        "127.0.0.1", "localhost", None)

    async def main() -> tuple[float, float, dict[bytes, tuple[float, float]]]:
        # Every node after the first is another judge on the same database, as a second
        # machine would be: its own listener (the clients take turns), reader and sender.
        servers = [JudgeServer(replace(config, smtp_port=config.smtp_port if n == 0 else free_port()))
                   for n in range(nodes)]
        for server in servers:
            await server.start()
        try:
            before = sum(process_cpu(server.game_pid) for server in servers)
            db_before = server_cpu() if local_server else 0.0
            relay_before = process_cpu(relay.pid)
            t0 = time.perf_counter()
            _, acks = await asyncio.to_thread(push, [server.config.smtp_port for server in servers],
                                              config.address, batch, clients)
            read = await asyncio.to_thread(wait_until, lambda: count(  # every 50 ms: the watch costs little
                InboxMessage, InboxMessage.status == "new") == 0, 1800, 0.05)
            game_cpu[0] = sum(process_cpu(server.game_pid) for server in servers) - before
            game_cpu[1] = server_cpu() - db_before if local_server else 0.0
            game_cpu[2] = process_cpu(relay.pid) - relay_before
            return t0, read, acks
        finally:
            for server in servers:
                await server.stop()
            relay.stop()

    cpu, watched = time.process_time(), WATCHER_CPU[0]
    t0, read, acks = asyncio.run(main())
    judge_cpu = time.process_time() - cpu + game_cpu[0] - (WATCHER_CPU[0] - watched)
    with factory() as session:
        processed = [(row.raw, row.processed_at) for row in session.scalars(
            select(InboxMessage).where(InboxMessage.message_id.like("<bench.%")))]
    queued_latency = sorted(p.timestamp() - acks[raw][0] for raw, p in processed if p is not None and raw in acks)
    ack = sorted(a for _, a in acks.values())
    sink_rate, judge_rate = mails / sink_seconds, mails / (read - t0)
    print(f"ingest: {mails} order mails, {clients} clients, {nodes} judge node{'s' if nodes > 1 else ''}, "
          f"the game handler "
          f"({count(OutboxMessage) - before} mails queued)")
    print(f"  bare aiosmtpd sink:              {sink_rate:8.1f} mails/s")
    print(f"  the listener alone (250, stored, no reader): {ceiling:8.1f} mails/s   ratio to the sink "
          f"{ceiling / sink_rate:.2f}   CPU {ceiling_cpu / mails * 1000:.2f} ms   "
          f"250 p50 {pct(ceiling_acks, 50) * 1000:.1f} ms")
    print(f"  judge, stored (250) and replied: {judge_rate:8.1f} mails/s   ratio to the sink {judge_rate / sink_rate:.2f}")
    print(f"  CPU per mail (this process, the clients included, and the judge's game process): "
          f"sink {sink_cpu / mails * 1000:.2f} ms, judge {judge_cpu / mails * 1000:.2f} ms "
          f"(game process {game_cpu[0] / mails * 1000:.2f} ms)   ratio {sink_cpu / judge_cpu:.2f}")
    cores = os.cpu_count() or 1
    whole = (judge_cpu + game_cpu[1] + game_cpu[2]) / mails * 1000
    print(f"  at 0.5 of the sink, {cores} cores give {cores / (0.5 * sink_rate) * 1000:.2f} ms of CPU a mail to "
          f"everything (clients, judge, database, relay); this run used {whole:.2f} ms (the relay "
          f"{game_cpu[2] / mails * 1000:.2f} ms"
          + (f", the database server {game_cpu[1] / mails * 1000:.2f} ms" if local_server else "") + ")")
    print(f"  time to 250:          p50 {pct(ack, 50) * 1000:7.1f} ms  p99 {pct(ack, 99) * 1000:7.1f} ms")
    print(f"  send to reply queued: p50 {pct(queued_latency, 50) * 1000:7.1f} ms  "
          f"p99 {pct(queued_latency, 99) * 1000:7.1f} ms")


def deadlines(config: Config, factory: sessionmaker[Session], games: int, prefix: str, pictures: bool,
              lean: bool = True) -> None:
    t_setup = time.perf_counter()
    template_game(factory, config, prefix)
    copy_games(factory, prefix, [f"{prefix}{g}" for g in range(games - 1)])
    with factory() as session, session.begin():
        session.execute(update(Game).where(Game.name.startswith(prefix)).values(pictures=pictures))
    setup = time.perf_counter() - t_setup
    with factory() as session, session.begin():  # park every other game far away
        far = utcnow() + timedelta(days=30)  # bulk updates bypass the ORM: due_at is set with them
        session.execute(update(Game).where(~Game.name.startswith(prefix), Game.status == "active")
                        .values(deadline=far, grace=None, due_at=far))
    sink = relay = SinkRelay(lean)
    config = Config(**{**config.__dict__, "relay_host": "127.0.0.1", "relay_port": relay.port})
    before = count(OutboxMessage, OutboxMessage.kind == "result")
    pending_before = count(OutboxMessage, OutboxMessage.status == "pending")
    with factory() as session:
        phase = session.scalar(select(Game.phase).where(Game.name == prefix))
    game_cpu = [0.0, 0.0, 0.0]  # the game process's, the picture processes', the relay's

    def unprocessed() -> int:
        return count(Game, Game.name.startswith(prefix), Game.phase == phase)

    async def main() -> tuple[float, float, float, Sender]:
        server = JudgeServer(config)
        due = utcnow() + timedelta(seconds=2)
        with factory() as session, session.begin():
            session.execute(update(Game).where(Game.name.startswith(prefix))
                            .values(deadline=due, grace=due, due_at=due))
        await server.start()
        cpu_before = process_cpu(server.game_pid)
        leave_out = {relay.pid, server.game_pid}
        children_before, relay_before = descendants_cpu(leave_out), process_cpu(relay.pid)
        t_due = time.perf_counter() + (due - utcnow()).total_seconds()
        try:
            queued = await asyncio.to_thread(wait_until, lambda: unprocessed() == 0, 1800, 0.05)
            delivered = await asyncio.to_thread(wait_until, lambda: sink.count >= pending_before and count(
                OutboxMessage, OutboxMessage.status.in_(("pending", "held"))) == 0, 1800, 0.05)
            game_cpu[0] = process_cpu(server.game_pid) - cpu_before
            game_cpu[2] = process_cpu(relay.pid) - relay_before
            game_cpu[1] = descendants_cpu(leave_out) - children_before
        finally:
            await server.stop()
            relay.stop()
        return t_due, queued, delivered, server.sender

    cpu, watched = time.process_time(), WATCHER_CPU[0]
    t_due, queued, delivered, sender = asyncio.run(main())
    watched = WATCHER_CPU[0] - watched
    cpu = time.process_time() - cpu + game_cpu[0] + game_cpu[1] - watched
    results = count(OutboxMessage, OutboxMessage.kind == "result") - before
    windows = sorted(sender.windows)
    print(f"deadline, {games} game(s) due at once, pictures {'on' if pictures else 'off'} (setup {setup:.1f} s): "
          f"{results} result mails "
          f"queued in {queued - t_due:.2f} s, all {sink.count} mails at the {relay.kind} relay "
          f"{delivered - t_due:.2f} s after the deadline")
    print(f"  CPU of the judge's processes (the sink relay is another): {cpu:.2f} s, "
          f"{cpu / max(1, results) * 1000:.2f} ms a result mail (the game process {game_cpu[0]:.2f} s, "
          f"the picture processes {game_cpu[1]:.2f} s; the bench's watching, left out, {watched:.2f} s); "
          f"the relay's {game_cpu[2]:.2f} s")
    if windows:
        print(f"  relay's 250 to 'sent' committed: p50 {pct(windows, 50) * 1000:.2f} ms  "
              f"p99 {pct(windows, 99) * 1000:.2f} ms  max {windows[-1] * 1000:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=1,
                        help="judges on the one database for the ingest, the clients spread over them")
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--picture-games", type=int, default=500,
                        help="games due at once with pictures on (each PNG costs some 25 ms of CPU, the board kept)")
    parser.add_argument("--url", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--skip-deadlines", action="store_true")
    parser.add_argument("--picture-processes", type=int, default=None,
                        help="[judge] picture_processes (default: the judge's own default)")
    parser.add_argument("--relay", choices=("lean", "aiosmtpd"), default="lean",
                        help="the sink relay of the bursts: lean (takes a mail at a relay in C's cost) or aiosmtpd")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    url = args.url or f"sqlite:///{tmp / 'judge.db'}"
    config = Config(code="BENCH", address="judge@example.org", data_dir=tmp, database_url=url,
                    smtp_port=free_port(), sender_poll_seconds=0.2, sender_retry_base_seconds=0.2,
                    scheduler_sync_seconds=600, sender_mails_per_minute=1_000_000,
                    game_mails_per_minute=1_000_000, health_seconds=3600,
                    nmr=True, reminder_hours=0, picture_processes=args.picture_processes)
    upgrade(url)
    engine = make_engine(url)
    factory = make_sessionmaker(engine, mail_domain=config.domain)
    WATCH.append(create_engine(engine.url))
    print(f"database: {engine.dialect.name}")
    if not args.skip_ingest:
        ingest(config, factory, args.mails, args.clients, args.nodes)
    if not args.skip_deadlines:
        for pictures in (False, True):
            tag = "p" if pictures else "n"
            many = args.games if not pictures else args.picture_games
            if many < 1:
                continue
            deadlines(config, factory, 1, f"one{tag}", pictures, args.relay == "lean")
            deadlines(config, factory, many, f"many{tag}", pictures, args.relay == "lean")
    engine.dispose()


if __name__ == "__main__":
    main()
