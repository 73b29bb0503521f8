"""What the operator sees of the mail queues, and what they can do with a stuck mail.

Contract::

    from judge.store.queues import counts, last_errors, rows, find, retry, drop
    counts(session)            # {"inbox": {"new": 3, ...}, "outbox": {"pending": 1, ...}}
    rows(session, "outbox", "failed", limit=50)
    retry(session, "inbox", 7) # back to "new" / "pending", attempts cleared; False if it cannot be
    drop(session, "outbox", 9) # "dropped": kept for the record, never sent or read

Used by ``judge status``, ``judge mail list|show|retry|drop`` and the server's health line.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .mail import InboxMessage, InboxStatus, OutboxMessage, OutboxStatus

Box = Literal["inbox", "outbox"]
MODELS: dict[str, type[InboxMessage] | type[OutboxMessage]] = {"inbox": InboxMessage, "outbox": OutboxMessage}
RETRYABLE = {"inbox": (InboxStatus.FAILED, InboxStatus.QUARANTINED, InboxStatus.DROPPED),
             "outbox": (OutboxStatus.FAILED, OutboxStatus.DROPPED)}
DROPPABLE = {"inbox": (InboxStatus.NEW, InboxStatus.FAILED, InboxStatus.QUARANTINED),
             "outbox": (OutboxStatus.PENDING, OutboxStatus.FAILED)}


def counts(session: Session) -> dict[str, dict[str, int]]:
    """Rows per status in each box."""
    out: dict[str, dict[str, int]] = {}
    for box, model in MODELS.items():
        out[box] = {status: int(n) for status, n in
                    session.execute(select(model.status, func.count()).group_by(model.status))}
    return out


def oldest_waiting(session: Session) -> tuple[datetime | None, datetime | None]:
    """When the oldest unread inbox message arrived, and the oldest pending outbox mail was queued."""
    inbox = session.scalar(select(func.min(InboxMessage.received_at)).where(InboxMessage.status == InboxStatus.NEW))
    outbox = session.scalar(select(func.min(OutboxMessage.created_at)).where(OutboxMessage.status == OutboxStatus.PENDING))
    return inbox, outbox


def last_errors(session: Session, limit: int = 5) -> list[tuple[str, int, str, str]]:
    """The latest errors: (box, id, status, error), newest first."""
    inbox = session.execute(select(InboxMessage.id, InboxMessage.status, InboxMessage.note)
                            .where(InboxMessage.status.in_((InboxStatus.FAILED, InboxStatus.QUARANTINED)))
                            .order_by(InboxMessage.id.desc()).limit(limit)).all()
    outbox = session.execute(select(OutboxMessage.id, OutboxMessage.status, OutboxMessage.last_error)
                             .where(OutboxMessage.last_error.is_not(None),
                                    OutboxMessage.status.in_((OutboxStatus.PENDING, OutboxStatus.FAILED)))
                             .order_by(OutboxMessage.id.desc()).limit(limit)).all()
    found = [("inbox", i, s, n or "") for i, s, n in inbox] + [("outbox", i, s, e or "") for i, s, e in outbox]
    return found[: limit * 2]


def rows(session: Session, box: Box, status: str | None = None, limit: int = 50) -> list[InboxMessage | OutboxMessage]:
    """The newest rows of ``box`` (in ``status``, default: the ones needing attention)."""
    model = MODELS[box]
    wanted = (status,) if status else ((InboxStatus.FAILED, InboxStatus.QUARANTINED) if box == "inbox"
                                       else (OutboxStatus.FAILED,))
    query = select(model).where(model.status.in_(wanted)).order_by(model.id.desc()).limit(limit)
    return list(session.scalars(query))


def find(session: Session, box: Box, row_id: int) -> InboxMessage | OutboxMessage | None:
    """One row of ``box`` by id."""
    if box == "inbox":
        return session.get(InboxMessage, row_id)
    return session.get(OutboxMessage, row_id)


def retry(session: Session, box: Box, row_id: int) -> bool:
    """Queue a failed, quarantined or dropped row again; False if there is no such row."""
    row = find(session, box, row_id)
    if row is None or row.status not in RETRYABLE[box]:
        return False
    row.attempts = 0
    row.next_attempt_at = None
    if isinstance(row, InboxMessage):
        row.status = InboxStatus.NEW
    else:
        row.status, row.claimed_by = OutboxStatus.PENDING, None
    return True


def drop(session: Session, box: Box, row_id: int) -> bool:
    """Mark a waiting or failed row "dropped" (kept, never handled); False if it cannot be."""
    row = find(session, box, row_id)
    if row is None or row.status not in DROPPABLE[box]:
        return False
    row.status = InboxStatus.DROPPED if isinstance(row, InboxMessage) else OutboxStatus.DROPPED
    return True
