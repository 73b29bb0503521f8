"""The mail tables: the inbox (every message received) and the outbox (every message sent).

Contract::

    from judge.store.mail import InboxMessage, OutboxMessage, queue_mail, archive_for

- ``InboxMessage``: a raw message as the SMTP listener accepted it; ``status`` is
  ``"new"`` (not read yet), ``"done"``, ``"ignored"`` (loop, junk or over the rate limit,
  the reason in ``note``), ``"failed"`` (the handler raised ``attempts`` times; tried again
  at ``next_attempt_at``), ``"quarantined"`` (it failed ``inbox_max_attempts`` times: only
  an operator's ``judge mail retry`` reads it again) or ``"dropped"`` (by an operator).
- ``OutboxMessage``: one mail to one recipient; ``status`` is ``"pending"``, ``"sent"``,
  ``"failed"`` (refused for good or ``sender_max_attempts`` failures: quarantined until an
  operator retries it) or ``"dropped"``. ``claimed_by`` names the judge process delivering
  it right now (see :mod:`judge.store.nodes`). ``kind`` says what it is (``"reply"``,
  ``"result"``, ``"notice"``, ``"press"``, ...). The outbox is the archive: rows are never
  deleted, and those sent for a game carry its name in ``game``. One mail sent to many
  recipients is one row per recipient; the first row of a mail queued with ``archive=True``
  is its archive copy (``archived``), which :func:`archive_for` returns. A mail the game
  took back (the results of a phase a ``ROLLBACK`` undid) keeps its rows, with
  ``withdrawn_at`` set by :func:`withdraw_mails`: the archive shows it as withdrawn.
- ``queue_mail(...)`` inserts outgoing mail in the caller's transaction, to be committed
  together with the state change that caused it.
- ``Attachment``: a file attached to outgoing mail (a result mail's map picture), stored once
  by its SHA-256 however many recipients' rows carry it (``OutboxMessage.files``);
  ``File`` is the value ``queue_mail`` takes. A file may be given by its ``source`` only (the
  SVG of a picture) and made later, outside the transaction that queued it: its rows wait
  as ``"held"`` until :func:`complete_attachment` stores the bytes (the picture stage,
  ``judge.game.pictures.PictureStage``), then become ``"pending"``.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.utils import parseaddr
from enum import StrEnum
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Column,
    Connection,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    bindparam,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from .base import Base, utcnow


class InboxStatus(StrEnum):
    """``InboxMessage.status`` (see the module docstring)."""

    NEW = "new"
    DONE = "done"
    IGNORED = "ignored"
    FAILED = "failed"
    QUARANTINED = "quarantined"
    DROPPED = "dropped"


class OutboxStatus(StrEnum):
    """``OutboxMessage.status`` (see the module docstring)."""

    HELD = "held"
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"
    DROPPED = "dropped"


INBOX_STATUSES = tuple(InboxStatus)
OUTBOX_STATUSES = tuple(OutboxStatus)
#: The rows the sender may claim (``ix_outbox_message_queue``); a claim's WHERE says it word
#: for word, as SQLite needs to use a partial index.
QUEUE_WHERE = f"status = '{OutboxStatus.PENDING}' AND claimed_by IS NULL"


class InboxMessage(Base):
    """A message received over SMTP, stored raw before the listener answered 250."""

    __tablename__ = "inbox_message"
    __table_args__ = (Index("ix_inbox_message_status", "status", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    envelope_sender: Mapped[str] = mapped_column(String(320))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    received_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16), default=InboxStatus.NEW)
    note: Mapped[str | None] = mapped_column(Text)
    processed_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime | None]


class Attachment(Base):
    """A file attached to outgoing mail, stored once per content (``digest``)."""

    __tablename__ = "attachment"

    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(100))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    source: Mapped[str | None] = mapped_column(Text)
    ready: Mapped[bool] = mapped_column(default=True, index=True)
    created_at: Mapped[datetime]


outbox_file = Table(
    "outbox_file", Base.metadata,
    Column("outbox_id", Integer, ForeignKey("outbox_message.id", ondelete="CASCADE"), primary_key=True),
    Column("attachment_id", Integer, ForeignKey("attachment.id", ondelete="CASCADE"), primary_key=True, index=True),
)


@dataclass(frozen=True, slots=True)
class File:
    """A file to attach to a mail: its name, MIME type and bytes, or (``data`` empty) the
    ``source`` they are made from later (see the module docstring)."""

    filename: str
    content_type: str
    data: bytes = b""
    source: str | None = None

    @property
    def ready(self) -> bool:
        return bool(self.data) or self.source is None


class OutboxMessage(Base):
    """A mail to one recipient, waiting to be sent or sent; also the game's mail archive."""

    __tablename__ = "outbox_message"
    __table_args__ = (
        # In id order within a status: SQLite takes this index for the claim (status pinned),
        # and in this order it reads no more rows than it keeps (migration 0011).
        Index("ix_outbox_message_status", "status", "id"),
        # The sender's queue: the rows it may claim, in id order; PostgreSQL's claim walks it.
        # Without an index in id order each claim of a burst's rows reads every pending row
        # (40,000 at 5,000 games) and sorts them.
        Index("ix_outbox_message_queue", "id", sqlite_where=text(QUEUE_WHERE), postgresql_where=text(QUEUE_WHERE)),
        # Only the rows in some process's hands: indexing the unclaimed (every sent row) drew
        # SQLite's claim onto this index, to walk all of them.
        Index("ix_outbox_message_claimed_by", "claimed_by", sqlite_where=text("claimed_by IS NOT NULL"),
              postgresql_where=text("claimed_by IS NOT NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    to_addr: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    headers: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    game: Mapped[str | None] = mapped_column(String(64), index=True)
    phase: Mapped[str | None] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16), default="reply")
    created_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16), default=OutboxStatus.PENDING)
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime | None]
    sent_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    archived: Mapped[bool] = mapped_column(default=False)
    files: Mapped[list[Attachment]] = relationship(secondary=outbox_file, lazy="selectin")
    withdrawn_at: Mapped[datetime | None]

    def __repr__(self) -> str:
        return f"<OutboxMessage {self.id} {self.kind} to {self.to_addr} {self.status}>"


