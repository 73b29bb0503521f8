"""Draws (njudge ``draws``): SET DRAW and SET NO DRAW, DIAS only.

A player votes for a draw of all surviving powers ("Draws Include All Survivors", njudge's
default) with ``SET DRAW`` and takes the vote back with ``SET NO DRAW``. When every
surviving power (one with a unit or a supply centre) has a player who votes for the draw,
the game ends at once: it is finished, its ``winners`` are the survivors, and everyone is
told ``The game was declared a draw between ...``. A surviving power without a player
(resigned or ejected and not yet taken over) cannot vote, so it holds the draw up. Votes
are secret (only the voter's reply mentions them) and count for one phase: processing the
phase clears them. njudge's NoDIAS draw lists (``SET DRAW AEF``) are not supported.
"""

from __future__ import annotations

import logging

from ..mail import commands as c
from ..mail.commands import Command
from ..render.context import Rendered
from ..render.environment import render
from ..store.games import ACTIVE, FINISHED, PLAYER, Game, members
from .board import alive_powers, board_of
from .grace import stop_clock
from .notices import everyone, game_ctx, send
from .service import MailState, handles, need_signon

log = logging.getLogger(__name__)


@handles(c.SET_DRAW, c.SET_NODRAW)
def vote(state: MailState, cmd: Command) -> None:
    if need_signon(state, cmd):
        return
    game, me = state.game, state.me
    assert game is not None and me is not None
    if me.role != PLAYER or not me.power or not me.active:
        state.error(cmd, "Only a player of a surviving power can vote for a draw.")
        return
    if game.status != ACTIVE:
        state.error(cmd, f"Game '{game.name}' is {game.status}; draws are voted in an active game.")
        return
    if cmd.text.strip():
        state.error(cmd, "This judge plays DIAS draws only (all survivors): write SET DRAW without a list.")
        return
    me.draw_vote = cmd.verb == c.SET_DRAW
    state.touched = True
    powers = declare_if_agreed(state.session, state.config, game) if me.draw_vote else None
    state.say(render("game/draw_vote.txt.j2", game=game.name, vote=me.draw_vote, declared=powers is not None,
                     powers=powers or []))


def survivors(game: Game) -> list[str]:
    b = board_of(game)
    return alive_powers(b.m, b.position)


def agreed(game: Game) -> bool:
    """True when every surviving power has an active player who votes for the draw."""
    voters = {p.power for p in members(game, roles=(PLAYER,)) if p.active and p.draw_vote}
    alive = survivors(game)
    return bool(alive) and all(power in voters for power in alive)


def declare_if_agreed(session: object, config: object, game: Game) -> list[str] | None:
    """End the game in a draw if :func:`agreed`; the drawing powers, or None."""
    if not agreed(game):
        return None
    powers = survivors(game)
    ctx = game_ctx(config, game)
    assert ctx.phase is not None
    body = render("game/draw_declared.txt.j2", header=ctx.header, powers=powers,
                  title=ctx.calendar.phase_title(ctx.phase))
    game.status = FINISHED
    game.winners = powers
    stop_clock(game)
    send(session, everyone(game), Rendered(f"{ctx.subject_prefix} Draw Declared", body), game, "notice")
    log.info("game %s: drawn between %s", game.name, ", ".join(powers))
    return powers
