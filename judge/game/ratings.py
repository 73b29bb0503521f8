"""Skill ratings kept as games end (issue 26): the game layer between the model
(:mod:`judge.ratings`, pure) and its tables (:mod:`judge.store.ratings`).

- When a game ends by a solo, a draw or a concession (:func:`game_ended`, called by
  :func:`judge.game.ending.finish` in the transaction of the end), its seats are worked out
  (:func:`seats_of`: each power's rank and who played it, by share of the game) and rated on
  two ladders, the overall one and the map's; the game and each player's change are recorded.
  A game the master ended by TERMINATE is not rated.
- Irregular games are recorded but left out: a game flagged irregular (:func:`mark_irregular`:
  njudge's "bgs" settings changed after the start, see :data:`IN_PLAY_IRREGULAR`), and a game
  rolled back after its end (:func:`rolled_back`): its contribution is taken out and every
  rating is computed again (:func:`rebuild`), since later games were rated on top of it.
- Partial play: a power's share for a player is the part of its movement phases (those it was
  alive in) that they played: who held it then (:func:`judge.game.summary.tenures`), or the
  judge's bot where the bot wrote its orders (:func:`bot_played`), or nobody (an abandoned
  power with no one ordering). A power with no such phase (a game ended before its first
  movement phase was processed) goes wholly to its last player.
- :func:`rebuild` (``judge ratings rebuild``) rates every game again from the inputs recorded
  at its end, in the order they were rated (finished games from before the ratings existed
  are added after, in the order they ended), and gives exactly the values kept game by game.
  :func:`export` gives those inputs as JSON for anyone to check with openskill.

Players are rated by address (lower case), the bot as ``bot``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session

from ..engine import centre_counts
from ..engine.phase import MOVEMENT, Phase
from ..ratings import BOT, NOBODY, Rating, Seat, conservative, rank_seats, rate_game
from ..ratings.model import PARAMETERS
from ..render import Tenure
from ..store.games import FINISHED, Game, PhaseRecord, phase_records
from ..store.ratings import (
    LEFT_OUT,
    OVERALL,
    RATED,
    PlayerRating,
    RatedGame,
    RatingChange,
    find_rated,
    ladder_rows,
    rated_games,
    ratings_of,
)
from .summary import tenures
from .view import GameView, view_of

log = logging.getLogger(__name__)

#: Why a game is irregular (``Game.irregular``).
OPTION_IN_PLAY = "option {option} changed after the start"
ROLLED_BACK = "rolled back after its end"

#: njudge's "bgs" settings (``SET RAILWAYS``, ``SET HONG KONG``, ``SET GATEWAYS``...: "If used
#: afterwards, game will have an 'irregular' flag set and will not count for any rating
#: purposes") that this judge lets a master change once a game has started: the variant
#: switches of ``SET OPTION`` (:mod:`.rules_in_play`). The other "bgs" settings it has are
#: refused after the start (``SET MINOR PRESS``, ``SET PREFERENCE``, ``SET GUNBOAT``...).
IN_PLAY_IRREGULAR = ("SET OPTION",)


def bot_played(record: PhaseRecord) -> frozenset[str]:
    """The powers whose orders the judge's bot wrote in ``record``'s phase. The one place that
    knows how the bot's play is recorded: ``PhaseRecord.bot_powers``."""
    return frozenset(record.bot_powers or ())


def mark_irregular(game: Game, reason: str) -> None:
    """Flag a started game irregular (the first reason stays): it will not be rated."""
    if game.position is not None and game.irregular is None:
        game.irregular = reason
        log.info("game %s is irregular: %s", game.name, reason)


# -- what a game's end gives the model ---------------------------------------------------------


def seats_of(view: GameView) -> list[Seat]:
    """Each power of a finished game: its rank and who played it (see the module docstring)."""
    game = view.game
    records = phase_records(view.session, game)
    held = tenures(view, records)
    index = {r.phase: i for i, r in enumerate(records)}
    moves = [(i, r) for i, r in enumerate(records) if Phase.parse(r.phase).kind == MOVEMENT]
    powers = [p.name for p in view.map.powers]
    now = view.position.to_json(view.map)
    alive = [p for p in powers if _alive_in(now, p)]
    ranks = rank_seats(powers, list(game.winners), centre_counts(view.board, view.position.owners), alive)
    seats = []
    for power in powers:
        mine = [t for t in held if t.power == power]
        counts: dict[str, int] = {}
        for i, record in moves:
            if not _alive_in(record.position, power):
                continue
            who = BOT if power in bot_played(record) else _holder(mine, i, index, len(records))
            counts[who] = counts.get(who, 0) + 1
        total = sum(counts.values())
        if total:
            shares = {who: n / total for who, n in sorted(counts.items())}
        else:
            shares = {mine[-1].address.lower(): 1.0} if mine else {}
        seats.append(Seat(power, ranks[power], shares))
    return seats


def _alive_in(position: dict[str, Any], power: str) -> bool:
    """Whether ``power`` has a unit (dislodged or not) or a centre in a stored position."""
    return any((position.get(part) or {}).get(power) for part in ("units", "dislodged", "centres"))


def _holder(tenures: Sequence[Tenure], at: int, index: dict[str, int], last: int) -> str:
    """Who held the power in the phase at ``at`` (the latest tenure covering it), or nobody."""
    found = NOBODY
    for t in tenures:
        start = index.get(t.start, last)
        end = last if t.end is None else index.get(t.end, last)
        if start <= at <= end:
            found = t.address.lower()
    return found


# -- keeping the ratings ------------------------------------------------------------------------


