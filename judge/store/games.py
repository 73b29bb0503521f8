"""Games, their players, the orders of the current phase and the record of past phases.

A game is ``forming`` until its last power is filled, then ``active`` (or ``paused`` by its
master) until it is ``finished`` or ``terminated``; ``ending`` says how a finished game
ended (``victory``, ``draw``, ``concession``) and ``winners`` who won or drew. The master is a
:class:`Player` with role ``master`` and no power; observers have role ``observer``.

Times are aware UTC datetimes. The position is the engine's ``Position.to_json`` form.

Deadlines: ``clocks`` holds the game's njudge clock settings per phase kind (``M``, ``R``,
``B``: next, clock, min, grace, delay, days; read by ``judge.game.clocks``; empty means
njudge's defaults). ``deadline`` is the current phase's deadline, ``grace`` the end of its
grace period, and ``process_at`` the moment a phase whose orders are all in is processed
(the clock's ``delay`` after the last required orders came in); ``late_notice_sent``
records that the phase's late notice went out. ``due_at`` is the next moment anything is
due for the game (reminder, late notice, deadline, end of grace, processing): the deadline
queue's key, kept by :mod:`judge.game.due` whenever a column it depends on changes. ``Player.nmr_count`` counts the phases a
player let pass the deadline without complete orders; ``Player.draw_vote`` is a vote for a
draw in the current phase. ``press`` is ``white``, ``grey``, ``white/grey`` (both, white by
default), ``grey/white`` or ``none``; ``partial_press`` allows press to some powers. ``Game.pictures`` (the master's switch) and
``Player.pictures`` (each reader's) say whether result mails carry the map picture. ``Player.password_hash`` is the salted hash of
the player's password (:mod:`judge.store.passwords`); the typed password is never stored.

The rest of njudge's press settings (``data/press``, read by ``judge.game.press_rules``):
``fake_press`` is ``no`` (No Fake), ``may`` (Partial may be Faked), ``default`` (Partial Fakes
Broadcast by default) or ``always`` (Partial Fakes Broadcast); ``postal_press`` allows
``POSTAL PRESS``; ``observer_press`` is ``any``, ``partial``, ``white`` or ``none``;
``must_order`` (MustOrder) keeps a player without submitted orders to press to the master;
``minor_press``, ``late_press`` and ``grace_press`` allow press in retreat and adjustment
phases, from late players, and during grace; ``blank_press`` allows empty press;
``all_press`` sends the master a copy of press to some powers. ``reply_play`` puts a
per-player ``Reply-To`` on the game's mail (``judge.game.tokens``).

The master's settings (njudge ``data/master``, ``data/draws``): ``dias`` (draws include all
survivors; off: NoDIAS, a draw among the powers every survivor's list allows), ``concessions``
(``SET CONCEDE`` allowed in a DIAS game), ``gunboat`` (players' addresses are never shown to
each other), ``listed`` (off: ``SET NOLIST``, the game is left out of ``LIST``),
``manual_start`` (a forming game waits for ``FORCE BEGIN`` or ``SET AUTOSTART``, as after
``UNSTART``), ``rollbacks`` (how many ``ROLLBACK``s the game had), ``cd_mode`` (``hold`` or
``bot``: what a power in civil disorder does, ``SET CD``), ``bot_powers`` (the seats the master
gave the judge's bot, ``SET BOT``; ``PhaseRecord.bot_powers``: whose orders it wrote). ``min_rating`` (``SET
MINRATING``: the least rating display value of anyone joining), ``irregular`` (why the game
is irregular and left out of the ratings, njudge's flag for a "bgs" setting changed after
the start; see :mod:`judge.game.ratings`). ``Player.draw_powers`` is
a NoDIAS vote's list of powers (empty: all survivors), ``Player.concede_to`` the power a
player concedes to in the current phase, ``Player.since_phase`` the phase in which a player
began to play their power and ``Player.until_phase`` the one in which they stopped (resigned,
ejected).

A ``PhaseRecord`` with ``withdrawn`` > 0 was undone by the game's ``withdrawn``-th rollback:
it stays, for the archive, but no longer counts; ``options`` are the game options the phase
was judged by. An archived result mail of such a phase has ``withdrawn_at`` set
(:mod:`judge.store.mail`).

A power's orders for a phase are an :class:`OrderSet`: its accepted orders as the engine's
values (``judge.store.codec``), each with the line the player wrote, and how many errors the
last mail that gave orders for it had (njudge: "an error free set of orders will be
required to set the 'has submitted orders' status").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    Select,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    exists,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, aliased, mapped_column, relationship
from sqlalchemy.orm.attributes import set_committed_value

from .base import Base, utcnow
from .held import FutureOrders


class GameStatus(StrEnum):
    """``Game.status``."""

    FORMING = "forming"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"
    TERMINATED = "terminated"


class Role(StrEnum):
    """``Player.role``."""

    PLAYER = "player"
    OBSERVER = "observer"
    MASTER = "master"


class PlayerStatus(StrEnum):
    """``Player.status``: in the game (``active``), or how a member left it."""

    ACTIVE = "active"
    RESIGNED = "resigned"
    EJECTED = "ejected"
    ELIMINATED = "eliminated"
    ABANDONED = "abandoned"


#: The members by their short names, as the game layer reads them.
FORMING, ACTIVE, PAUSED, FINISHED, TERMINATED = GameStatus
PLAYER, OBSERVER, MASTER = Role
RESIGNED, EJECTED, ELIMINATED, ABANDONED = (PlayerStatus.RESIGNED, PlayerStatus.EJECTED, PlayerStatus.ELIMINATED,
                                            PlayerStatus.ABANDONED)

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
    clocks: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    grace: Mapped[datetime | None] = mapped_column(default=None)
    process_at: Mapped[datetime | None] = mapped_column(default=None)
    late_notice_sent: Mapped[bool] = mapped_column(Boolean, default=False)
    press: Mapped[str] = mapped_column(String(16), default="white")
    partial_press: Mapped[bool] = mapped_column(Boolean, default=True)
    # -- press rules and reply to play (judge.game.press_rules, judge.game.tokens) ------------
    fake_press: Mapped[str] = mapped_column(String(16), default="no")
    postal_press: Mapped[bool] = mapped_column(Boolean, default=False)
    observer_press: Mapped[str] = mapped_column(String(16), default="any")
    must_order: Mapped[bool] = mapped_column(Boolean, default=False)
    minor_press: Mapped[bool] = mapped_column(Boolean, default=True)
    late_press: Mapped[bool] = mapped_column(Boolean, default=True)
    grace_press: Mapped[bool] = mapped_column(Boolean, default=True)
    blank_press: Mapped[bool] = mapped_column(Boolean, default=False)
    all_press: Mapped[bool] = mapped_column(Boolean, default=True)
    reply_play: Mapped[bool] = mapped_column(Boolean, default=True)
    winners: Mapped[list[str]] = mapped_column(JSON, default=list)
    ending: Mapped[str | None] = mapped_column(String(16), default=None)
    pictures: Mapped[bool] = mapped_column(Boolean, default=True)
    dias: Mapped[bool] = mapped_column(Boolean, default=True)
    concessions: Mapped[bool] = mapped_column(Boolean, default=True)
    gunboat: Mapped[bool] = mapped_column(Boolean, default=False)
    listed: Mapped[bool] = mapped_column(Boolean, default=True)
    manual_start: Mapped[bool] = mapped_column(Boolean, default=False)
    rollbacks: Mapped[int] = mapped_column(Integer, default=0)
    nmr: Mapped[bool] = mapped_column(Boolean, default=False)
    cd_mode: Mapped[str] = mapped_column(String(8), default="hold")  # SET CD BOT / SET CD HOLD
    bot_powers: Mapped[list[str]] = mapped_column(JSON, default=list)  # seats the master gave the bot
    reminder: Mapped[float] = mapped_column(Float, default=8.0)
    reminded_for: Mapped[datetime | None] = mapped_column(default=None)
    late_notices: Mapped[int] = mapped_column(Integer, default=0)
    due_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    start_at: Mapped[datetime | None] = mapped_column(default=None)
    zone: Mapped[str | None] = mapped_column(String(64), default=None)
    max_absence: Mapped[int] = mapped_column(Integer, default=15)
    min_dedication: Mapped[int | None] = mapped_column(Integer, default=None)
    min_ontime: Mapped[float | None] = mapped_column(Float, default=None)
    max_cd_ratio: Mapped[float | None] = mapped_column(Float, default=None)
    min_rating: Mapped[float | None] = mapped_column(Float, default=None)
    irregular: Mapped[str | None] = mapped_column(String(120), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    #: The moment the game stands as of: the arrival of the latest mail read for it, or when
    #: its phase last turned (:meth:`judge.game.view.GameView.mark_changed`). A mail that
    #: arrived before it is not applied (issue 23, rule 1).
    changed_at: Mapped[datetime | None] = mapped_column(default=None)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="Player.id"
    )

    @property
    def grace_end(self) -> datetime | None:
        """When the grace of the current phase ends (never before the deadline)."""
        if self.deadline is None:
            return None
        return self.deadline if self.grace is None or self.grace < self.deadline else self.grace

    def __repr__(self) -> str:
        return f"Game({self.name!r}, {self.status}, {self.phase})"


class Player(Base):
    """Someone signed on to a game: a power's player, an observer, or the master."""

    __tablename__ = "player"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(320), index=True)
    power: Mapped[str | None] = mapped_column(String(32), default=None)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default=PLAYER)
    wait: Mapped[bool] = mapped_column(Boolean, default=False)
    preferences: Mapped[str] = mapped_column(String(64), default="")
    status: Mapped[str] = mapped_column(String(16), default=PlayerStatus.ACTIVE)
    nmr_count: Mapped[int] = mapped_column(Integer, default=0)
    draw_vote: Mapped[bool] = mapped_column(Boolean, default=False)
    pictures: Mapped[bool] = mapped_column(Boolean, default=True)
    draw_powers: Mapped[list[str]] = mapped_column(JSON, default=list)
    concede_to: Mapped[str | None] = mapped_column(String(32), default=None)
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    since_phase: Mapped[str | None] = mapped_column(String(16), default=None)
    until_phase: Mapped[str | None] = mapped_column(String(16), default=None)
    zone: Mapped[str | None] = mapped_column(String(64), default=None)
    on_time: Mapped[int] = mapped_column(Integer, default=0)
    late_phases: Mapped[int] = mapped_column(Integer, default=0)
    late_notices: Mapped[int] = mapped_column(Integer, default=0)
    was_late: Mapped[bool] = mapped_column(Boolean, default=False)
    took_over: Mapped[bool] = mapped_column(Boolean, default=False)
    abandonments: Mapped[int] = mapped_column(Integer, default=0)

    game: Mapped[Game] = relationship(back_populates="players")
    absences: Mapped[list[Absence]] = relationship(
        back_populates="player", cascade="all, delete-orphan", order_by="Absence.starts"
    )

    @property
    def active(self) -> bool:
        return self.status == PlayerStatus.ACTIVE

    def __repr__(self) -> str:
        return f"Player({self.email!r}, {self.role}, {self.power})"


