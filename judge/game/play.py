"""A signed-on player's own commands: orders, SET WAIT / SET NO WAIT, RESIGN."""

from __future__ import annotations

import logging

from ..mail import commands as c
from ..mail.commands import Command
from ..store.games import ACTIVE, FINISHED, PAUSED, PLAYER, RESIGNED, TERMINATED, OrderSet, order_set
from . import notices, orders
from .board import board_of
from .service import MailState, handles, need_signon

log = logging.getLogger(__name__)


def flush_orders(state: MailState) -> None:
    """Apply the order lines gathered so far (see :mod:`judge.game.service`)."""
    if not state.pending_orders:
        return
    pending, state.pending_orders = state.pending_orders, []
    if need_signon(state, pending[0]):
        return
    game, me = state.game, state.me
    assert game is not None and me is not None
    refusal = _refusal(game.status, me.role, me.power)
    if refusal:
        state.say(notices.order_lines_text([(cmd.text, refusal) for cmd in pending]))
        state.error_count += len(pending)
        return
    assert me.power is not None and game.phase is not None
    b = board_of(game)
    stored = order_set(state.session, game, me.power, game.phase)
    merged = orders.merge(b.engine, b.position, me.power, list(stored.lines) if stored else [],
                          [cmd.text for cmd in pending])
    if stored is None:
        stored = OrderSet(game_id=game.id, power=me.power, phase=game.phase, lines=[])
        state.session.add(stored)
    stored.lines = merged.lines
    state.touched = True
    lines = [(cmd.text, _error_for(cmd.text, merged.errors)) for cmd in pending]
    state.error_count += sum(1 for _, err in lines if err)
    complete = orders.is_complete(b.engine, b.position, me.power, merged.lines)
    state.say(notices.order_lines_text(lines))
    state.say(notices.orders_text(state.config, game, me.power, orders.echo(b.engine, b.position, me.power,
                                                                             merged.lines), complete, state.now))
    log.info("%s: orders for %s in %s (%d lines, complete=%s)", game.name, me.power, game.phase,
             len(merged.lines), complete)


def _error_for(text: str, errors: list[orders.LineError]) -> str | None:
    messages = [e.message for e in errors if e.line == text or e.line in text]
    return "; ".join(dict.fromkeys(messages)) or None


def _refusal(status: str, role: str, power: str | None) -> str | None:
    if role != PLAYER or power is None:
        return "Only a player with a power can give orders."
    if status in (FINISHED, TERMINATED):
        return "The game is over; no more orders are accepted."
    if status == PAUSED:
        return "The game is paused; orders are not accepted until the master resumes it."
    if status != ACTIVE:
        return "The game has not started yet; orders are accepted once it starts."
    return None


@handles(c.SET_WAIT, c.SET_NOWAIT)
def set_wait(state: MailState, cmd: Command) -> None:
    if need_signon(state, cmd):
        return
    assert state.me is not None
    state.me.wait = cmd.verb == c.SET_WAIT
    state.touched = True
    state.say(notices.wait_text(state.me.wait))


@handles(c.RESIGN)
def resign(state: MailState, cmd: Command) -> None:
    if need_signon(state, cmd):
        return
    game, me = state.game, state.me
    assert game is not None and me is not None
    if me.role != PLAYER:
        state.error(cmd, "Only a player can resign; a master leaves with EJECT.")
        return
    powers = [me.power] if me.power else []
    notices.resigned(state.session, state.config, game, me.email, powers)
    me.status = RESIGNED
    state.touched = True
    state.say(notices.resigned_text(game, powers))
    log.info("%s: %s resigned %s", game.name, me.email, powers)
