"""A game's board as the engine sees it: map, position, options and rules."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Map, Options, Position, initial_position
from ..engine.phase import Phase
from ..engine.rules import Ruleset, game_map, ruleset_for
from ..maps import load_map
from ..store.games import Game


@dataclass(frozen=True, slots=True)
class Board:
    """What the engine needs about one game."""

    m: Map
    position: Position
    options: Options
    rules: Ruleset

    @property
    def phase(self) -> Phase:
        return self.position.phase


def options_of(game: Game) -> Options:
    return Options(game.options or {})


def board_of(game: Game) -> Board:
    """The game's current board (the starting position if it has not started)."""
    options = options_of(game)
    m = game_map(load_map(game.map_name), options)
    position = Position.from_json(m, game.position) if game.position else initial_position(m)
    return Board(m, position, options, ruleset_for(m, options))


def store_position(game: Game, m: Map, position: Position) -> None:
    """Put ``position`` into the game row."""
    game.position = position.to_json(m)
    game.phase = position.phase.code


def alive_powers(m: Map, position: Position) -> list[str]:
    """Powers with a unit (dislodged or not) or a supply centre, in map order."""
    alive = {u.power for u in position.units.values()} | set(position.owners.values())
    alive |= {d.unit.power for d in position.dislodged.values()}
    return [pw.name for pw in m.powers if pw.name in alive]
