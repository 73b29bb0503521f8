"""A game's board as the engine sees it: the engine's board value and the position."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Board as EngineBoard
from ..engine import Map, Options, Position, initial_position
from ..engine.phase import Phase
from ..engine.rules import Ruleset
from ..maps import load_board
from ..store.games import Game


@dataclass(frozen=True, slots=True)
class Board:
    """What the engine needs about one game."""

    engine: EngineBoard
    position: Position

    @property
    def m(self) -> Map:
        return self.engine.map

    @property
    def options(self) -> Options:
        return self.engine.options

    @property
    def rules(self) -> Ruleset:
        return self.engine.rules

    @property
    def phase(self) -> Phase:
        return self.position.phase


def options_of(game: Game) -> Options:
    return Options(game.options or {})


def board_of(game: Game) -> Board:
    """The game's current board (the starting position if it has not started)."""
    engine = load_board(game.map_name, options_of(game))
    m = engine.map
    position = Position.from_json(m, game.position) if game.position else initial_position(m)
    return Board(engine, position)


def store_position(game: Game, m: Map, position: Position) -> None:
    """Put ``position`` into the game row."""
    game.position = position.to_json(m)
    game.phase = position.phase.code


def alive_powers(m: Map, position: Position) -> list[str]:
    """Powers with a unit (dislodged or not) or a supply centre, in map order."""
    alive = {u.power for u in position.units.values()} | set(position.owners.values())
    alive |= {d.unit.power for d in position.dislodged.values()}
    return [pw.name for pw in m.powers if pw.name in alive]
