"""Games, their players, the orders of the current phase and the record of past phases.

A game is ``forming`` until its last power is filled, then ``active`` (or ``paused`` by its
master) until it is ``finished`` (a victory) or ``terminated``. The master is a
:class:`Player` with role ``master`` and no power; observers have role ``observer``.

Times are aware UTC datetimes. The position is the engine's ``Position.to_json`` form.

Default deadlines (hours from the moment a phase starts), close to njudge's defaults of
``next 71`` for moves and ``next 23`` for retreats and adjustments, rounded to whole days:
movement 72 h, retreats 24 h, adjustments 24 h. A master changes the current deadline with
``SET DEADLINE``; the per-kind hours are game settings.

Grace (njudge ``grace 167`` for moves, ``71`` otherwise, rounded): a phase whose orders are
not all in at its deadline waits until ``grace`` (deadline + 168 h for movement, + 72 h for
retreats and adjustments); ``late_notice_sent`` records that this phase's late notice went
out. ``Player.nmr_count`` counts the phases a player let pass the deadline without complete
orders; ``Player.draw_vote`` is a vote for a draw in the current phase. ``press`` is
``white``, ``grey``, ``white/grey`` (both, white by default), ``grey/white`` or ``none``;
``partial_press`` allows press to some powers. ``Player.password_hash`` is the salted hash of
the player's password (:mod:`judge.store.passwords`); the typed password is never stored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    select,
)
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from .base import Base, utcnow

FORMING, ACTIVE, PAUSED, FINISHED, TERMINATED = "forming", "active", "paused", "finished", "terminated"
PLAYER, OBSERVER, MASTER = "player", "observer", "master"
RESIGNED, EJECTED, ELIMINATED = "resigned", "ejected", "eliminated"

DEFAULT_HOURS = {"M": 72.0, "R": 24.0, "B": 24.0}
DEFAULT_GRACE_HOURS = {"M": 168.0, "R": 72.0, "B": 72.0}


class Game(Base):
    """One game of Diplomacy on one map."""

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    map_name: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default=FORMING, index=True)
    phase: Mapped[str | None] = mapped_column(String(16), default=None)
    position: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    deadline: Mapped[datetime | None] = mapped_column(default=None, index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    moves_hours: Mapped[float] = mapped_column(Float, default=DEFAULT_HOURS["M"])
    retreats_hours: Mapped[float] = mapped_column(Float, default=DEFAULT_HOURS["R"])
    builds_hours: Mapped[float] = mapped_column(Float, default=DEFAULT_HOURS["B"])
    moves_grace: Mapped[float] = mapped_column(Float, default=DEFAULT_GRACE_HOURS["M"])
    retreats_grace: Mapped[float] = mapped_column(Float, default=DEFAULT_GRACE_HOURS["R"])
    builds_grace: Mapped[float] = mapped_column(Float, default=DEFAULT_GRACE_HOURS["B"])
    grace: Mapped[datetime | None] = mapped_column(default=None)
    late_notice_sent: Mapped[bool] = mapped_column(Boolean, default=False)
    press: Mapped[str] = mapped_column(String(16), default="white")
    partial_press: Mapped[bool] = mapped_column(Boolean, default=True)
    winners: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="Player.id"
    )

    def hours_for(self, kind: str) -> float:
        """Deadline hours for a phase kind (``M``/``R``/``B``)."""
        return {"M": self.moves_hours, "R": self.retreats_hours}.get(kind, self.builds_hours)

    def grace_for(self, kind: str) -> float:
        """Grace hours after the deadline for a phase kind (``M``/``R``/``B``)."""
        return {"M": self.moves_grace, "R": self.retreats_grace}.get(kind, self.builds_grace)

    @property
    def grace_end(self) -> datetime | None:
        """When the grace of the current phase ends (never before the deadline)."""
        if self.deadline is None:
            return None
        return self.deadline if self.grace is None or self.grace < self.deadline else self.grace

    @property
    def next_due(self) -> datetime | None:
        """The next moment the judge must act: the deadline, or the end of grace once the
        late notice has gone out."""
        return self.grace_end if self.late_notice_sent else self.deadline

    def __repr__(self) -> str:
        return f"Game({self.name!r}, {self.status}, {self.phase})"


class Player(Base):
    """Someone signed on to a game: a power's player, an observer, or the master."""

    __tablename__ = "player"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(320))
    power: Mapped[str | None] = mapped_column(String(32), default=None)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default=PLAYER)
    wait: Mapped[bool] = mapped_column(Boolean, default=False)
    preferences: Mapped[str] = mapped_column(String(64), default="")
    status: Mapped[str] = mapped_column(String(16), default="active")
    nmr_count: Mapped[int] = mapped_column(Integer, default=0)
    draw_vote: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="players")

    @property
    def active(self) -> bool:
        return self.status == "active"

    def __repr__(self) -> str:
        return f"Player({self.email!r}, {self.role}, {self.power})"


