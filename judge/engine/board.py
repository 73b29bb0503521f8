"""The board a game plays on: its map, its options, the variant hooks and the DATC choices.

A :class:`Board` is one frozen value, built once per game view and handed to the parser,
validation and the adjudicator, so that nothing in the engine looks a game's options up
anywhere else. :meth:`Board.of` derives the map the options play on (Colonial's map
versions, Oceania's island hops: the rule modules' map edits), the :class:`Ruleset` of
those options and the :class:`DatcChoices`. ``judge.maps.load_board`` keeps one board per
map name and option set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .choices import DatcChoices
from .map import Map
from .options import Options
from .rules import Ruleset, board_map, ruleset_for


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """The map an option set plays on, the options, and the ruleset for both.

    Build one with :meth:`of`; building it directly (``Board(m, options, rules)``) takes the
    map and ruleset as given (tests of a single hook). ``datc`` follows from ``options``.
    Two boards are equal only if they are the same value (compare their options instead).
    """

    map: Map
    options: Options
    rules: Ruleset
    datc: DatcChoices = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "datc", DatcChoices.of(self.options))

    @classmethod
    def of(cls, m: Map, options: Options | None = None) -> Board:
        """The board of map ``m`` (as loaded from its file) under ``options``."""
        opts = options if options is not None else Options()
        played = board_map(m, opts)
        return cls(played, opts, ruleset_for(played, opts))

    def __repr__(self) -> str:
        return f"Board({self.map.name!r}, {self.options!r})"
