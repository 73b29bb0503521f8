"""Applying one mail's commands: the state of a mail being handled, and the dispatch table.

Each command handler takes the :class:`MailState` and the :class:`Command`; it changes the
game through the session, appends what the sender should read to ``state.sections`` (or an
error to ``state.errors``), and queues notices to others itself. Order lines are gathered
and applied together when the next other command comes or the mail ends, so a mail's orders
are echoed once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..mail import commands as c
from ..mail.commands import Command
from ..store.games import MASTER, Game, Player

log = logging.getLogger(__name__)


@dataclass(slots=True)
class MailState:
    """Everything known while one mail is applied: the sender, the game and identity a
    SIGNON established, and the reply so far (sections in command order, errors counted)."""

    session: Session
    config: Any
    now: datetime
    sender: str
    text: str
    game: Game | None = None
    me: Player | None = None
    about: Game | None = None
    sections: list[str] = field(default_factory=list)
    error_count: int = 0
    pending_orders: list[Command] = field(default_factory=list)
    bad_password: bool = False
    failure: str | None = None
    stop: bool = False
    touched: bool = False

    def say(self, text: str) -> None:
        """Add a section to the reply."""
        self.sections.append(text)

    def error(self, cmd: Command, message: str) -> None:
        """Report ``message`` about the command's line."""
        from .notices import error_text

        self.sections.append(error_text(message, cmd.line))
        self.error_count += 1

    @property
    def is_master(self) -> bool:
        return self.me is not None and self.me.role == MASTER


Handler = Callable[[MailState, Command], None]
HANDLERS: dict[str, Handler] = {}


def handles(*verbs: str) -> Callable[[Handler], Handler]:
    """Register a handler for ``verbs`` (used by the command modules)."""

    def deco(fn: Handler) -> Handler:
        for verb in verbs:
            HANDLERS[verb] = fn
        return fn

    return deco


def _load_handlers() -> None:
    from . import clock, draws, history, info, master, play, press, signon  # noqa: F401  (they register)


def run(state: MailState, commands: list[Command]) -> None:
    """Apply ``commands`` in order (stopping early after a failed sign-on)."""
    _load_handlers()
    from .play import flush_orders

    for cmd in commands:
        if state.stop:
            break
        if cmd.verb == c.ORDER:
            state.pending_orders.append(cmd)
            continue
        flush_orders(state)
        if cmd.verb == c.SIGNOFF:
            break
        handler = HANDLERS.get(cmd.verb)
        if cmd.verb in c.SIGNON_VERBS and state.me is not None:
            state.error(cmd, "Only one SIGNON, CREATE or OBSERVE is allowed in a mail.")
            continue
        if handler is None:
            _unknown(state, cmd)
            continue
        handler(state, cmd)
    if not state.stop:
        flush_orders(state)


def _unknown(state: MailState, cmd: Command) -> None:
    if cmd.verb == c.UNKNOWN:
        state.error(cmd, "Unknown command; orders must follow a SIGNON. Send HELP for the commands.")
    elif cmd.verb == c.STRAY_END:
        state.error(cmd, "ENDPRESS without a PRESS or BROADCAST.")
    else:
        state.error(cmd, "This command is not supported by this judge.")


def need_signon(state: MailState, cmd: Command) -> bool:
    """True (and an error reported) when the command needs a SIGNON that was not given."""
    if state.me is None or state.game is None:
        state.error(cmd, "You must SIGNON to a game before this command.")
        return True
    return False


def need_master(state: MailState, cmd: Command) -> bool:
    """True (and an error reported) unless the sender is signed on as the game's master."""
    if need_signon(state, cmd):
        return True
    if not state.is_master:
        state.error(cmd, "Only the master of the game can use this command.")
        return True
    return False
