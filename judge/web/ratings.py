"""The archive's ratings page: the skill ratings' table, overall or of one map, with no
address (:mod:`judge.web.archive` shows players as the powers they played, never their
addresses): each rated player is shown by the seats they played in games whose players the
public may know (:func:`judge.game.disclosure.sees_identities`: a gunboat game's once it is
over), the judge's bot as itself, and anyone else as ``(address hidden)``. Ratings are those
:mod:`judge.game.ratings` keeps (issue 26).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..game.disclosure import ADDRESS_HIDDEN, PUBLIC, sees_identities
from ..ratings import BOT, conservative
from ..store.games import Game
from ..store.ratings import OVERALL, RatedGame, RatingChange, ladder_rows


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: place, who (as the archive may show them), the figures and the
    seats (game, power) that show who they are."""

    place: int
    who: str
    rating: str
    mu: str
    sigma: str
    games: int
    seats: tuple[tuple[str, str], ...]


def ladders(session: Session) -> list[str]:
    """The maps with a ladder, by name."""
    return sorted(set(session.scalars(select(RatedGame.map_name).where(RatedGame.status == "rated"))))


def table(session: Session, ladder: str = OVERALL) -> list[Row]:
    """A ladder's rows, best display value (mu - 3 sigma) first."""
    seats: dict[str, list[tuple[str, str]]] = {}
    stmt = (select(RatingChange.player, RatingChange.powers, Game)
            .join(RatedGame, RatingChange.rated_game_id == RatedGame.id)
            .join(Game, RatedGame.game_id == Game.id)
            .where(RatingChange.ladder == ladder)
            .order_by(RatedGame.id))
    for player, powers, game in session.execute(stmt):
        if sees_identities(game, PUBLIC):
            seats.setdefault(player, []).extend((game.name, power) for power in powers)
    rows = sorted(ladder_rows(session, ladder), key=lambda r: (-conservative(r.mu, r.sigma), r.player))
    out = []
    for i, r in enumerate(rows):
        who = "the judge's bot" if r.player == BOT else "" if seats.get(r.player) else ADDRESS_HIDDEN
        out.append(Row(i + 1, who, f"{conservative(r.mu, r.sigma):.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}", r.games,
                       tuple(seats.get(r.player, ()) if r.player != BOT else ())))
    return out
