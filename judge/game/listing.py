"""What LIST, LIST game and SUMMARY show of games (njudge Bug91-11), and the master's view
of every power's orders (Bug91-08).

A finished game's listing says how it ended and lists nobody as late. SUMMARY lists
everyone who played a power, also those who resigned, were ejected or abandoned, or were
replaced (marked so), with
the supply centre counts of every year.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from .. import render
from ..engine import Position
from ..engine.phase import Phase
from ..store.games import (
    ABANDONED,
    ACTIVE,
    EJECTED,
    FINISHED,
    FORMING,
    PAUSED,
    PLAYER,
    RESIGNED,
    TERMINATED,
    Game,
    all_games,
    phase_records,
)
from . import lateness, orders, records
from .clocks import KIND_WORDS, clocks_of
from .mails import roster
from .press_rules import describe
from .takeover import alive_powers
from .view import GameView, view_of

#: How a finished game ended (``Game.ending``).
VICTORY, DRAW, CONCESSION, TERMINATION = "victory", "draw", "concession", "terminated"


def game_lines(session: Session) -> list[render.GameLine]:
    """LIST: one line per game, with the places open in it (a forming game's free places, a
    running game's abandoned powers)."""
    lines = []
    for g in all_games(session):
        view = view_of(session, g)
        players = len(view.members(PLAYER))
        needed = len(view.map.powers) - players if g.status == FORMING else 0
        vacant = len(openings(view)) if g.status in (ACTIVE, PAUSED) else 0
        lines.append(render.GameLine(g.name, view.map.title, g.phase, g.status, players, needed, vacant))
    return lines


def openings(view: GameView) -> list[str]:
    """The abandoned powers of a running game anyone may take over, in map order."""
    return [power for power in alive_powers(view) if view.player_of(power) is None]


def ending(view: GameView) -> str | None:
    """How a finished or terminated game ended, in a sentence; None while it goes on."""
    game = view.game
    if game.status == TERMINATED:
        return render.section("all/ending", how=TERMINATION, game=game.name, powers=[])
    if game.status != FINISHED:
        return None
    how = game.ending or (VICTORY if len(game.winners) == 1 else DRAW)
    return render.section("all/ending", how=how, game=game.name, powers=list(game.winners))


def power_orders(view: GameView) -> list[render.PowerOrders]:
    """Every power that must order: its state (``Move Required.``, ``Orders received.``...)
    and its orders as they stand, for the master (Bug91-08)."""
    board, position = view.board, view.position
    out = []
    for power in sorted(orders.required(board, position), key=view.power_rank):
        entries = view.entries(power)
        complete = orders.is_complete(board, position, power, entries)
        out.append(render.PowerOrders(power, complete, view.errors(power) > 0,
                                      orders.echo(board, position, power, entries)))
    return out


def listing(view: GameView, *, for_master: bool = False) -> render.Listing:
    """LIST game: deadlines, parameters, players and their state, the position; the master
    also sees every power's orders."""
    game = view.game
    position: Position | None = view.position if view.started else None
    over = game.status in (FINISHED, TERMINATED)
    waiting: list[str] = []
    status_of: dict[str, str] = {}
    if position is not None and not over:
        late = {p.power for p in lateness.late_players(view)}
        for power in orders.required(view.board, position):
            if power in late or not lateness.submitted(view, power):
                status_of[power] = "move"
                waiting.append(power)
    waiting.sort(key=view.power_rank)
    rows = [(role, status_of.get(role, ""), email) for role, email in roster(view)]
    vacant = openings(view) if game.status in (ACTIVE, PAUSED) else []
    for power in vacant:
        rows.insert(_row_at(view, rows, power), (power, "open", f"(abandoned: SIGNON {view.map.power(power).letter}"
                                                                 f"{game.name} password takes it over)"))
    params = [
        ("Options", ", ".join(f"{k}={v}" for k, v in sorted((game.options or {}).items())) or "none"),
        ("Press", describe(game.press, game.partial_press)),
        ("Status", game.status.capitalize()),
        ("Flags", "NMR" if game.nmr else "NoNMR"),
        ("Lateness", _lateness(game)),
        ("Joining", _joining(game)),
        ("Winning Centers", str(view.map.victory)),
    ]
    missed = {p.power: p.nmr_count for p in view.members(PLAYER) if p.power} if position else {}
    dedication = {p.email: records.record_of(view.session, p.email).dedication for p in view.members(PLAYER)}
    return render.Listing(
        position, game.deadline, game.grace_end, params, rows, waiting, missed,
        ended=ending(view), orders=power_orders(view) if for_master and position is not None and not over else None,
        at_grace="process" if game.nmr else "abandon", dedication=dedication, vacant=vacant,
        earliest=game.start_at if game.start_at is not None and not over else None,
        clocks=[f"{KIND_WORDS[k]:<7} {c.describe()}" for k, c in clocks_of(game.clocks).items()],
    )


def _row_at(view: GameView, rows: list[tuple[str, str, str]], power: str) -> int:
    """Where an open power's row goes among the player rows (map order, after the master)."""
    rank = view.power_rank(power)
    for i, (role, _, _) in enumerate(rows):
        if role not in ("Master", "Observer") and view.power_rank(role) > rank or role == "Observer":
            return i
    return len(rows)


def _lateness(game: Game) -> str:
    reminder = f"reminder {game.reminder:g} hours before the deadline" if game.reminder > 0 else "no reminder"
    absence = f"absences of at most {game.max_absence} days" if game.max_absence else "no absences"
    return f"{reminder}, {absence}."


def _joining(game: Game) -> str:
    parts = []
    if game.min_dedication is not None:
        parts.append(f"Dedication: {game.min_dedication}")
    if game.min_ontime is not None:
        parts.append(f"Ontime ratio: {game.min_ontime:.3f}")
    if game.max_cd_ratio is not None:
        parts.append(f"CD ratio at most: {game.max_cd_ratio:.3f}")
    return ", ".join(parts) + "." if parts else "anyone."


def summary(session: Session, view: GameView) -> tuple[list[tuple[Phase, dict[str, int]]], list[tuple[str, str]]]:
    """SUMMARY: the centre counts of every year (each spring's position, and the current
    one), and everyone who played a power (also those who resigned or were replaced)."""
    board = view.board
    rows: list[tuple[Phase, dict[str, int]]] = []
    for record in phase_records(session, view.game):
        pos = Position.from_json(board.map, record.position)
        if pos.phase.kind == "M" and pos.phase.season == "S":
            rows.append((pos.phase, pos.centre_counts()))
    if view.started:
        rows.append((view.position.phase, view.position.centre_counts()))
    people = list(roster(view))
    for p in view.game.players:
        if p.role == PLAYER and p.power and p.status in (RESIGNED, EJECTED, ABANDONED):
            mark = p.status
            if view.player_of(p.power) is not None:
                mark += ", replaced"
            people.append((f"{p.power} ({mark})", p.email))
    return rows, people
