"""What the judge holds for a later phase: postal press until the next results, and orders
entered in advance until the phase they are for.

- :class:`PostalPress`: one ``POSTAL PRESS`` message (njudge ``data/press``: "delayed until
  after the results of the current phase have been processed"), kept with the phase it was
  sent in, its sender's role and address as they were, until the phase is processed; then it
  goes to everyone with the results and ``delivered`` records that it went (in the same
  transaction as the results, so it goes once).
- :class:`FutureOrders`: a player's order lines for a later phase (njudge ``data/syntax``,
  "SUBMITTING ORDERS IN ADVANCE"), as written, conditions (``IF``/``ELSE``/``ENDIF``)
  included; ``wait`` is a ``SET WAIT`` (True) or ``SET NOWAIT`` (False) given for that phase,
  None when neither was. The lines are read again when the phase starts
  (:mod:`judge.game.future`); the row is removed then. It belongs to the player who wrote it
  (``player_id``): a new player of the power does not inherit it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, Text, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .base import Base, utcnow


class PostalPress(Base):
    """A postal press message waiting for the results of ``phase`` (see the module docstring)."""

    __tablename__ = "postal_press"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(16))
    role: Mapped[str] = mapped_column(String(32))
    author: Mapped[str] = mapped_column(String(320))
    body: Mapped[str] = mapped_column(Text)
    delivered: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class FutureOrders(Base):
    """One player's orders for one later phase (see the module docstring)."""

    __tablename__ = "future_orders"
    __table_args__ = (UniqueConstraint("game_id", "player_id", "phase", name="uq_future_orders_game_player_phase"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(32))
    phase: Mapped[str] = mapped_column(String(16))
    lines: Mapped[list[str]] = mapped_column(JSON, default=list)
    wait: Mapped[bool | None] = mapped_column(Boolean, default=None)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


# -- queries -------------------------------------------------------------------------------


def postal_waiting(session: Session, game_id: int) -> list[PostalPress]:
    """The game's postal press not delivered yet, oldest first."""
    stmt = select(PostalPress).where(PostalPress.game_id == game_id, PostalPress.delivered.is_(False))
    return list(session.scalars(stmt.order_by(PostalPress.id)))


def future_orders(session: Session, game_id: int, player_id: int | None = None) -> list[FutureOrders]:
    """The orders entered in advance in a game (of one player when ``player_id`` is given),
    in the order they were first entered."""
    stmt = select(FutureOrders).where(FutureOrders.game_id == game_id)
    if player_id is not None:
        stmt = stmt.where(FutureOrders.player_id == player_id)
    return list(session.scalars(stmt.order_by(FutureOrders.id)))
