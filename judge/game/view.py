"""One game as the judge works on it in one transaction: its row, board, position and orders.

A :class:`GameView` is built once per game per transaction (:func:`view_of` keeps it in the
session) and every part of the judge that looks at a game's board, position or orders goes
through it: the board is made once, the position read from its JSON once, and each power's
stored orders decoded once. Changes go through it too (:meth:`GameView.set_position`,
:meth:`GameView.store_orders`), so what it shows is always what the transaction will commit.

The inbox reads a batch of mails in one session, each mail in a savepoint of its own
(:mod:`judge.mail.inbox`). A game a mail locked (:func:`locked_view`) stays locked until the
batch commits, so its view is kept for the batch's next mails (:func:`keep_views`, at the end
of each mail): the next mail to the game finds it in the session instead of reading the game,
its players and its orders again. Nothing else writes the game's rows meanwhile: the database
holds them for the batch (the row lock on PostgreSQL, the write lock on SQLite), the judge
writes the game, its players and absences through the ORM (the session holds one object a
row, so every mail changes the kept ones) and its orders through the view. What is kept, and
when it is forgotten (any rollback, the transaction's end, a mail that keeps nothing), is
declared in :mod:`judge.store.kept`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import instance_state

from ..engine import Board, Map, Options, Order, Position, initial_position
from ..engine.phase import Phase
from ..maps import load_board
from ..store.base import utcnow
from ..store.codec import order_from_json, order_to_json
from ..store.games import (
    MASTER,
    OBSERVER,
    PLAYER,
    Game,
    Player,
    StoredOrders,
    find_game,
    load_players,
    members,
    order_sets,
    save_order_set,
)
from ..store.held import FutureOrders, future_orders
from ..store.kept import AS_OF, GAME_VIEWS, KEPT_ROWS, LOCKED_GAMES
from .clocks import Clock, clocks_of


def board_for(map_name: str, options: Mapping[str, Any]) -> Board:
    """The board of a map with a game's stored options (one per distinct value, see
    :func:`judge.maps.load_board`)."""
    return load_board(map_name, Options(options))


@dataclass(frozen=True, slots=True)
class Entry:
    """One stored order and the line the player wrote it in."""

    line: str
    order: Order


class GameView:
    """A game within one transaction (see the module docstring)."""

    def __init__(self, session: Session, game: Game) -> None:
        self.session = session
        self.game = game
        self.board = board_for(game.map_name, game.options or {})
        self._position: Position | None = None
        self._orders: dict[str, StoredOrders] | None = None
        self._entries: dict[str, list[Entry]] = {}
        self._errors_now: dict[str, int] = {}
        self._future: list[FutureOrders] | None = None
        state = inspect(game)
        if state.persistent and "players" not in state.dict and not load_players(session, game):
            self._future = []

    def next_mail(self) -> None:
        """Kept for an inbox batch's next mail (:func:`keep_views`): the errors counted for a
        mail start again."""
        self._errors_now = {}

    # -- board and position ------------------------------------------------------------

    @property
    def map(self) -> Map:
        return self.board.map

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def started(self) -> bool:
        return self.game.position is not None

    @property
    def position(self) -> Position:
        """The current position (the starting position while the game is forming)."""
        if self._position is None:
            raw = self.game.position
            self._position = Position.from_json(self.map, raw) if raw else initial_position(self.map)
        return self._position

    @property
    def phase(self) -> Phase:
        return self.position.phase

    # -- the moment the game stands as of (issue 23, rule 1) -----------------------------------

    def changed_since(self, moment: datetime) -> bool:
        """Whether the game changed after ``moment`` (a mail's arrival): a mail that arrived
        later was read for it, or its phase turned."""
        return self.game.changed_at is not None and self.game.changed_at > moment

    def mark_changed(self, moment: datetime | None = None) -> None:
        """The game stands as of ``moment`` (never moved back); by default the arrival of the
        mail being read in this session (:data:`AS_OF`), else now."""
        moment = moment or self.session.info.get(AS_OF) or utcnow()
        if self.game.changed_at is None or self.game.changed_at < moment:
            self.game.changed_at = moment

    def set_position(self, position: Position) -> None:
        """Make ``position`` the game's current position (the stored orders are for the old one)."""
        self.mark_changed()
        self.game.position = position.to_json(self.map)
        self.game.phase = position.phase.code
        self._position = position
        self._orders = None
        self._entries.clear()
        self._errors_now.clear()

    def clear_position(self) -> None:
        """The game is forming again (UNSTART): no position, no phase, no orders."""
        self.mark_changed()
        self.game.position = None
        self.game.phase = None
        self._position = None
        self._orders = None
        self._entries.clear()
        self._errors_now.clear()

    def reload_board(self) -> None:
        """The options changed (before the start): make the board again."""
        self.board = board_for(self.game.map_name, self.game.options or {})
        self._position = None

    def clock(self, kind: str | None = None) -> Clock:
        """The clock settings of ``kind`` (default: the current phase's)."""
        return clocks_of(self.game.clocks)[kind or self.phase.kind]

    # -- people --------------------------------------------------------------------------

    def members(self, *roles: str) -> list[Player]:
        """Everyone who reads the game's mail with one of ``roles`` (default: all)."""
        return members(self.game, roles=roles or (PLAYER, OBSERVER, MASTER))

    def player_of(self, power: str) -> Player | None:
        return next((p for p in self.game.players if p.role == PLAYER and p.power == power and p.active), None)

    def power_rank(self, power: str | None) -> int:
        names = [p.name for p in self.map.powers]
        return names.index(power) if power in names else len(names)

    # -- orders --------------------------------------------------------------------------

    def _sets(self) -> dict[str, StoredOrders]:
        if self._orders is None:
            self._orders = order_sets(self.session, self.game, self.game.phase) if self.game.phase else {}
        return self._orders

    def entries(self, power: str) -> list[Entry]:
        """The power's stored orders for the current phase, decoded once."""
        found = self._entries.get(power)
        if found is None:
            stored = self._sets().get(power)
            found = [Entry(e["line"], order_from_json(e["order"])) for e in (stored.entries if stored else [])]
            self._entries[power] = found
        return found

    def errors(self, power: str) -> int:
        """Errors in the last mail that gave ``power``'s orders (0: none, or no mail yet)."""
        stored = self._sets().get(power)
        return stored.errors if stored else 0

    def all_entries(self) -> dict[str, list[Entry]]:
        """Every power's stored orders for the current phase."""
        return {power: self.entries(power) for power in self._sets()}

    def orders(self) -> list[Order]:
        """Every stored order of the current phase, for the adjudicator."""
        return [e.order for entries in self.all_entries().values() for e in entries]

    def store_orders(self, power: str, entries: Sequence[Entry], errors: int) -> None:
        """Replace ``power``'s orders for the current phase; ``errors`` are this order
        block's, added to those of earlier blocks in the same transaction (one mail)."""
        errors += self._errors_now.get(power, 0)
        self._errors_now[power] = errors
        sets = self._sets()
        phase = self.game.phase
        assert phase is not None
        stored = StoredOrders([{"line": e.line, "order": order_to_json(e.order)} for e in entries], errors)
        save_order_set(self.session, self.game, power, phase, stored.entries, errors, new=power not in sets)
        sets[power] = stored
        self._entries[power] = list(entries)

    # -- orders entered in advance (judge.game.future) ---------------------------------------

    def future_orders(self, player: Player | None = None) -> list[FutureOrders]:
        """The game's orders entered in advance (``player``'s only, when given), first entered
        first; read once, kept as :meth:`keep_future` and :meth:`drop_future` change them."""
        if self._future is None:
            self._future = future_orders(self.session, self.game.id)
        return [r for r in self._future if player is None or r.player_id == player.id]

    def keep_future(self, row: FutureOrders) -> None:
        """Add a new row of orders entered in advance."""
        self.future_orders()
        assert self._future is not None
        self.session.add(row)
        self._future.append(row)

    def drop_future(self, row: FutureOrders) -> None:
        """Remove a row of orders entered in advance (one added in this transaction and not
        written yet is only forgotten). The row is deleted at once, not at the next flush: a
        flush inserts before it deletes, so a new row for the same phase in the same mail
        (``CLEAR`` then ``PHASE``) would break the table's one-row-a-phase constraint."""
        self.future_orders()
        assert self._future is not None
        if inspect(row).pending:
            self.session.expunge(row)
        else:
            self.session.delete(row)
            self.session.flush()
        self._future.remove(row)


def entries_to_json(entries: Mapping[str, Sequence[Entry]]) -> dict[str, list[dict[str, Any]]]:
    """Per power, the stored form of its entries (for the phase record)."""
    return {power: [{"line": e.line, "order": order_to_json(e.order)} for e in items]
            for power, items in entries.items()}


def entries_from_json(data: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list[Entry]]:
    """The inverse of :func:`entries_to_json`."""
    return {power: [Entry(str(e["line"]), order_from_json(e["order"])) for e in items]
            for power, items in data.items()}


def view_of(session: Session, game: Game) -> GameView:
    """The one view of ``game`` in ``session``'s transaction."""
    views: dict[str, GameView] = session.info.setdefault(GAME_VIEWS, {})
    view = views.get(game.name)
    if view is None or view.game is not game:
        view = GameView(session, game)
        views[game.name] = view
    return view


def game_row(session: Session, name: str) -> Game | None:
    """The row of the game called ``name``: the one this transaction's view of it holds
    (no query), else read with :func:`find_game`."""
    view: GameView | None = session.info.get(GAME_VIEWS, {}).get(name.strip().lower())
    if view is not None and _held(session, view):
        return view.game
    return find_game(session, name)


def forget_views(session: Session) -> None:
    """Drop the session's views (the game changed under them: they are read again)."""
    session.info.pop(GAME_VIEWS, None)
    session.info.pop(LOCKED_GAMES, None)


def locked_view(session: Session, name: str) -> GameView | None:
    """The view of the game called ``name`` with its row locked for the transaction, or None:
    the one the session holds when the transaction locked the row before (in an inbox batch,
    maybe an earlier mail: see the module docstring), else read with :func:`find_game`. A
    game the session read before it was locked is not taken for locked (it may have changed
    in between, on PostgreSQL), so its view is not kept for a batch's next mail."""
    key = name.strip().lower()
    locked: set[str] = session.info.setdefault(LOCKED_GAMES, set())
    view: GameView | None = session.info.get(GAME_VIEWS, {}).get(key)
    if key in locked and view is not None and _held(session, view):
        return view
    read_before = any(isinstance(obj, Game) and inspect(obj).dict.get("name") == key
                      for obj in session.identity_map.values())
    row = find_game(session, name, lock=True)
    if row is None:
        return None
    if not read_before:
        locked.add(key)
    return view_of(session, row)


def keep_views(session: Session) -> None:
    """At the end of a mail (in an inbox batch: :func:`judge.store.kept.next_mail` lets go of
    every other row before the next one): keep the views of the games it locked whose rows are
    as a fresh read would give them, and forget the others (see the module docstring)."""
    session.flush()
    views: dict[str, GameView] = session.info.get(GAME_VIEWS, {})
    locked: set[str] = session.info.get(LOCKED_GAMES, set())
    kept = {name: view for name, view in views.items() if name in locked and _held(session, view) and _whole(view)}
    for view in kept.values():
        view.next_mail()
    session.info[GAME_VIEWS] = kept
    session.info[LOCKED_GAMES] = set(kept)
    session.info[KEPT_ROWS] = [obj for view in kept.values() for obj in _objects(view)]


def _held(session: Session, view: GameView) -> bool:
    """Whether the view's game is still in ``session`` (not deleted)."""
    return view.game in session and view.game not in session.deleted


def _objects(view: GameView) -> list[object]:
    """The rows a view holds: the game, its players, their absences, its orders entered in
    advance."""
    players = view.game.players
    return [view.game, *players, *(a for p in players for a in p.absences), *(view._future or ())]


def _whole(view: GameView) -> bool:
    """Whether the view's rows are as a fresh read would give them: none deleted, players and
    absences in the order they are read in."""
    players = view.game.players
    if any(instance_state(obj).was_deleted for obj in _objects(view)):
        return False
    if [p.id for p in players] != sorted(p.id for p in players):
        return False
    return all([(a.starts, a.id) for a in p.absences] == sorted((a.starts, a.id) for a in p.absences)
               for p in players)