class Absence(Base):
    """A period a player or master declared they are away (njudge ``data/absence``): a later
    deadline that would fall in it moves to its end. ``by_master``: set by a master, so the
    game's ``max_absence`` does not bound it."""

    __tablename__ = "absence"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), index=True)
    starts: Mapped[datetime]
    ends: Mapped[datetime]
    by_master: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    player: Mapped[Player] = relationship(back_populates="absences")


class DiaryEntry(Base):
    """One entry of a player's diary (njudge ``DIARY``): numbered from 1 for the player,
    the text as written, when it was written. Deleting an entry deletes its row; numbers are
    not given again (the next is one more than the highest kept, as njudge's)."""

    __tablename__ = "diary_entry"
    __table_args__ = (UniqueConstraint("player_id", "number", name="uq_diary_entry_player_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    written: Mapped[datetime]
    body: Mapped[str] = mapped_column(Text)


class OrderSet(Base):
    """The orders a power has standing for one phase: ``entries`` is a list of
    ``{"line": as written, "order": judge.store.codec form}`` (later orders replace earlier
    ones for the same unit, see ``judge.game.orders``); ``errors`` the number of errors in
    the last mail that gave orders for the power."""

    __tablename__ = "order_set"
    __table_args__ = (UniqueConstraint("game_id", "power", "phase", name="uq_order_set_game_power_phase"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(32))
    phase: Mapped[str] = mapped_column(String(16))
    entries: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    errors: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class PhaseRecord(Base):
    """One processed phase: the position before it, the orders given (per power, entries as
    in :class:`OrderSet`), the options it was judged by and the result mail's text;
    ``withdrawn`` is 0, or the number of the rollback that undid it."""

    __tablename__ = "phase_record"
    __table_args__ = (UniqueConstraint("game_id", "seq", "withdrawn", name="uq_phase_record_game_seq_withdrawn"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(16))
    position: Mapped[dict[str, Any]] = mapped_column(JSON)
    orders: Mapped[dict[str, list[dict[str, Any]]]] = mapped_column(JSON, default=dict)
    results: Mapped[str] = mapped_column(Text, default="")
    options: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    withdrawn: Mapped[int] = mapped_column(Integer, default=0)
    bot_powers: Mapped[list[str]] = mapped_column(JSON, default=list)  # whose orders the bot wrote
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# -- queries -------------------------------------------------------------------------------


def find_game(session: Session, name: str, *, lock: bool = False) -> Game | None:
    """The game called ``name`` (any case); with ``lock``, its row is locked for update."""
    return session.execute(_FIND_LOCKED if lock else _FIND, {"name": name.strip().lower()}).scalar()


#: :func:`find_game`'s statements, made once: building a statement for each call costs a
#: third of running it.
_FIND = select(Game).where(Game.name == bindparam("name", type_=String))
_FIND_LOCKED = _FIND.with_for_update()


def all_games(session: Session) -> list[Game]:
    return list(session.scalars(select(Game).order_by(Game.name)))


def members(game: Game, *, roles: tuple[str, ...] = (PLAYER, OBSERVER, MASTER)) -> list[Player]:
    """Everyone who reads the game's mail (still in it, or eliminated) with one of ``roles``,
    in sign-on order."""
    return [p for p in game.players if p.role in roles and p.status in (PlayerStatus.ACTIVE, ELIMINATED)]


@dataclass(frozen=True, slots=True)
class StoredOrders:
    """A power's :class:`OrderSet` for one phase as read: its entries and errors."""

    entries: list[dict[str, Any]]
    errors: int


def order_sets(session: Session, game: Game, phase: str) -> dict[str, StoredOrders]:
    """Each power's stored orders for ``phase``, read without the ORM (the game view keeps
    them and writes them with :func:`save_order_set`)."""
    rows = session.execute(_ORDER_SETS, {"game_id": game.id, "phase": phase})
    return {power: StoredOrders(entries, errors) for power, entries, errors in rows}


def save_order_set(session: Session, game: Game, power: str, phase: str, entries: list[dict[str, Any]],
                   errors: int, *, new: bool) -> None:
    """Store a power's orders for ``phase`` at once, in one statement: a new row, or the
    power's row replaced."""
    if new:
        session.execute(_INSERT_ORDER_SET, {"game_id": game.id, "power": power, "phase": phase, "entries": entries,
                                            "errors": errors})
    else:
        session.execute(_UPDATE_ORDER_SET, {"set_game": game.id, "set_power": power, "set_phase": phase,
                                            "entries": entries, "errors": errors})


_ORDER_SET_TABLE = cast(Table, OrderSet.__table__)
_ORDER_SET = _ORDER_SET_TABLE.c
_ORDER_SETS = select(_ORDER_SET.power, _ORDER_SET.entries, _ORDER_SET.errors).where(
    _ORDER_SET.game_id == bindparam("game_id"), _ORDER_SET.phase == bindparam("phase"))
_INSERT_ORDER_SET = insert(_ORDER_SET_TABLE)
_UPDATE_ORDER_SET = (update(_ORDER_SET_TABLE)
                     .where(_ORDER_SET.game_id == bindparam("set_game"), _ORDER_SET.power == bindparam("set_power"),
                            _ORDER_SET.phase == bindparam("set_phase")))


def phase_records(session: Session, game: Game, *, withdrawn: bool = False) -> list[PhaseRecord]:
    """The game's processed phases that still count, in order; with ``withdrawn``, only
    those undone by rollbacks (oldest rollback first)."""
    stmt = select(PhaseRecord).where(PhaseRecord.game_id == game.id)
    if withdrawn:
        stmt = stmt.where(PhaseRecord.withdrawn > 0).order_by(PhaseRecord.withdrawn, PhaseRecord.seq)
    else:
        stmt = stmt.where(PhaseRecord.withdrawn == 0).order_by(PhaseRecord.seq)
    return list(session.scalars(stmt))


def load_players(session: Session, game: Game) -> bool:
    """Load ``game.players`` and each player's ``absences`` in one statement when the game
    has no absences (two when it has), instead of one for the players and one per player;
    whether the game holds orders entered in advance (``judge.store.held``), asked in the
    same statement so that a mail without them reads none. Call it after the game's row lock:
    on PostgreSQL a statement that waited for the lock still reads from before it."""
    rows = session.execute(_PLAYERS, {"game_id": game.id}).all()
    players = [row[0] for row in rows]
    set_committed_value(game, "players", players)
    found: dict[int, list[Absence]] = {p.id: [] for p in players}
    if rows and rows[0][1]:
        for absence in session.scalars(_ABSENCES, {"game_id": game.id}):
            found[absence.player_id].append(absence)
    for p in players:
        if "absences" not in inspect(p).dict:
            set_committed_value(p, "absences", found[p.id])
    return bool(rows and rows[0][2])


def _players_statement() -> Select[tuple[Player, bool, bool]]:
    member = aliased(Player)
    game_id = bindparam("game_id", type_=Integer)
    has_absences = exists().where(Absence.player_id == member.id, member.game_id == game_id).correlate(None)
    has_future = exists().where(FutureOrders.game_id == game_id).correlate(None)
    return select(Player, has_absences, has_future).where(Player.game_id == game_id).order_by(Player.id)


#: :func:`load_players`' statements, made once (building them costs more than running them).
_PLAYERS = _players_statement()
_ABSENCES = (select(Absence).join(Player, Absence.player_id == Player.id)
             .where(Player.game_id == bindparam("game_id")).order_by(Absence.starts, Absence.id))


def game_absences(session: Session, game: Game) -> list[Absence]:
    """Every absence declared in ``game``: from the players' loaded lists (:func:`load_players`),
    else in one query, not one per player."""
    if "players" in inspect(game).dict and all("absences" in inspect(p).dict for p in game.players):
        return [a for p in game.players for a in p.absences]
    stmt = select(Absence).join(Player, Absence.player_id == Player.id).where(Player.game_id == game.id)
    return list(session.scalars(stmt))


def players_with_address(session: Session, address: str) -> list[Player]:
    """Every place ``address`` has or had in any game (WHOIS), oldest first."""
    stmt = select(Player).where(Player.email == address.strip().lower()).order_by(Player.id)
    return list(session.scalars(stmt))
