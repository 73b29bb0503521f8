"""Pictures of phases as the web archive serves them, drawn once and kept.

A phase's picture (its SVG, and the PNG made from it) depends only on what it shows: the
game, the phase, the board's options, the position and, for a processed phase, its orders.
``PhasePicture.key`` is a digest of those (:func:`picture_key`, made by the caller from
the stored rows, without drawing anything), so a request finds the picture by its key and
serves the stored bytes; a picture that shows something else (a new phase, a phase played
again after a rollback) has another key. Several web processes may draw the same picture at
once; the first stored wins (the key is unique). A game keeps one picture of a phase not
processed yet (``processed`` false): the one of its position now; storing it removes the
game's others, which show positions that have gone.

A processed phase's picture is the one its result mail carried: the picture stage made that
PNG already (``judge.store.mail.Attachment``, stored by the digest of its SVG), and
:func:`mailed_png` finds it, so the web need not make it again.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

from sqlalchemy import ForeignKey, LargeBinary, String, Text, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from .base import Base, utcnow
from .mail import Attachment


class PhasePicture(Base):
    """One phase's picture of one game, as drawn for what ``key`` digests."""

    __tablename__ = "phase_picture"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(16))
    processed: Mapped[bool]
    svg: Mapped[str] = mapped_column(Text)
    png: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


def picture_key(*parts: object) -> str:
    """The digest of what a picture shows (JSON-able ``parts``: the drawing's version, the
    game, the phase, the options, the position, the orders)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stored_picture(session: Session, key: str) -> tuple[str, bytes] | None:
    """``(svg, png)`` of the picture stored under ``key``, or None."""
    row = session.execute(select(PhasePicture.svg, PhasePicture.png).where(PhasePicture.key == key)).first()
    return (row[0], row[1]) if row is not None else None


def mailed_png(session: Session, svg: str) -> bytes | None:
    """The PNG the picture stage made of ``svg`` for a mail (an attachment stored by the
    digest of its SVG), or None if no mail carried it or it is not made yet."""
    digest = hashlib.sha256(svg.encode("utf-8")).hexdigest()
    row = session.execute(select(Attachment.data).where(Attachment.digest == digest, Attachment.ready.is_(True))
                          ).first()
    return row[0] if row is not None and row[0] else None


def store_picture(session: Session, key: str, game_id: int, phase: str, svg: str, png: bytes, *,
                  processed: bool) -> None:
    """Keep a picture drawn under ``key`` (of a ``processed`` phase, or of the position
    now) and commit; another process's, stored first, wins."""
    try:
        if not processed:
            session.execute(delete(PhasePicture).where(PhasePicture.game_id == game_id,
                                                       PhasePicture.processed.is_(False), PhasePicture.key != key))
        session.add(PhasePicture(key=key, game_id=game_id, phase=phase, processed=processed, svg=svg, png=png))
        session.commit()
    except IntegrityError:
        session.rollback()
