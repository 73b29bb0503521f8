"""Draws (njudge ``data/draws``): SET DRAW and SET NO DRAW, DIAS.

A player votes for a draw of all surviving powers ("Draws Include All Survivors", njudge's
default) with ``SET DRAW`` and takes the vote back with ``SET NO DRAW``. When every
surviving power (one with a unit or a supply centre) has a player who votes for the draw,
the game ends at once: it is finished, its ``winners`` are the survivors, and everyone is
told ``The game was declared a draw between ...``. A surviving power without a player
(resigned or ejected and not yet taken over) cannot vote, so it holds the draw up. Votes
are secret (only the voter's reply mentions them) and count for one phase: processing the
phase clears them.
"""

from __future__ import annotations

import logging

from .. import render
from ..config import Config
from ..store.games import FINISHED, PLAYER
from .lateness import stop_clock
from .mails import Mail, context, everyone
from .takeover import alive_powers
from .view import GameView

log = logging.getLogger(__name__)


def agreed(view: GameView) -> bool:
    """True when every surviving power has an active player who votes for the draw."""
    voters = {p.power for p in view.members(PLAYER) if p.active and p.draw_vote}
    alive = alive_powers(view)
    return bool(alive) and all(power in voters for power in alive)


def declare_if_agreed(view: GameView, config: Config) -> tuple[list[str], list[Mail]] | None:
    """End the game in a draw if :func:`agreed`: the drawing powers and the mails, or None."""
    if not agreed(view):
        return None
    powers = alive_powers(view)
    ctx = context(config, view)
    mail = render.draw_mail(ctx, powers)
    game = view.game
    game.status = FINISHED
    game.winners = powers
    game.ending = "draw" if len(powers) > 1 else "concession"
    stop_clock(game)
    log.info("game %s: drawn between %s", game.name, ", ".join(powers))
    return powers, [Mail.of(everyone(view), mail, "notice", view)]
