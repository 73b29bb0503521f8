"""A game's course by its master and players: pausing, resuming, terminating, ejecting and
resigning (njudge ``data/master``)."""

from __future__ import annotations

import logging
from datetime import datetime

from ..config import Config
from ..store.games import ACTIVE, EJECTED, FINISHED, MASTER, PAUSED, RESIGNED, TERMINATED, Player
from . import lateness, notices
from .mails import Mail
from .view import GameView
from .zones import game_zone

log = logging.getLogger(__name__)


class StatusError(ValueError):
    """A change the game's status does not allow; the message is for the sender."""


def pause(view: GameView, config: Config) -> list[Mail]:
    game = view.game
    if game.status != ACTIVE:
        raise StatusError(f"Game '{game.name}' is {game.status}; only an active game can be paused.")
    game.status = PAUSED
    game.process_at = None
    log.info("game %s paused by its master", game.name)
    return notices.state_changed(view, config, "paused")


def resume(view: GameView, config: Config, now: datetime) -> list[Mail]:
    game = view.game
    if game.status != PAUSED:
        raise StatusError(f"Game '{game.name}' is {game.status}; only a paused game can be resumed.")
    game.status = ACTIVE
    if game.deadline is None or game.deadline <= now:
        lateness.start_clock(view, now, game_zone(game, config))
    log.info("game %s resumed by its master", game.name)
    return notices.state_changed(view, config, "resumed")


def terminate(view: GameView, config: Config) -> list[Mail]:
    game = view.game
    if game.status in (FINISHED, TERMINATED):
        raise StatusError(f"Game '{game.name}' is already over.")
    game.status = TERMINATED
    lateness.stop_clock(game)
    log.info("game %s terminated by its master", game.name)
    return notices.state_changed(view, config, "terminated")


def who(view: GameView, target: str) -> list[Player]:
    """The members a master's ``EJECT`` names: the player of a power (by name or letter), or
    everyone but the master signed on from an address (every power it holds)."""
    target = target.strip()
    if not target:
        return []
    active = [p for p in view.game.players if p.active and p.role != MASTER]
    if "@" in target:
        return [p for p in active if p.email.lower() == target.lower()]
    power = view.map.find_power(target)
    if power is None and len(target) == 1:
        power = view.map.power_by_letter.get(target.upper())
    return [p for p in active if power is not None and p.power == power.name]


def eject(view: GameView, config: Config, players: list[Player]) -> list[Mail]:
    mails: list[Mail] = []
    for p in players:
        mails.extend(notices.ejected(view, config, p))
        p.status = EJECTED
        log.info("game %s: %s ejected%s", view.name, p.email, f" as {p.power}" if p.power else "")
    return mails


def resign(view: GameView, config: Config, me: Player) -> list[Mail]:
    powers = [me.power] if me.power else []
    mails = notices.resigned(view, config, me.email, powers)
    me.status = RESIGNED
    log.info("%s: %s resigned %s", view.name, me.email, powers)
    return mails
