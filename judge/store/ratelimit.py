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
from typing import Literal

from sqlalchemy import String, delete, insert, select, update
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


_BUCKET = (RateLimit.tokens, RateLimit.updated_at, RateLimit.told)


def _insert_missing(session: Session, key: str, limit: int, now: datetime) -> None:
    values = {"key": key, "tokens": float(limit), "updated_at": now, "told": False}
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(postgresql.insert(RateLimit).values(values).on_conflict_do_nothing())
    elif dialect == "sqlite":
        session.execute(sqlite.insert(RateLimit).values(values).on_conflict_do_nothing())
    elif session.execute(select(RateLimit.key).where(RateLimit.key == key)).first() is None:
        session.execute(insert(RateLimit).values(values))


def take(session: Session, key: str, limit: int, per_seconds: float, now: datetime) -> Verdict:
    """Count one mail for ``key``: ALLOW it, TELL (the first over the limit) or QUIET.

    The bucket is read (locked) and written with plain statements, no ORM object: it is
    taken twice for every order mail (its sender, its game)."""
    key = key[:400]
    query = select(*_BUCKET).where(RateLimit.key == key).with_for_update()
    bucket = session.execute(query).first()
    if bucket is None:
        _insert_missing(session, key, limit, now)
        bucket = session.execute(query).one()
    left, updated_at, told = bucket
    elapsed = max(0.0, (now - updated_at).total_seconds())
    tokens = min(float(limit), left + elapsed * limit / per_seconds)
    verdict = ALLOW if tokens >= 1 else QUIET if told else TELL
    if verdict == ALLOW:
        tokens, told = tokens - 1, False
    else:
        told = True
    session.execute(update(RateLimit).where(RateLimit.key == key).values(tokens=tokens, updated_at=now, told=told))
    return verdict


def prune(session: Session, now: datetime, idle_seconds: float) -> int:
    """Forget buckets untouched for ``idle_seconds`` (full again by then); how many."""
    cutoff = now - timedelta(seconds=idle_seconds)
    return int(session.execute(delete(RateLimit).where(RateLimit.updated_at < cutoff)).rowcount or 0)  # type: ignore[attr-defined]