def new_message_id(domain: str = "localhost") -> str:
    """A fresh, globally unique Message-ID (with angle brackets) in ``domain``."""
    return f"<{utcnow():%Y%m%d%H%M%S}.{uuid.uuid4().hex}@{domain}>"


def bare_address(address: str) -> str:
    """The bare address in ``address`` (``Ann <ANN@example.org>``: ``ann@example.org``), lower
    case; remembered when short, as every reply and notice is addressed to the same few
    people again and again (a stream of long made-up ones is not kept)."""
    return _kept_bare(address) if len(address) <= 320 else _parsed_bare(address)


def _parsed_bare(address: str) -> str:
    return parseaddr(address)[1].strip().lower()


_kept_bare = functools.lru_cache(maxsize=4096)(_parsed_bare)


def _recipients(to: str | Iterable[str]) -> list[str]:
    """The distinct recipients (compared by bare address, case-insensitively), in order."""
    items = [to] if isinstance(to, str) else list(to)
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        bare = bare_address(item)
        if bare and "@" in bare and bare not in seen:
            seen.add(bare)
            out.append(item.strip())
    return out


_OUTBOX = cast(Table, OutboxMessage.__table__)
_ATTACHMENT = cast(Table, Attachment.__table__)
_QUEUE = insert(_OUTBOX)  # made once: every reply is queued through it


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A file stored for the outbox by :func:`store_files`: its attachment row, and whether
    its bytes are made (else the mails that carry it are held until they are)."""

    id: int
    ready: bool


def store_files(session: Session, files: Sequence[File]) -> tuple[StoredFile, ...]:
    """Store ``files`` (each once, by digest) in ``session``'s transaction, for
    :func:`queue_mail` calls that all carry them: a phase's picture goes to every reader's
    copy, and is looked up once, not once a copy."""
    connection, now = session.connection(), utcnow()
    return tuple(StoredFile(*_attachment(connection, f, now)) for f in files)


def queue_mail(session: Session, to: str | Iterable[str], subject: str, body: str, *,
               game: str | None = None, phase: str | None = None, kind: str = "reply",
               in_reply_to: str | None = None, archive: bool = False,
               headers: dict[str, str] | None = None, files: Sequence[File | StoredFile] = ()) -> int:
    """Insert one pending outbox row per distinct recipient in ``session``'s transaction (no
    commit); how many rows.

    ``in_reply_to`` (a Message-ID) becomes the In-Reply-To and References headers;
    ``headers`` are extra headers for the mail; ``archive`` makes the first row the game
    archive's copy of the mail; ``files`` are attached to every row (stored once each; or
    stored already, :func:`store_files`).
    Recipients without an address are skipped. The rows are inserted at once with plain
    statements (no ORM object to flush: every order mail queues its reply), so they are in
    the outbox in the order they were queued.
    """
    recipients = _recipients(to)
    if not recipients:
        return 0
    extra: dict[str, Any] = dict(headers or {})
    if in_reply_to:
        extra.setdefault("In-Reply-To", in_reply_to)
        extra.setdefault("References", in_reply_to)
    domain = session.info.get("mail_domain") or "localhost"
    now = utcnow()
    connection = session.connection()
    stored = [f if isinstance(f, StoredFile) else StoredFile(*_attachment(connection, f, now)) for f in files]
    status = OutboxStatus.PENDING if all(f.ready for f in stored) else OutboxStatus.HELD
    rows = [{"to_addr": addr, "subject": subject, "body": body, "headers": dict(extra), "game": game, "phase": phase,
             "kind": kind, "created_at": now, "status": status, "attempts": 0, "next_attempt_at": now,
             "message_id": new_message_id(domain), "archived": archive and n == 0}
            for n, addr in enumerate(recipients)]
    if not stored:
        connection.execute(_QUEUE, rows)
        return len(rows)
    ids = connection.execute(_QUEUE.returning(_OUTBOX.c.id, sort_by_parameter_order=True), rows).scalars().all()
    attachments = dict.fromkeys(f.id for f in stored)
    connection.execute(insert(outbox_file), [{"outbox_id": row_id, "attachment_id": aid}
                                             for row_id in ids for aid in attachments])
    return len(rows)


_FIND_ATTACHMENT = select(_ATTACHMENT.c.id, _ATTACHMENT.c.ready).where(_ATTACHMENT.c.digest == bindparam("digest"))


def _attachment(connection: Connection, file: File, now: datetime) -> tuple[int, bool]:
    """(id, ready) of the stored attachment holding ``file``: the one already there with its
    content, or a new one."""
    content = file.data if file.data or file.source is None else file.source.encode("utf-8")
    digest = hashlib.sha256(content).hexdigest()
    found = connection.execute(_FIND_ATTACHMENT, {"digest": digest}).first()
    if found is not None:
        return int(found[0]), bool(found[1])
    made = connection.execute(insert(_ATTACHMENT).returning(_ATTACHMENT.c.id).values(
        digest=digest, filename=file.filename, content_type=file.content_type, data=file.data,
        source=None if file.ready else file.source, ready=file.ready, created_at=now))
    return int(made.scalar_one()), file.ready


def waiting_attachments(session: Session, limit: int = 20) -> list[tuple[int, str]]:
    """(id, source) of attachments whose bytes are still to be made, oldest first."""
    query = select(Attachment.id, Attachment.source).where(Attachment.ready.is_(False)).order_by(Attachment.id)
    return [(aid, source or "") for aid, source in session.execute(query.limit(limit))]


def complete_attachment(session: Session, attachment_id: int, data: bytes) -> int:
    """Store the bytes made for an attachment (once: a second maker's are ignored) and let
    the held rows whose files are all ready go; how many rows became pending."""
    made = session.execute(update(Attachment).where(Attachment.id == attachment_id, Attachment.ready.is_(False))
                           .values(data=data, source=None, ready=True)
                           .execution_options(synchronize_session=False))
    if made.rowcount != 1:  # type: ignore[attr-defined]
        return 0  # gone, or made by another process first (its update held this one back)
    carries = select(outbox_file.c.outbox_id).where(outbox_file.c.attachment_id == attachment_id)
    still_waiting = (select(outbox_file.c.outbox_id)
                     .join(_ATTACHMENT, _ATTACHMENT.c.id == outbox_file.c.attachment_id)
                     .where(outbox_file.c.outbox_id == OutboxMessage.id, _ATTACHMENT.c.ready.is_(False)).exists())
    released = session.execute(update(OutboxMessage)
                               .where(OutboxMessage.id.in_(carries), OutboxMessage.status == OutboxStatus.HELD,
                                      ~still_waiting)
                               .values(status=OutboxStatus.PENDING, next_attempt_at=utcnow())
                               .execution_options(synchronize_session=False))
    return int(released.rowcount)  # type: ignore[attr-defined]


def archive_for(session: Session, game: str, kind: str | None = None) -> list[OutboxMessage]:
    """The archive copy of every mail queued for ``game`` (optionally only of ``kind``),
    oldest first."""
    query = select(OutboxMessage).where(OutboxMessage.game == game, OutboxMessage.archived.is_(True))
    if kind is not None:
        query = query.where(OutboxMessage.kind == kind)
    return list(session.scalars(query.order_by(OutboxMessage.id)))


def withdraw_mails(session: Session, game: str, kinds: Iterable[str], phases: Iterable[str] | None,
                   when: datetime) -> int:
    """Mark every row of ``game``'s mails of ``kinds`` (for ``phases``, or any phase) that
    is not withdrawn yet as withdrawn at ``when``; how many rows."""
    stmt = update(OutboxMessage).where(OutboxMessage.game == game, OutboxMessage.kind.in_(list(kinds)),
                                       OutboxMessage.withdrawn_at.is_(None))
    if phases is not None:
        stmt = stmt.where(OutboxMessage.phase.in_(list(phases)))
    done = session.execute(stmt.values(withdrawn_at=when))
    return int(getattr(done, "rowcount", 0) or 0)
