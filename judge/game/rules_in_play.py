"""Which game options the master may change once a game has started (``SET OPTION``).

Before the start any option may be set. Once the game plays, njudge's rule switches are
"bgs" (before game starts) and this judge keeps to that for every option that decides what
the game is, and lets the master settle the rest when the question comes up:

- the DATC choices (``judge.engine.choices``: convoys, paradoxes, adjustments, civil
  disorder), on every map: they are how every phase is judged, and the players chose the
  game by them;
- a whole reading of a variant's rules (``colonial_rules``, ``tsr_reading``: each sets the
  defaults of many options at once);
- the map version and the calendar (``colonial_map``, ``colonial_calendar``): the positions
  already played stand on them;
- ``hong_kong_rule``: it changes what supply centres count for, so the builds and the
  victory count of the position already reached.

The other variant switches settle one ambiguity of a variant's special rules (the railway,
the canal, the island hops and straits: ``variants-spec.md`` section 4) and may change in
play: the change counts from the current phase on (the phases already played keep the
options they were judged by, :attr:`~judge.store.games.PhaseRecord.options`, and a ROLLBACK
replays with the options in force). Everyone is told. njudge calls these switches "bgs": a
game that changes one after its start is flagged irregular and is not rated
(:func:`judge.game.ratings.mark_irregular`).
"""

from __future__ import annotations

from .. import render
from ..engine import OptionError, Options
from ..engine.options import option_specs
from .ratings import OPTION_IN_PLAY, mark_irregular
from .view import GameView

READINGS = ("colonial_rules", "tsr_reading")
BOARD = ("colonial_map", "colonial_calendar")
SCORING = ("hong_kong_rule",)


def fixed_in_play(name: str) -> str | None:
    """Why option ``name`` cannot change once the game has started (a sentence for the
    master), or None if it can."""
    spec = option_specs().get(name)
    if spec is None:
        return None
    if not spec.maps:
        return render.refusal("option_datc_fixed", option=name)
    if name in READINGS:
        return render.refusal("option_reading_fixed", option=name)
    if name in BOARD:
        return render.refusal("option_board_fixed", option=name)
    if name in SCORING:
        return render.refusal("option_scoring_fixed", option=name)
    return None


def set_option(view: GameView, key: str, value: str) -> tuple[str, object]:
    """Set ``key`` to ``value`` in the game's options: the option's name and its value now.
    Raises :class:`~judge.engine.OptionError` (an unknown option or value, or one that
    cannot change in play, with the reason)."""
    game = view.game
    name = key.strip().lower()
    spec = option_specs().get(name)
    if spec is not None and spec.maps and game.map_name not in spec.maps:
        raise OptionError(render.refusal("option_other_variant", option=name,
                                         variants=[m.capitalize() for m in spec.maps], game=game.name,
                                         variant=view.map.title))
    if view.started:
        why = fixed_in_play(name)
        if why is not None:
            raise OptionError(why)
    options = Options({**(game.options or {}), key.strip(): value.strip()})
    game.options = dict(options.explicit)
    view.reload_board()
    if view.started:
        mark_irregular(game, OPTION_IN_PLAY.format(option=name))
    return name, options[name]
