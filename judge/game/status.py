"""A game's course by its master and players: pausing, resuming, terminating, ejecting,
resigning and promoting an observer to co-master (njudge ``data/master``).

A player who resigns or is ejected keeps their row (the summary shows who played each
power and when: ``until_phase`` is the phase in which they left). TERMINATE ends the game for good: everyone
gets its final mail (:mod:`.ending`). PROMOTE makes an observer a master of the game beside
the others; each master signs on with their own password (``SIGNON Mname password``).
"""

from __future__ import annotations

import logging
from datetime import datetime

from .. import render
from ..config import Config
from ..store.games import ACTIVE, EJECTED, FINISHED, MASTER, OBSERVER, PAUSED, RESIGNED, TERMINATED, Player
from ..store.passwords import check_password
from . import ending, lateness, notices
from .errors import GameError
from .mails import Mail
from .view import GameView
from .zones import game_zone

log = logging.getLogger(__name__)


class StatusError(GameError):
    """A change the game's status does not allow; the message is for the sender."""


def pause(view: GameView, config: Config) -> list[Mail]:
    game = view.game
    if game.status != ACTIVE:
        raise StatusError(render.refusal("pause_not_active", game=game.name, status=game.status))
    game.status = PAUSED
    game.process_at = None
    log.info("game %s paused by its master", game.name)
    return notices.state_changed(view, config, PAUSED)


def resume(view: GameView, config: Config, now: datetime) -> list[Mail]:
    game = view.game
    if game.status != PAUSED:
        raise StatusError(render.refusal("resume_not_paused", game=game.name, status=game.status))
    game.status = ACTIVE
    if game.deadline is None or game.deadline <= now:
        lateness.start_clock(view, now, game_zone(game, config))
    log.info("game %s resumed by its master", game.name)
    return notices.state_changed(view, config, "resumed")


def terminate(view: GameView, config: Config) -> list[Mail]:
    game = view.game
    if game.status in (FINISHED, TERMINATED):
        raise StatusError(render.refusal("game_already_over", game=game.name))
    log.info("game %s terminated by its master", game.name)
    return ending.finish(view, config, ending.TERMINATION, [])


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
    """Eject ``players``, found by :func:`who` (one power's player, or every place of one
    address); the mails that tell of it."""
    mails: list[Mail] = []
    by_address: dict[str, list[Player]] = {}
    for p in players:
        by_address.setdefault(p.email, []).append(p)
    for group in by_address.values():
        mails.extend(notices.ejected(view, config, group))
    for p in players:
        p.status = EJECTED
        p.until_phase = view.game.phase
        log.info("game %s: %s ejected%s", view.name, p.email, f" as {p.power}" if p.power else "")
    return mails


def resign(view: GameView, config: Config, me: Player) -> list[Mail]:
    powers = [me.power] if me.power else []
    mails = notices.resigned(view, config, me.email, powers)
    me.status = RESIGNED
    me.until_phase = view.game.phase
    log.info("%s: %s resigned %s", view.name, me.email, powers)
    return mails


def promote(view: GameView, address: str) -> Player:
    """Make the observer signed on from ``address`` a master of the game (njudge PROMOTE);
    raises :class:`StatusError`."""
    address = address.strip().lower()
    found = [p for p in view.game.players if p.active and p.email.lower() == address]
    observer = next((p for p in found if p.role == OBSERVER), None)
    if observer is None:
        if any(p.role == MASTER for p in found):
            raise StatusError(render.refusal("promote_master_already", address=address, game=view.name))
        raise StatusError(render.refusal("promote_not_observer", address=address, game=view.name))
    observer.role = MASTER
    log.info("game %s: observer %s promoted to master", view.name, address)
    return observer


def master_with(view: GameView, password: str) -> Player | None:
    """The active master of the game whose password this is (a game may have several)."""
    return next((p for p in view.game.players if p.role == MASTER and p.active
                 and check_password(password, p.password_hash)), None)
