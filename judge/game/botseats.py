"""The judge's bot in a game: which powers it plays, and its orders at processing.

- ``SET CD BOT`` / ``SET CD HOLD`` (``Game.cd_mode``; hold is njudge's behaviour and the
  default): what a power in civil disorder does. With ``bot``, the bot orders for every
  power that must order and has no player (abandoned, resigned, ejected, never filled), and
  for a power whose player sent no orders at all when the phase is processed.
- ``SET BOT power`` (``Game.bot_powers``): the master seats the bot in an empty seat, before
  the start (the game then starts without a person for it) or later (an abandoned power);
  the bot plays it whatever ``cd_mode`` says. A practice game seats it in every power but
  the player's.
- A takeover gives the power back to a person at once (:func:`unseat`): the bot plays only
  powers with no player, and orders only at processing.
- Orders a person entered win over the bot's: a power with any stored orders for the phase
  (its player's, or orders entered in advance and released) gets none from the bot.

The bot's orders are stored as the power's order set (each with its plain text as the
line), so the results, the phase record and the archive show them like any other; the
powers it wrote for are returned, and the result mail says so. Its seed is derived from the
game's name and the phase (:func:`judge.bots.phase_seed`): a ROLLBACK and reprocess, or a
second judge node, gives the same orders.
"""

from __future__ import annotations

import logging

from ..bots import bot_orders, phase_seed
from ..engine.plain import plain
from . import orders
from .view import Entry, GameView

log = logging.getLogger(__name__)

HOLD, BOT = "hold", "bot"


def seated(view: GameView) -> list[str]:
    """The seats the master gave the bot that no person has taken, in map order."""
    given = set(view.game.bot_powers or ())
    return [p.name for p in view.map.powers if p.name in given and view.player_of(p.name) is None]


def plays(view: GameView, power: str) -> bool:
    """Whether the bot plays ``power`` (of a started game) now: no player, and a seat of the
    bot's or the game set to ``CD BOT``."""
    return view.started and view.player_of(power) is None and (
        view.game.cd_mode == BOT or power in (view.game.bot_powers or ()))


def seat(view: GameView, power: str) -> None:
    """``SET BOT power``: the bot takes the empty seat."""
    powers = list(view.game.bot_powers or ())
    if power not in powers:
        view.game.bot_powers = [*powers, power]


def unseat(view: GameView, power: str) -> None:
    """A person takes the power: the bot's seat, if it had one, is given up."""
    powers = list(view.game.bot_powers or ())
    if power in powers:
        view.game.bot_powers = [p for p in powers if p != power]


def write_orders(view: GameView) -> list[str]:
    """Store the bot's orders for every power it plays this phase that has no orders; the
    powers it wrote for, in map order."""
    board, position, game = view.board, view.position, view.game
    if game.cd_mode != BOT and not game.bot_powers:
        return []  # the bot plays no power of the game: nothing to look at (most games, every phase)
    seed = phase_seed(game.name, position.phase.code)
    written = []
    for power in sorted(orders.required(board, position), key=view.power_rank):
        # with CD BOT a player who sent no orders at all is in civil disorder for the phase
        if view.entries(power) or not (plays(view, power) or game.cd_mode == BOT):
            continue
        mine = bot_orders(board, position, power, seed)
        view.store_orders(power, [Entry(plain(o), o) for o in mine], 0)
        written.append(power)
    if written:
        log.info("game %s: the bot wrote the orders of %s for %s", game.name, ", ".join(written),
                 position.phase.code)
    return written