#: The PostgreSQL advisory lock that takes games' ends one at a time into the ratings.
RATINGS_LOCK = 26


def _one_at_a_time(session: Session) -> None:
    """Hold the ratings until this transaction ends, so that games are rated in the order
    their ``rated_game`` ids say (what a rebuild replays) and two ends never read the same
    rating. SQLite's writers are one at a time already."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATINGS_LOCK})


def game_ended(view: GameView, now: datetime) -> None:
    """Rate the game that has just ended (a solo, a draw, a concession) in this transaction."""
    game = view.game
    _one_at_a_time(view.session)
    seats = seats_of(view)
    rated = RatedGame(game_id=game.id, game=game.name, map_name=game.map_name, ending=game.ending or "",
                      seats=_seats_json(seats), ended_at=now)
    if game.irregular:
        rated.status, rated.reason = LEFT_OUT, f"irregular: {game.irregular}"
    view.session.add(rated)
    view.session.flush()
    if rated.status == RATED:
        _apply(view.session, rated, seats, now)


def rolled_back(view: GameView, now: datetime) -> None:
    """A finished game was rolled back: flag it irregular, take its contribution out and
    compute every rating again."""
    game = view.game
    game.irregular = ROLLED_BACK
    rated = find_rated(view.session, game.id)
    if rated is None:
        return
    rated.status, rated.reason = LEFT_OUT, f"irregular: {ROLLED_BACK}"
    view.session.flush()
    rebuild(view.session, now)


def _apply(session: Session, rated: RatedGame, seats: Sequence[Seat], now: datetime) -> None:
    """Rate ``seats`` on the overall ladder and the map's, and record every change."""
    players = sorted({p for s in seats for p in s.shares if p != NOBODY})
    for ladder in (OVERALL, rated.map_name):
        rows = ratings_of(session, ladder, players, lock=True)
        known = {p: Rating(r.mu, r.sigma, r.games) for p, r in rows.items()}
        for change in rate_game(known, seats):
            row = rows.get(change.player)
            if row is None:
                row = PlayerRating(ladder=ladder, player=change.player)
                session.add(row)
            row.mu, row.sigma, row.games, row.updated_at = change.after.mu, change.after.sigma, change.after.games, now
            session.add(RatingChange(rated_game_id=rated.id, ladder=ladder, player=change.player,
                                     powers=list(change.powers), share=change.share,
                                     mu_before=change.before.mu, sigma_before=change.before.sigma,
                                     mu_after=change.after.mu, sigma_after=change.after.sigma))
        session.flush()


def _seats_json(seats: Sequence[Seat]) -> list[dict[str, Any]]:
    return [{"power": s.power, "rank": s.rank, "shares": dict(s.shares)} for s in seats]


def _seats_from(data: Sequence[dict[str, Any]]) -> list[Seat]:
    return [Seat(str(s["power"]), int(s["rank"]), {str(k): float(v) for k, v in s["shares"].items()}) for s in data]


def rebuild(session: Session, now: datetime) -> int:
    """Compute every rating again from the recorded games, in order (see the module
    docstring); how many games were rated."""
    _one_at_a_time(session)
    known = {r.game_id for r in rated_games(session)}
    finished = session.scalars(select(Game).where(Game.status == FINISHED).order_by(Game.updated_at, Game.id))
    for game in finished:
        if game.id in known:
            continue
        view = view_of(session, game)
        seats = seats_of(view)
        missing = RatedGame(game_id=game.id, game=game.name, map_name=game.map_name, ending=game.ending or "",
                            seats=_seats_json(seats), ended_at=game.updated_at)
        if game.irregular:
            missing.status, missing.reason = LEFT_OUT, f"irregular: {game.irregular}"
        session.add(missing)
    session.flush()
    session.execute(delete(RatingChange))
    session.execute(delete(PlayerRating))
    session.flush()
    count = 0
    for rated in rated_games(session):
        if rated.status != RATED:
            continue
        _apply(session, rated, _seats_from(rated.seats), now)
        count += 1
    log.info("ratings rebuilt from %d games", count)
    return count


# -- reading them -------------------------------------------------------------------------------


def rating_of(session: Session, player: str, ladder: str = OVERALL) -> Rating | None:
    """``player``'s rating on ``ladder``, or None if they have none yet."""
    row = ratings_of(session, ladder, [player.strip().lower()]).get(player.strip().lower())
    return Rating(row.mu, row.sigma, row.games) if row is not None else None


def standings(session: Session, ladder: str = OVERALL) -> list[tuple[str, Rating]]:
    """A ladder's players, best display value first."""
    rows = [(r.player, Rating(r.mu, r.sigma, r.games)) for r in ladder_rows(session, ladder)]
    return sorted(rows, key=lambda item: (-conservative(item[1].mu, item[1].sigma), item[0]))


def export(session: Session) -> dict[str, Any]:
    """The ratings' inputs for anyone to check: the model and its parameters, and every
    recorded game in order with each power's rank and who played it (share of the game)."""
    games = [{"order": i + 1, "game": r.game, "map": r.map_name, "ending": r.ending, "status": r.status,
              "reason": r.reason, "ended_at": r.ended_at.isoformat(), "seats": r.seats}
             for i, r in enumerate(rated_games(session))]
    return {"library": "openskill", "parameters": PARAMETERS, "ladders": [OVERALL, "<map>"],
            "partial_play": "seat mu = sum(share*mu), seat sigma^2 = sum(share*sigma^2) (the unplayed part at "
                            "mu, sigma of a new player); each player: mu += share*(seat mu' - seat mu), "
                            "sigma *= (seat sigma' / seat sigma)**share",
            "games": games}
