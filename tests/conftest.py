"""Fixtures shared by the tests: free ports, a capturing SMTP relay, SQLite and PostgreSQL URLs.

- ``free_port()``: a TCP port on 127.0.0.1 nobody listens on.
- ``CaptureSMTP`` / ``capture_smtp``: an aiosmtpd server on 127.0.0.1 that keeps every
  message it accepts (with the MAIL FROM options); ``wait_for(n)`` waits until it holds
  ``n``. It can refuse recipients for good (``refuse``) or for now (``defer``), refuse the
  sender (``refuse_sender``), and offer or withhold 8BITMIME, SMTPUTF8 and PIPELINING.
- ``sqlite_url(tmp_path)`` / ``sqlite_db``: the URL of a fresh SQLite file.
- ``database_url``: a database with no rows, once SQLite and once PostgreSQL (the PostgreSQL one
  may already stand at the newest migration); ``empty_database_url``: one with no tables. PostgreSQL is the
  server at ``JUDGE_TEST_POSTGRES_URL`` (default: postgres on 127.0.0.1:5432); each test
  module gets its own ``judge_test_<random>`` database, dropped afterwards; the test is
  skipped when the server does not answer.
- ``migrated_url``: the same, upgraded to the newest migration.
- ``migrate(url)``: ``judge.store.migrate.upgrade(url)`` as the tests' judges use it: a SQLite
  file not made yet is first copied from one this process migrated (the migrations cost a
  third of a second, a copy a millisecond), and the upgrade then finds it at the newest. An
  empty PostgreSQL database is likewise made again as a copy (``CREATE DATABASE ... TEMPLATE``)
  of one this process migrated, dropped when the process ends.
- The judge's clock (:mod:`judge.clock`) is kept in a file of this process's own
  (``JUDGE_CLOCK_FILE``, set before any game process starts, so that one reads it too), and
  put back to the wall clock after every test: a test moves it with ``clock.advance``
  instead of waiting for a deadline.
- New passwords are hashed with scrypt's N = 2**10 (``JUDGE_SCRYPT_LOG2_N``, set here so every
  judge process the tests start inherits it): the suite signs on thousands of players, and at
  the judge's own cost scrypt took a fifth of its CPU. ``test_passwords`` checks the default.
- The run writes bytecode even where ``PYTHONDONTWRITEBYTECODE`` is set (see below).
"""

from __future__ import annotations

import atexit
import email
import email.policy
import functools
import os
import secrets
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

_CLOCK_FOLDER = tempfile.mkdtemp(prefix="judge-clock-")
atexit.register(shutil.rmtree, _CLOCK_FOLDER, True)
os.environ["JUDGE_CLOCK_FILE"] = os.path.join(_CLOCK_FOLDER, "offset")
os.environ["JUDGE_SCRYPT_LOG2_N"] = "10"
# Where PYTHONDONTWRITEBYTECODE is set (some containers set it), every process of a run (each
# test worker, each judge a test starts) would compile the judge's modules and rewrite the
# tests' asserts again: 20 s of CPU in a run on 2 cores. The run keeps its bytecode where
# Python does by default, in __pycache__ folders (which git ignores).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


@pytest.fixture(autouse=True)
def _wall_clock() -> Iterator[None]:
    """Every test starts and ends on the wall clock."""
    from judge import clock

    clock.reset()
    yield
    clock.reset()


