"""What LIST, LIST FULL and LIST game show of games (njudge Bug91-11, ``data/index``), the
master's view of every power's orders (Bug91-08), and WHOGAME.

LIST leaves out the games set NOLIST (njudge: "a LIST command that lists all current games
will not display this game"; ``LIST name`` still shows it). LIST FULL adds each game's
players. A running game's abandoned powers are listed as open for takeover (both in LIST
and in LIST game, with the sign-on that takes one over). A finished game's listing says how
it ended and lists nobody as late. In a gunboat
game only the master sees the players' addresses until it is over (:mod:`.disclosure`), and
so only the master sees their skill ratings (:mod:`.ratings`), which LIST game shows after
each address.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from .. import render
from ..bots import BOT_NAME
from ..engine import Position, tally
from ..ratings import fresh
from ..store.games import (
    ACTIVE,
    FINISHED,
    FORMING,
    MASTER,
    OBSERVER,
    PAUSED,
    PLAYER,
    TERMINATED,
    Game,
    Player,
    all_games,
)
from . import botseats, lateness, orders, ratings, records
from .clocks import KIND_WORDS, clocks_of
from .disclosure import Reader, address_for, sees_identities
from .ending import ending_text
from .mails import role_of, roster_for
from .press_rules import describe, rules_of
from .takeover import abandoned
from .view import GameView, view_of


def game_lines(session: Session, *, full: bool = False) -> list[render.GameLine]:
    """LIST: one line per listed game; with ``full``, each with its players (LIST FULL)."""
    lines = []
    for g in all_games(session):
        if not g.listed:
            continue
        view = view_of(session, g)
        players = len(view.members(PLAYER))
        needed = len(view.map.powers) - players if g.status == FORMING else 0
        people = tuple(roster_for(view, None)) if full else ()
        lines.append(render.GameLine(g.name, view.map.title, g.phase, g.status, players, needed, people,
                                     tuple(openings(view))))
    return lines


def openings(view: GameView) -> list[str]:
    """The abandoned powers of a running game, open for takeover, in map order."""
    if not view.started or view.game.status not in (ACTIVE, PAUSED):
        return []
    return [p.name for p in view.map.powers if abandoned(view, p.name)]


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


def listing(view: GameView, *, for_master: bool = False, reader: Player | None = None) -> render.Listing:
    """LIST game: deadlines, parameters, players and their state, the position; the master
    also sees every power's orders. ``reader`` is who asks (None: someone not signed on)."""
    game = view.game
    position: Position | None = view.position if view.started else None
    over = game.status in (FINISHED, TERMINATED)
    waiting: list[str] = []
    status_of: dict[str, str] = {}
    if position is not None and not over:
        late = {p.power for p in lateness.late_players(view)}
        for power in orders.required(view.board, position):
            if botseats.plays(view, power):
                continue
            if power in late or not lateness.submitted(view, power):
                status_of[power] = "move"
                waiting.append(power)
    waiting.sort(key=view.power_rank)
    rows = [(role, status_of.get(role, ""), email) for role, email in roster_for(view, reader)]
    vacant = openings(view)
    for power in vacant:
        taking = f"SIGNON {view.map.power(power).letter}{game.name} password takes it over"
        rows.insert(_row_at(view, rows, power), (power, "bot", f"(played by {BOT_NAME}: {taking})") if botseats.plays(view, power)
                    else (power, "open", f"(abandoned: {taking})"))
    params = [
        ("Options", ", ".join(f"{k}={v}" for k, v in sorted((game.options or {}).items())) or "none"),
        ("Press", describe(rules_of(game))),
        ("Draws", _draws(view)),
        ("Flags", _flags(view)),
        ("Status", game.status.capitalize()),
        ("Lateness", _lateness(game)),
        ("Civil Disorder", f"played by {BOT_NAME}" if game.cd_mode == botseats.BOT else "units hold"),
        *([("Bot Seats", ", ".join(game.bot_powers))] if game.bot_powers else []),
        ("Joining", _joining(game)),
        ("Winning Centers", str(view.map.victory)),
    ]
    missed = {p.power: p.nmr_count for p in view.members(PLAYER) if p.power} if position else {}
    dedication = {p.email: records.record_of(view.session, p.email).dedication for p in view.members(PLAYER)}
    rated = {p.email: f"{(ratings.rating_of(view.session, p.email) or fresh()).display:.2f}"
             for p in view.members(PLAYER)} if sees_identities(game, reader) else {}
    return render.Listing(
        position, game.deadline, game.grace_end, params, rows, waiting, missed,
        ended=ending_text(view), orders=power_orders(view) if for_master and position is not None and not over else None,
        at_grace="process" if game.nmr else "abandon", dedication=dedication, ratings=rated, vacant=vacant,
        earliest=game.start_at if game.start_at is not None and not over else None,
        clocks=[f"{KIND_WORDS[k]:<7} {c.describe()}" for k, c in clocks_of(game.clocks).items()],
        tally=tally(view.board, position) if position is not None else (),
    )


def _draws(view: GameView) -> str:
    game = view.game
    if not game.dias:
        return "NoDIAS (a draw may leave out survivors)"
    return "DIAS, concessions allowed" if game.concessions else "DIAS, no concessions"


def _flags(view: GameView) -> str:
    game = view.game
    flags = ["NMR" if game.nmr else "NoNMR", "Gunboat" if game.gunboat else "", "Listed" if game.listed else "NoList",
             "Manual start" if game.manual_start and game.status == FORMING else ""]
    return ", ".join(f for f in flags if f)


def who_game(view: GameView, reader: Reader, *, full: bool = False) -> list[render.Member]:
    """WHOGAME: the masters and the players of the game (with ``full``, the observers too),
    with when they joined and the deadlines each player missed; addresses as ``reader`` may
    see them."""

    def key(p: Player) -> tuple[int, int]:
        if p.role == MASTER:
            return (0, p.id)
        return (1, view.power_rank(p.power)) if p.role == PLAYER else (2, p.id)

    return [render.Member(role_of(p), address_for(view.game, p.email, reader), p.joined_at,
                          p.nmr_count if p.role == PLAYER else None)
            for p in sorted(view.members(), key=key) if full or p.role != OBSERVER]


def _row_at(view: GameView, rows: list[tuple[str, str, str]], power: str) -> int:
    """Where an open power's row goes among the player rows (map order, after the master)."""
    rank = view.power_rank(power)
    for i, (role, _, _) in enumerate(rows):
        if role not in ("Master", "Observer") and view.power_rank(role) > rank or role == "Observer":
            return i
    return len(rows)


def _lateness(game: Game) -> str:
    hours = f"{game.reminder:g}"
    reminder = (f"reminder {hours} {'hour' if hours == '1' else 'hours'} before the deadline" if game.reminder > 0
                else "no reminder")
    days = f"{game.max_absence} {'day' if game.max_absence == 1 else 'days'}"
    absence = f"absences of at most {days}" if game.max_absence else "no absences"
    return f"{reminder}, {absence}."


def _joining(game: Game) -> str:
    parts = []
    if game.min_dedication is not None:
        parts.append(f"Dedication: {game.min_dedication}")
    if game.min_ontime is not None:
        parts.append(f"Ontime ratio: {game.min_ontime:.3f}")
    if game.max_cd_ratio is not None:
        parts.append(f"CD ratio at most: {game.max_cd_ratio:.3f}")
    if game.min_rating is not None:
        parts.append(f"Rating: {game.min_rating:.2f}")
    return ", ".join(parts) + "." if parts else "anyone."
