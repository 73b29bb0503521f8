"""Rate limits: at most ``limit`` mails per ``per_seconds`` for a key, stored in the database
so every judge process sharing it counts together.

Contract::

    from judge.store.ratelimit import ALLOW, TELL, QUIET, take
    verdict = take(session, "sender:ann@example.org", limit=20, per_seconds=60, now=now)

A token bucket per key (``limit`` tokens, refilled evenly over ``per_seconds``): a mail takes
one. When none is left the first mail gets ``TELL`` (answer it once, saying so) and the
next ones ``QUIET`` (no answer at all: no reply storm), until a token is back. The call
runs in the caller's transaction, so the count commits with the mail it counted. Keys are
free text: the inbox uses ``sender:<address>``; the command layer ``member:<player id>`` (a
signed-on player's or master's own) and ``game:<name>`` (a game's observers and strangers).
:func:`prune` forgets keys idle long enough to be full again.

A bucket is read with its row locked, so a bucket taken earlier in the transaction (in the
inbox's batch: by an earlier mail) is not read again: what was written is kept
(``RATE_BUCKETS`` in :mod:`judge.store.kept`, forgotten at any rollback).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal, cast

from sqlalchemy import Connection, String, Table, bindparam, delete, insert, select, text, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from . import kept
from .base import Base

Verdict = Literal["allow", "tell", "quiet"]
ALLOW: Verdict = "allow"
TELL: Verdict = "tell"
QUIET: Verdict = "quiet"


class RateLimit(Base):
    """One key's bucket: tokens left at ``updated_at``, and whether the refusal was told."""

    __tablename__ = "rate_limit"

    key: Mapped[str] = mapped_column(String(400), primary_key=True)
    tokens: Mapped[float]
    updated_at: Mapped[datetime]
    told: Mapped[bool] = mapped_column(default=False)


_TABLE = cast(Table, RateLimit.__table__)
#: The statements of :func:`take`, made once: plain statements on the table, no ORM object,
#: as a bucket is taken twice for every order mail (its sender, its game).
_READ = (select(_TABLE.c.tokens, _TABLE.c.updated_at, _TABLE.c.told)
         .where(_TABLE.c.key == bindparam("bucket")).with_for_update())
_WRITE = (update(_TABLE).where(_TABLE.c.key == bindparam("bucket"))
          .values(tokens=bindparam("left"), updated_at=bindparam("now"), told=bindparam("was_told")))


#: A new key's full bucket, unless another transaction made it first; the key comes back
#: when this one made it (psycopg gives no row count for the insert). The same text on SQLite
#: and PostgreSQL, with the columns' types on its parameters: SQLAlchemy keeps no compiled
#: form of either dialect's ``INSERT ... ON CONFLICT`` and would compile it again for every
#: new key, and a key is new again after an hour idle (:func:`prune`), so for most mails'
#: sender and game.
_INSERT_NEW = text('INSERT INTO rate_limit ("key", tokens, updated_at, told) VALUES (:key, :tokens, :updated_at, :told)'
                   ' ON CONFLICT DO NOTHING RETURNING "key"').bindparams(
    *(bindparam(c.name, type_=c.type) for c in (_TABLE.c.key, _TABLE.c.tokens, _TABLE.c.updated_at, _TABLE.c.told)))
_ON_CONFLICT = frozenset({"postgresql", "sqlite"})


def _insert_missing(connection: Connection, key: str, limit: int, now: datetime) -> bool:
    """Make ``key``'s full bucket; whether this call made it (False: another did first)."""
    values = {"key": key, "tokens": float(limit), "updated_at": now, "told": False}
    if connection.dialect.name in _ON_CONFLICT:
        return connection.execute(_INSERT_NEW, values).first() is not None
    if connection.execute(_READ, {"bucket": key}).first() is not None:
        return False
    connection.execute(insert(_TABLE), values)
    return True


def take(session: Session, key: str, limit: int, per_seconds: float, now: datetime) -> Verdict:
    """Count one mail for ``key``: ALLOW it, TELL (the first over the limit) or QUIET. A
    bucket this call made is full as made, so it is not read back; one taken earlier in the
    transaction is as it was written (see the module docstring)."""
    key = key[:400]
    connection = session.connection()
    memo: dict[str, tuple[float, datetime, bool]] = session.info.setdefault(kept.RATE_BUCKETS, {})
    known = memo.get(key)
    bucket = known if known is not None else connection.execute(_READ, {"bucket": key}).first()
    if bucket is not None:
        left, updated_at, told = bucket
    elif _insert_missing(connection, key, limit, now):
        left, updated_at, told = float(limit), now, False
    else:
        left, updated_at, told = connection.execute(_READ, {"bucket": key}).one()
    elapsed = max(0.0, (now - updated_at).total_seconds())
    tokens = min(float(limit), left + elapsed * limit / per_seconds)
    verdict = ALLOW if tokens >= 1 else QUIET if told else TELL
    if verdict == ALLOW:
        tokens, told = tokens - 1, False
    else:
        told = True
    connection.execute(_WRITE, {"bucket": key, "left": tokens, "now": now, "was_told": told})
    memo[key] = (tokens, now, told)
    return verdict


def prune(session: Session, now: datetime, idle_seconds: float) -> int:
    """Forget buckets untouched for ``idle_seconds`` (full again by then); how many."""
    cutoff = now - timedelta(seconds=idle_seconds)
    return int(session.execute(delete(RateLimit).where(RateLimit.updated_at < cutoff)).rowcount or 0)  # type: ignore[attr-defined]
