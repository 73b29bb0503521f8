"""What the web archive shows of a game: only what its players have already been mailed.

A processed phase is public once its result mail has gone out (an outbox row of kind
``result`` for that phase with status ``sent``); its orders, results text and picture
appear then and not before. Press is public only when it was broadcast (kind ``press``;
partial press, kind ``partial``, never appears) and sent, and only its archive copy, the
one its players read (never the master's copy, which names the sender of grey press).
What a page may show is :mod:`judge.game.disclosure`'s rule for its reader
(:data:`~judge.game.disclosure.PUBLIC`): no address at all (every text passes through
:func:`~judge.game.disclosure.public_text`; the pages print powers), no order before its
phase is processed. The current position is public once the game has started (the start
mail or the last result mail told everyone).

The board a game plays on is built in :func:`game_board`, the one place that knows how; a
processed phase is drawn on the board of the options it was judged by.

A game set NOLIST is left out of the list of games (its pages still answer). The results of
phases a ROLLBACK undid are not phases any more: the game's page lists them apart, as
withdrawn (:func:`withdrawn_results`), and a phase played again shows its new results.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..engine import Adjudication, Board, Options, Position, adjudicate, centre_counts
from ..engine.calendar import Calendar
from ..engine.phase import ADJUSTMENT, Phase
from ..game.disclosure import public_text
from ..game.view import entries_from_json
from ..maps import load_board
from ..render.pictures import DRAWING
from ..store.games import (
    FINISHED,
    FORMING,
    TERMINATED,
    Game,
    PhaseRecord,
    all_games,
    find_game,
    phase_records,
)
from ..store.mail import OutboxMessage, OutboxStatus
from ..store.pictures import picture_key


def game_board(game: Game, record: PhaseRecord | None = None) -> Board:
    """The board ``game`` plays on (its map with its options' edits, and its rules), or
    the one ``record``'s phase was judged on."""
    options = record.options if record is not None and record.options is not None else game.options
    return load_board(game.map_name, Options(options or {}))


def calendar_of(board: Board) -> Calendar:
    return board.rules.calendar


@dataclass(frozen=True)
class PhaseEntry:
    """One phase of a game as the archive lists it."""

    code: str
    title: str
    processed: bool


@dataclass(frozen=True)
class PhaseDetail:
    """A phase's page: the position before it, its adjudication (None for the current,
    unprocessed phase) and the results text as mailed."""

    game: Game
    board: Board
    entry: PhaseEntry
    position: Position
    adjudication: Adjudication | None
    results: str
    press: list[tuple[datetime, str]]
    picture_key: str


@dataclass(frozen=True)
class Withdrawn:
    """The results of a phase a rollback undid, as they were mailed."""

    phase: str
    title: str
    mailed: datetime
    withdrawn: datetime
    results: str


def public_games(session: Session) -> list[Game]:
    """The games the archive lists: all but those set NOLIST."""
    return [g for g in all_games(session) if g.listed]


def find_public_game(session: Session, name: str) -> Game | None:
    return find_game(session, name)


def _sent_results(session: Session, game: Game) -> set[str]:
    stmt = select(OutboxMessage.phase).where(
        OutboxMessage.game == game.name, OutboxMessage.kind == "result", OutboxMessage.status == OutboxStatus.SENT,
        OutboxMessage.withdrawn_at.is_(None))
    return {p for p in session.scalars(stmt) if p}


def withdrawn_results(session: Session, game: Game) -> list[Withdrawn]:
    """The mailed results that a rollback withdrew, oldest first."""
    stmt = select(OutboxMessage).where(
        OutboxMessage.game == game.name, OutboxMessage.kind == "result", OutboxMessage.archived.is_(True),
        OutboxMessage.status == OutboxStatus.SENT, OutboxMessage.withdrawn_at.is_not(None)).order_by(OutboxMessage.id)
    cal = calendar_of(game_board(game))
    return [Withdrawn(row.phase or "", cal.long_name(Phase.parse(row.phase)) if row.phase else "", row.created_at,
                      row.withdrawn_at, public_text(row.body))
            for row in session.scalars(stmt) if row.withdrawn_at is not None]


def public_records(session: Session, game: Game, *, public: bool = True) -> list[PhaseRecord]:
    """The processed phases whose results have been mailed (with ``public`` False, every
    processed phase: for the operator's ``judge map``), in game order (the last record of a
    phase code if it was ever processed twice)."""
    sent = _sent_results(session, game) if public else set()
    latest: dict[str, PhaseRecord] = {}
    for record in phase_records(session, game):
        if not public or record.phase in sent:
            latest[record.phase] = record
    return sorted(latest.values(), key=lambda r: r.seq)


def phases(session: Session, game: Game) -> list[PhaseEntry]:
    """The public phases of ``game``, then its current phase if it has started and is not
    over (a finished game's next phase never comes)."""
    cal = calendar_of(game_board(game))
    out = [PhaseEntry(r.phase, cal.long_name(Phase.parse(r.phase)), True) for r in public_records(session, game)]
    if game.status not in (FORMING, FINISHED, TERMINATED) and game.phase and game.position and game.phase not in {e.code for e in out}:
        out.append(PhaseEntry(game.phase, cal.long_name(Phase.parse(game.phase)), False))
    return out


def public_press(session: Session, game: Game, phase: str) -> list[tuple[datetime, str]]:
    """Broadcast press of ``phase`` that went out, oldest first: the archive copy of each
    (what its players read), addresses hidden."""
    stmt = select(OutboxMessage).where(
        OutboxMessage.game == game.name, OutboxMessage.kind == "press", OutboxMessage.phase == phase,
        OutboxMessage.archived.is_(True), OutboxMessage.status == OutboxStatus.SENT).order_by(OutboxMessage.id)
    return [(row.created_at, public_text(row.body)) for row in session.scalars(stmt)]


def phase_detail(session: Session, game: Game, code: str, *, public: bool = True) -> PhaseDetail | None:
    """The page of phase ``code`` of ``game``, or None if it is not public (yet); with
    ``public`` False, any processed phase (for operators)."""
    board = game_board(game)
    cal = calendar_of(board)
    for record in reversed(public_records(session, game, public=public)):
        if record.phase == code:
            board = game_board(game, record)
            position = Position.from_json(board.map, record.position)
            orders = [e.order for entries in entries_from_json(record.orders or {}).values() for e in entries]
            result = adjudicate(board, position, orders)
            entry = PhaseEntry(code, cal.long_name(position.phase), True)
            options = record.options if record.options is not None else game.options
            key = picture_key(DRAWING, game.id, game.name, code, options, record.position, record.orders)
            return PhaseDetail(game, board, entry, position, result, public_text(record.results),
                               public_press(session, game, code), key)
    if game.status != FORMING and game.phase == code and game.position:
        position = Position.from_json(board.map, game.position)
        entry = PhaseEntry(code, cal.long_name(position.phase), False)
        key = picture_key(DRAWING, game.id, game.name, code, game.options, game.position, None)
        return PhaseDetail(game, board, entry, position, None, "", public_press(session, game, code), key)
    return None


def centre_summary(session: Session, game: Game) -> tuple[list[str], list[tuple[int, list[int]]]]:
    """Centres by year, as SUMMARY prints them: the powers, then per year the count each
    power held at the start of it and after each year's adjustments."""
    board = game_board(game)
    m = board.map
    names = [p.name for p in m.powers]
    rows: dict[int, list[int]] = {}
    positions = [Position.from_json(m, r.position) for r in public_records(session, game)]
    if game.position and game.status != FORMING:
        positions.append(Position.from_json(m, game.position))
    for i, pos in enumerate(positions):
        if i == 0 or pos.phase.kind == ADJUSTMENT:
            counts = centre_counts(board, pos.owners)
            year = pos.phase.year if pos.phase.kind == ADJUSTMENT else pos.phase.year - 1
            rows[year] = [counts.get(n, 0) for n in names]
    return names, sorted(rows.items())
