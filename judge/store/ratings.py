"""The skill ratings' tables (issue 26; the computation is :mod:`judge.ratings`).

- :class:`PlayerRating`: one player's rating on one ladder: ``ladder`` is :data:`OVERALL`
  or a map's name; ``player`` an address (lower case) or ``bot``.
- :class:`RatedGame`: a finished game as the ratings saw it, in the order it was rated
  (``id``): ``status`` :data:`RATED` or :data:`LEFT_OUT` (``reason`` says why: an irregular
  game, one rolled back after its end); ``seats`` the inputs (each power's rank and who
  played it, with shares), so anyone can rate them again.
- :class:`RatingChange`: what the game did to one player on one ladder (before and after).

Rows are written in the transaction that ends the game (:mod:`judge.game.ratings`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .base import Base, utcnow

OVERALL = "overall"
RATED, LEFT_OUT = "rated", "left out"


class PlayerRating(Base):
    """One player's rating on one ladder."""

    __tablename__ = "player_rating"
    __table_args__ = (UniqueConstraint("ladder", "player", name="uq_player_rating_ladder_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ladder: Mapped[str] = mapped_column(String(32), index=True)
    player: Mapped[str] = mapped_column(String(320), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RatedGame(Base):
    """A finished game as the ratings took it (see the module docstring)."""

    __tablename__ = "rated_game"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), unique=True)
    game: Mapped[str] = mapped_column(String(32))
    map_name: Mapped[str] = mapped_column(String(32))
    ending: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default=RATED)
    reason: Mapped[str | None] = mapped_column(String(120), default=None)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    ended_at: Mapped[datetime] = mapped_column(default=utcnow)


class RatingChange(Base):
    """One game's contribution to one player's rating on one ladder."""

    __tablename__ = "rating_change"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rated_game_id: Mapped[int] = mapped_column(ForeignKey("rated_game.id", ondelete="CASCADE"), index=True)
    ladder: Mapped[str] = mapped_column(String(32))
    player: Mapped[str] = mapped_column(String(320), index=True)
    powers: Mapped[list[str]] = mapped_column(JSON, default=list)
    share: Mapped[float] = mapped_column(Float)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)


def ratings_of(session: Session, ladder: str, players: list[str], *, lock: bool = False) -> dict[str, PlayerRating]:
    """The rows of ``players`` on ``ladder`` that exist; with ``lock``, locked for update."""
    stmt = select(PlayerRating).where(PlayerRating.ladder == ladder, PlayerRating.player.in_(players))
    if lock:
        stmt = stmt.with_for_update()
    return {r.player: r for r in session.scalars(stmt)}


def player_ratings(session: Session, player: str) -> list[PlayerRating]:
    """Every ladder ``player`` is on, the overall one first."""
    rows = session.scalars(select(PlayerRating).where(PlayerRating.player == player))
    return sorted(rows, key=lambda r: (r.ladder != OVERALL, r.ladder))


def ladder_rows(session: Session, ladder: str) -> list[PlayerRating]:
    """A ladder's ratings, by player."""
    stmt = select(PlayerRating).where(PlayerRating.ladder == ladder).order_by(PlayerRating.player)
    return list(session.scalars(stmt))


def rated_games(session: Session) -> list[RatedGame]:
    """Every game the ratings took, in the order it was rated."""
    return list(session.scalars(select(RatedGame).order_by(RatedGame.id)))


def find_rated(session: Session, game_id: int) -> RatedGame | None:
    return session.scalar(select(RatedGame).where(RatedGame.game_id == game_id))


def changes_of(session: Session, rated: RatedGame) -> list[RatingChange]:
    stmt = select(RatingChange).where(RatingChange.rated_game_id == rated.id).order_by(RatingChange.id)
    return list(session.scalars(stmt))
