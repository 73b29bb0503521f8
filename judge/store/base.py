"""The declarative base, engines, sessions and the UTC datetime column type.

Contract::

    from judge.store.base import Base, make_engine, make_sessionmaker, utcnow, UTCDateTime

- ``Base``: every model derives from it (typed ``Mapped[...]`` columns).
- ``make_engine(url)``: SQLite gets WAL, foreign keys, a busy timeout and ``BEGIN IMMEDIATE``
  transactions (one writer at a time, waiting instead of failing); PostgreSQL is reached with
  psycopg 3 (``postgresql+psycopg://``; a plain ``postgresql://`` URL is switched to it). On
  both, savepoints are sent as plain SQL text (:func:`_plain_savepoints`).
- ``make_sessionmaker(engine)``: sessions that keep loaded values after commit.
- ``utcnow()``: the current time, timezone-aware UTC, read from :mod:`judge.clock` (which tests move).
- ``UTCDateTime``: store datetimes with it; values come back aware UTC on every database.
  In migrations the column type is ``sa.DateTime(timezone=True)``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, DateTime, Engine, MetaData, create_engine, event
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.types import TypeDecorator

from .. import clock

SQLITE_BUSY_TIMEOUT_MS = 30_000


def utcnow() -> datetime:
    """The current time as a timezone-aware UTC datetime: the judge's clock (:func:`judge.clock.now`)."""
    return clock.now()


class UTCDateTime(TypeDecorator[datetime]):
    """A datetime stored in UTC and always read back timezone-aware.

    A naive value given to the database is taken to be UTC already.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
}


class Base(DeclarativeBase):
    """The declarative base of every judge table (constraint names follow NAMING_CONVENTION)."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UTCDateTime}


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # let SQLAlchemy's BEGIN below start transactions
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys = ON")
    if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "memory":
        cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def _sqlite_begin(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def _plain_savepoints(engine: Engine) -> Engine:
    """Send SAVEPOINT, RELEASE and ROLLBACK TO as plain SQL text, the same statements
    SQLAlchemy sends: it compiles each of them anew (its savepoint clauses are never cached),
    which costs more than running them, and every mail the inbox reads takes two savepoints."""
    quote = engine.dialect.identifier_preparer.quote

    def savepoint(connection: Connection, name: str) -> None:
        connection.exec_driver_sql(f"SAVEPOINT {quote(name)}")

    def release(connection: Connection, name: str) -> None:
        connection.exec_driver_sql(f"RELEASE SAVEPOINT {quote(name)}")

    def rollback_to(connection: Connection, name: str) -> None:
        connection.exec_driver_sql(f"ROLLBACK TO SAVEPOINT {quote(name)}")

    engine.dialect.do_savepoint = savepoint  # type: ignore[method-assign]
    engine.dialect.do_release_savepoint = release  # type: ignore[method-assign]
    engine.dialect.do_rollback_to_savepoint = rollback_to  # type: ignore[method-assign]
    return engine


def make_engine(url: str) -> Engine:
    """An Engine for ``url`` set up for the judge (see the module docstring)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(parsed, connect_args={"check_same_thread": False,
                                                     "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return _plain_savepoints(engine)
    return _plain_savepoints(create_engine(parsed, pool_pre_ping=True))


def make_sessionmaker(engine: Engine, *, mail_domain: str | None = None) -> sessionmaker[Session]:
    """The session factory the judge uses: ``with factory() as s, s.begin(): ...``.

    ``mail_domain`` (the judge address's domain) is kept in ``session.info`` for the
    Message-IDs that :func:`judge.store.mail.queue_mail` makes.
    """
    info = {"mail_domain": mail_domain} if mail_domain else {}
    return sessionmaker(engine, expire_on_commit=False, info=info)
