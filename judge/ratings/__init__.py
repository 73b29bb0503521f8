"""Skill ratings from finished games (issue 26): pure computation, no database.

:mod:`.model` turns a game's result into ranks and rates it with openskill's
Plackett–Luce model, each seat (power) shared among the people who played it. The store's
tables are :mod:`judge.store.ratings`; the game layer (:mod:`judge.game.ratings`) builds a
result from a finished game and keeps the tables up to date in the game's transaction.
"""

from .model import (
    BOT,
    MODEL,
    NOBODY,
    Change,
    Rating,
    Seat,
    conservative,
    fresh,
    rank_seats,
    rate_game,
)

__all__ = ["BOT", "MODEL", "NOBODY", "Change", "Rating", "Seat", "conservative", "fresh", "rank_seats", "rate_game"]