#: The files holding the longest tests, longest first (``--durations`` on 2 cores): their tests
#: are handed out first, so that no test of a minute starts near the end while the other
#: worker has nothing left to do. The others keep their order, after them.
SLOW_FIRST = ("test_upgrade.py", "test_e2e_full_game.py", "test_wheel.py", "test_e2e_ratings.py", "test_soak.py",
              "test_server.py", "test_history_import.py", "test_e2e_bot_ratings.py", "test_quarantine.py",
              "test_e2e_identity.py", "test_browser.py", "test_e2e_once.py", "test_game_process.py",
              "test_e2e_game_life.py", "test_e2e_bot.py", "test_status.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of :data:`SLOW_FIRST` first (in its order, each file's in their own)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(SLOW_FIRST)))


PG_URL = os.environ.get("JUDGE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
PG_SKIP = "PostgreSQL not reachable on 127.0.0.1:5432"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Captured:
    """One message the capture relay accepted."""

    mail_from: str
    rcpt_tos: list[str]
    data: bytes
    mail_options: list[str] | None = None
    at: float = 0.0  # time.monotonic() when it was accepted

    @functools.cached_property
    def message(self) -> EmailMessage:
        """The message, parsed at the first call and kept: the tests read every mail's
        headers again and again, and the default policy's header parsing is not cheap."""
        return email.message_from_bytes(self.data, policy=email.policy.default)  # type: ignore[return-value]


class CaptureSMTP:
    """An SMTP server on 127.0.0.1 keeping every message, to stand in for the mail relay."""

    def __init__(self, port: int | None = None, refuse: tuple[str, ...] = (), *, defer: tuple[str, ...] = (),
                 refuse_sender: str = "", eightbit: bool = True, smtputf8: bool = False,
                 pipelining: bool = False) -> None:
        self.port = port or free_port()
        self.refuse = {addr.lower() for addr in refuse}
        self.defer = {addr.lower() for addr in defer}
        self.refuse_sender = refuse_sender
        self.eightbit, self.smtputf8, self.pipelining = eightbit, smtputf8, pipelining
        self.messages: list[Captured] = []
        self._cond = threading.Condition()
        self._controller: Controller | None = None

    async def handle_EHLO(self, server: object, session: object, envelope: object, hostname: str,
                          responses: list[str]) -> list[str]:
        session.host_name = hostname  # type: ignore[attr-defined]
        kept = [r for r in responses if self.eightbit or "8BITMIME" not in r]
        if self.pipelining:
            kept.insert(1, "250-PIPELINING")
        return kept

    async def handle_MAIL(self, server: object, session: object, envelope: object, address: str,
                          options: list[str]) -> str:
        if self.refuse_sender:
            return self.refuse_sender
        envelope.mail_from = address  # type: ignore[attr-defined]
        envelope.mail_options.extend(options)  # type: ignore[attr-defined]
        return "250 OK"

    async def handle_RCPT(self, server: object, session: object, envelope: object, address: str,
                          options: list[str]) -> str:
        if address.lower() in self.refuse:
            return "550 5.1.1 No such user"
        if address.lower() in self.defer:
            return "451 4.3.0 Try again later"
        envelope.rcpt_tos.append(address)  # type: ignore[attr-defined]
        return "250 OK"

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        data = envelope.original_content or envelope.content  # type: ignore[attr-defined]
        with self._cond:
            self.messages.append(Captured(envelope.mail_from, list(envelope.rcpt_tos), data,  # type: ignore[attr-defined]
                                          list(envelope.mail_options), time.monotonic()))  # type: ignore[attr-defined]
            self._cond.notify_all()
        return "250 OK"

    def start(self) -> CaptureSMTP:
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port, enable_SMTPUTF8=self.smtputf8)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def wait_for(self, count: int, timeout: float = 10.0, *, strict: bool = True) -> list[Captured]:
        """Wait until ``count`` messages are held (AssertionError after ``timeout``, unless
        not ``strict``: then what is held by then)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    if not strict:
                        break
                    raise AssertionError(f"relay holds {len(self.messages)} messages, wanted {count}")
                self._cond.wait(left)
            return list(self.messages)


@pytest.fixture
def capture_smtp() -> Iterator[CaptureSMTP]:
    relay = CaptureSMTP().start()
    yield relay
    relay.stop()


def sqlite_url(tmp_path: Path) -> str:
    """The URL of a SQLite file (not created yet) in ``tmp_path``."""
    return f"sqlite:///{tmp_path / 'judge.db'}"


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    return sqlite_url(tmp_path)


_MIGRATED: list[Path] = []  # this process's SQLite file at the newest migration


def _migrated_file() -> Path:
    """This process's SQLite file at the newest migration: made at the first call, and again
    if it has gone (a cleaner of /tmp); removed when the process ends."""
    from judge.store.migrate import upgrade

    if not _MIGRATED or not _MIGRATED[0].exists():
        folder = tempfile.mkdtemp(prefix="judge-migrated-")
        atexit.register(shutil.rmtree, folder, True)
        made = Path(folder) / "judge.db"
        upgrade(f"sqlite:///{made}")
        _MIGRATED[:] = [made]
    return _MIGRATED[0]


_PG_TEMPLATE: list[str] = []  # the name of this process's PostgreSQL database at the newest migration


def _drop_pg_template(name: str) -> None:
    admin = create_engine(make_url(PG_URL), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def _pg_template(admin: Engine) -> str:
    """This process's PostgreSQL database at the newest migration, to copy: made at the first
    call, dropped when the process ends."""
    from judge.store.migrate import upgrade

    if not _PG_TEMPLATE:
        name = f"judge_template_{secrets.token_hex(6)}"
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        atexit.register(_drop_pg_template, name)
        upgrade(make_url(PG_URL).set(database=name).render_as_string(hide_password=False))
        _PG_TEMPLATE.append(name)
    return _PG_TEMPLATE[0]


def _copy_if_empty_pg(url: str) -> None:
    """Make the PostgreSQL database at ``url`` again as a copy of the migrated template if it
    has no table yet (a database with tables is left to the upgrade)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            tables = conn.scalar(text("SELECT count(*) FROM information_schema.tables "
                                      "WHERE table_schema = current_schema()"))
    finally:
        engine.dispose()
    if tables:
        return
    name = make_url(url).database
    admin = create_engine(make_url(PG_URL), isolation_level="AUTOCOMMIT")
    try:
        template = _pg_template(admin)
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    finally:
        admin.dispose()


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest migration (see the module docstring)."""
    from judge.store.migrate import upgrade

    parsed = make_url(url)
    target = Path(parsed.database) if parsed.get_backend_name() == "sqlite" and parsed.database else None
    if target is not None and not target.exists():
        shutil.copyfile(_migrated_file(), target)
    if parsed.get_backend_name() == "postgresql":
        _copy_if_empty_pg(url)
    upgrade(url)


def _pg_reachable() -> str | None:
    url = make_url(PG_URL)
    try:
        with socket.create_connection((url.host or "127.0.0.1", url.port or 5432), timeout=1):
            pass
    except OSError:
        return PG_SKIP
    try:
        engine = create_engine(url)
        with engine.connect():
            pass
        engine.dispose()
    except Exception as exc:  # noqa: BLE001 - any failure means: no usable server
        return f"{PG_SKIP} (connect failed: {exc.__class__.__name__})"
    return None


@pytest.fixture(scope="module")
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for the test module, dropped afterwards."""
    reason = _pg_reachable()
    if reason:
        pytest.skip(reason)
    name = f"judge_test_{secrets.token_hex(6)}"
    admin = create_engine(make_url(PG_URL), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _empty_pg(url: str, *, keep_newest: bool) -> None:
    """Empty the PostgreSQL database at ``url``: of its rows only (``TRUNCATE``, its sequences
    restarted) when ``keep_newest`` and it stands at the newest migration, else of its tables."""
    from judge.store.migrate import at_newest

    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("SET lock_timeout = '20s'"))  # a test's judge left running: fail, not hang
            tables = [row[0] for row in conn.execute(text(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'alembic_version'"))]
            if keep_newest and tables and at_newest(conn):
                names = ", ".join('"' + name + '"' for name in tables)
                conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            else:
                conn.execute(text("DROP SCHEMA public CASCADE"))
                conn.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no rows: a new SQLite file, or the module's PostgreSQL database
    emptied. Where the module's last test left that one at the newest migration (as nearly
    all do), only its rows go, and ``migrate`` then finds it migrated: a copy of the migrated
    template (``CREATE DATABASE``) costs a third of a second of waiting, a ``TRUNCATE`` a
    twentieth. :func:`empty_database_url` is one with no tables at all."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    url = request.getfixturevalue("pg_database")
    _empty_pg(url, keep_newest=True)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database, with no tables: a SQLite file, or the module's PostgreSQL database
    with its schema made again (for the tests of the migrations themselves)."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    url = request.getfixturevalue("pg_database")
    _empty_pg(url, keep_newest=False)
    return url


@pytest.fixture
def migrated_url(database_url: str) -> str:
    """``database_url`` upgraded to the newest migration."""
    migrate(database_url)
    return database_url
