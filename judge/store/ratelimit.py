"""Rate limits: at most ``limit`` mails per ``per_seconds`` for a key, stored in the database
so every judge process sharing it counts together.

Contract::

    from judge.store.ratelimit import ALLOW, TELL, QUIET, take
    verdict = take(session, "sender:ann@example.org", limit=20, per_seconds=60, now=now)

A token bucket per key (``limit`` tokens, refilled evenly over ``per_seconds``): a mail takes
one. When none is left the first mail gets ``TELL`` (answer it once, saying so) and the
next ones ``QUIET`` (no answer at all: no reply storm), until a token is back. The call
runs in the caller's transaction, so the count commits with the mail it counted. Keys are
free text: the inbox uses ``sender:<address>``; the command layer may use ``game:<name>``.
:func:`prune` forgets keys idle long enough to be full again.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal, cast

from sqlalchemy import Connection, String, Table, bindparam, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

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


def _insert_missing(connection: Connection, key: str, limit: int, now: datetime) -> None:
    values = {"key": key, "tokens": float(limit), "updated_at": now, "told": False}
    dialect = connection.dialect.name
    if dialect == "postgresql":
        connection.execute(postgresql.insert(_TABLE).values(values).on_conflict_do_nothing())
    elif dialect == "sqlite":
        connection.execute(sqlite.insert(_TABLE).values(values).on_conflict_do_nothing())
    elif connection.execute(_READ, {"bucket": key}).first() is None:
        connection.execute(insert(_TABLE).values(values))


def take(session: Session, key: str, limit: int, per_seconds: float, now: datetime) -> Verdict:
    """Count one mail for ``key``: ALLOW it, TELL (the first over the limit) or QUIET."""
    key = key[:400]
    connection = session.connection()
    bucket = connection.execute(_READ, {"bucket": key}).first()
    if bucket is None:
        _insert_missing(connection, key, limit, now)
        bucket = connection.execute(_READ, {"bucket": key}).one()
    left, updated_at, told = bucket
    elapsed = max(0.0, (now - updated_at).total_seconds())
    tokens = min(float(limit), left + elapsed * limit / per_seconds)
    verdict = ALLOW if tokens >= 1 else QUIET if told else TELL
    if verdict == ALLOW:
        tokens, told = tokens - 1, False
    else:
        told = True
    connection.execute(_WRITE, {"bucket": key, "left": tokens, "now": now, "was_told": told})
    return verdict


def prune(session: Session, now: datetime, idle_seconds: float) -> int:
    """Forget buckets untouched for ``idle_seconds`` (full again by then); how many."""
    cutoff = now - timedelta(seconds=idle_seconds)
    return int(session.execute(delete(RateLimit).where(RateLimit.updated_at < cutoff)).rowcount or 0)  # type: ignore[attr-defined]
