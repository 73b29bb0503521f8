"""The master's commands: PROCESS, SET OPTION, PAUSE, RESUME, TERMINATE, EJECT (the clock
commands are in :mod:`.clock`, the press settings in :mod:`.press`)."""

from __future__ import annotations

import logging

from ..engine import OptionError, Options, Phase, PhaseError
from ..mail import commands as c
from ..mail.commands import Command
from ..store.games import ACTIVE, EJECTED, FINISHED, FORMING, MASTER, PAUSED, TERMINATED, Player
from . import grace, notices, processing
from .board import board_of
from .service import MailState, handles, need_master

log = logging.getLogger(__name__)


@handles(c.PROCESS)
def process(state: MailState, cmd: Command) -> None:
    if need_master(state, cmd):
        return
    game = state.game
    assert game is not None
    if game.status != ACTIVE:
        state.error(cmd, f"Game '{game.name}' is {game.status}; only an active game can be processed.")
        return
    if cmd.args and game.phase and cmd.args[0].upper() != game.phase.upper():
        try:
            wanted = Phase.parse(" ".join(cmd.args)).code
        except PhaseError:
            wanted = " ".join(cmd.args)
        if wanted != game.phase:
            state.error(cmd, f"The game is in {game.phase}, not {' '.join(cmd.args)}; nothing was processed.")
            return
    done = game.phase or ""
    processing.advance(state.session, state.config, game, state.now)
    state.touched = True
    state.say(notices.processed_text(state.config, game, done))


@handles(c.SET_OPTION)
def set_option(state: MailState, cmd: Command) -> None:
    if need_master(state, cmd):
        return
    game = state.game
    assert game is not None
    key, sep, value = cmd.text.partition("=")
    if not sep:
        key, _, value = cmd.text.strip().partition(" ")
    if not key.strip() or not value.strip():
        state.error(cmd, "Write SET OPTION name=value.")
        return
    if game.status != FORMING:
        state.error(cmd, f"Game '{game.name}' has started; its options (rule switches) can be changed only "
                         "before the start, as the moves already played were judged by them.")
        return
    try:
        options = Options({**(game.options or {}), key.strip(): value.strip()})
    except OptionError as exc:
        state.error(cmd, str(exc))
        return
    game.options = dict(options.explicit)
    state.touched = True
    state.say(notices.option_text(game, key.strip().lower(), options[key.strip().lower()]))


@handles(c.PAUSE, c.RESUME, c.TERMINATE)
def change_state(state: MailState, cmd: Command) -> None:
    if need_master(state, cmd):
        return
    game = state.game
    assert game is not None
    if cmd.verb == c.PAUSE:
        if game.status != ACTIVE:
            state.error(cmd, f"Game '{game.name}' is {game.status}; only an active game can be paused.")
            return
        game.status, change = PAUSED, "paused"
    elif cmd.verb == c.RESUME:
        if game.status != PAUSED:
            state.error(cmd, f"Game '{game.name}' is {game.status}; only a paused game can be resumed.")
            return
        game.status, change = ACTIVE, "resumed"
        if game.deadline is None or game.deadline <= state.now:
            grace.start_clock(game, state.now, board_of(game).phase.kind)
    else:
        if game.status in (FINISHED, TERMINATED):
            state.error(cmd, f"Game '{game.name}' is already over.")
            return
        game.status, change = TERMINATED, "terminated"
        grace.stop_clock(game)
    state.touched = True
    log.info("game %s %s by its master", game.name, change)
    notices.state_changed(state.session, state.config, game, change)
    state.say(notices.state_text(game, change))


@handles(c.EJECT)
def eject(state: MailState, cmd: Command) -> None:
    if need_master(state, cmd):
        return
    game = state.game
    assert game is not None
    target = " ".join(cmd.args).strip()
    found = _who(game.players, target, board_of(game).m)
    if found is None:
        state.error(cmd, f"No power or address {target!r} is signed on to game '{game.name}'.")
        return
    notices.ejected(state.session, state.config, game, found.email, [found.power] if found.power else [])
    found.status = EJECTED
    state.touched = True
    state.say(notices.ejected_text(game, found.email, found.power))


def _who(players: list[Player], target: str, m: object) -> Player | None:
    if not target:
        return None
    power = m.find_power(target)  # type: ignore[attr-defined]
    for p in players:
        if not p.active:
            continue
        if power is not None and p.power == power.name:
            return p
        if "@" in target and p.email.lower() == target.lower() and p.role != MASTER:
            return p
    return None
