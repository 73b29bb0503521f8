"""The judge's keys kept in the database, so that a backup of the database is all a restore
needs (issue 27): today one, ``reply``, the key that signs the players' reply addresses
(:mod:`judge.game.tokens`).

Contract::

    from judge.store.keys import reply_key
    key = reply_key(session, configured, seed)   # bytes; made (or taken from seed()) once

``configured`` (``[judge] secret`` in the configuration), when set, is the key and nothing
is stored (the operator keeps it with the configuration). Otherwise the key is the row
``judge_key`` ``reply``: migration ``0019_judge_key`` copies it from an existing
``<data_dir>/secret`` (the file earlier judges made), and the first process that needs it and
finds none makes one (``seed()``, the caller's reading of that file, else at random) in a
savepoint; two processes doing so at once
agree on the one that was committed first. A key found stored is kept for the process (for
that database's engine): a stored key is never replaced, and a burst of games would
otherwise read it once for each.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from . import kept
from .base import Base

REPLY = "reply"
_STORED: WeakKeyDictionary[Engine, bytes] = WeakKeyDictionary()  # the key found stored, by database


class JudgeKey(Base):
    """One named key of the judge (hex text)."""

    __tablename__ = "judge_key"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


_READ = select(JudgeKey.value).where(JudgeKey.name == REPLY)

def reply_key(session: Session, configured: str = "", seed: Callable[[], str | None] = lambda: None) -> bytes:
    """The key that signs reply addresses (see the module docstring); read once a transaction
    (``REPLY_KEY`` in :mod:`judge.store.kept`), and once a process (for each database engine)
    when it was found stored: a stored key is never replaced, and a 5,000-game burst would
    otherwise read it once for every game."""
    if configured:
        return configured.encode()
    known = session.info.get(kept.REPLY_KEY)
    if isinstance(known, bytes):
        return known
    bind = session.get_bind()
    engine = bind if isinstance(bind, Engine) else bind.engine
    stored = _STORED.get(engine)
    if stored is not None:
        session.info[kept.REPLY_KEY] = stored
        return stored
    value = session.scalar(_READ)
    if value is not None:  # committed: kept for the process (a key made below may yet be rolled back)
        _STORED[engine] = value.encode()
    else:
        made = seed() or secrets.token_hex(32)
        try:
            with session.begin_nested():
                session.add(JudgeKey(name=REPLY, value=made))
            value = made
        except IntegrityError:
            value = session.scalar(_READ)
            assert value is not None
    session.info[kept.REPLY_KEY] = value.encode()
    return session.info[kept.REPLY_KEY]  # type: ignore[no-any-return]