class OrderSet(Base):
    """The order lines a power has standing for one phase (later lines replace earlier
    orders for the same unit when they are stored, see ``judge.game.orders``)."""

    __tablename__ = "order_set"
    __table_args__ = (UniqueConstraint("game_id", "power", "phase", name="uq_order_set_game_power_phase"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(32))
    phase: Mapped[str] = mapped_column(String(16))
    lines: Mapped[list[str]] = mapped_column(JSON, default=list)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class PhaseRecord(Base):
    """One processed phase: the position before it, the orders given and the result lines."""

    __tablename__ = "phase_record"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_phase_record_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(16))
    position: Mapped[dict[str, Any]] = mapped_column(JSON)
    orders: Mapped[dict[str, list[str]]] = mapped_column(JSON, default=dict)
    results: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# -- queries -------------------------------------------------------------------------------


def find_game(session: Session, name: str, *, lock: bool = False) -> Game | None:
    """The game called ``name`` (any case); with ``lock``, its row is locked for update."""
    stmt = select(Game).where(Game.name == name.strip().lower())
    if lock:
        stmt = stmt.with_for_update()
    return session.scalars(stmt).first()


def all_games(session: Session) -> list[Game]:
    return list(session.scalars(select(Game).order_by(Game.name)))


def members(game: Game, *, roles: tuple[str, ...] = (PLAYER, OBSERVER, MASTER)) -> list[Player]:
    """Everyone who reads the game's mail (still in it, or eliminated) with one of ``roles``,
    in sign-on order."""
    return [p for p in game.players if p.role in roles and p.status in ("active", ELIMINATED)]


def player_for_power(game: Game, power: str) -> Player | None:
    for p in game.players:
        if p.role == PLAYER and p.power == power and p.active:
            return p
    return None


def order_set(session: Session, game: Game, power: str, phase: str) -> OrderSet | None:
    stmt = select(OrderSet).where(
        OrderSet.game_id == game.id, OrderSet.power == power, OrderSet.phase == phase
    )
    return session.scalars(stmt).first()


def order_sets(session: Session, game: Game, phase: str) -> dict[str, OrderSet]:
    stmt = select(OrderSet).where(OrderSet.game_id == game.id, OrderSet.phase == phase)
    return {o.power: o for o in session.scalars(stmt)}


def phase_records(session: Session, game: Game) -> list[PhaseRecord]:
    stmt = select(PhaseRecord).where(PhaseRecord.game_id == game.id).order_by(PhaseRecord.seq)
    return list(session.scalars(stmt))


def games_with_deadlines(session: Session) -> list[tuple[str, datetime]]:
    """(name, next moment due) of every active game with a deadline, soonest first: the
    deadline, or the end of grace once the phase's late notice went out."""
    stmt = select(Game.name, Game.deadline, Game.grace, Game.late_notice_sent).where(
        Game.status == ACTIVE, Game.deadline.is_not(None)
    )
    due: list[tuple[str, datetime]] = []
    for name, deadline, grace, late in session.execute(stmt):
        if deadline is None:
            continue
        due.append((name, max(deadline, grace) if late and grace is not None else deadline))
    return sorted(due, key=lambda item: item[1])
