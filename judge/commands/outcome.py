"""What a command handler is given (:class:`Call`) and what it gives back (:class:`Outcome`).

A handler changes the game through the session and the game layer, and returns what the
mail's runner must do with the result: reply sections, the error count, mails to queue,
settings and deadline changes to announce (one notice per mail lists them all), notices to
the game's members (each reader gets the mail's notices in one mail), whether the
game's orders or state changed (so that readiness is checked), a sign-on it established
(BECOME establishes one too: the rest of the mail acts as that power), a failed sign-on that
undoes the whole mail, files to attach to the reply, or people who get a copy of the reply.
Handlers never touch shared state of the mail. A handler lets a refusal (:data:`REFUSALS`:
the game's :class:`~judge.game.errors.GameError`, a bad option, an unknown help topic) pass:
the runner makes it the command's error reply (:meth:`Call.error`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo

from sqlalchemy.orm import Session

from .. import render
from ..config import Config
from ..engine.options import OptionError
from ..game.errors import GameError
from ..game.mails import Mail, context
from ..game.view import GameView, locked_view, view_of
from ..game.zones import member_at, reader_zone
from ..render import GameContext
from ..store.games import MASTER, OBSERVER, Player, find_game
from ..store.mail import File
from .command import Command

#: The errors the runner turns into a command's error reply, their message on its line.
REFUSALS: tuple[type[Exception], ...] = (GameError, OptionError, render.HelpTopicError)


@dataclass(frozen=True, slots=True)
class Identity:
    """Who the sender is for the rest of the mail: a member of a game; ``became`` is the
    master who used BECOME to act as ``me``."""

    view: GameView
    me: Player
    became: Player | None = None

    @property
    def is_master(self) -> bool:
        return self.me.role == MASTER

    @property
    def is_observer(self) -> bool:
        return self.me.role == OBSERVER


@dataclass(frozen=True, slots=True)
class Call:
    """One command being applied: the transaction, the clock, the sender and who they are."""

    session: Session
    config: Config
    now: datetime
    sender: str
    cmd: Command
    identity: Identity | None = None

    @property
    def view(self) -> GameView:
        """The signed-on game (the table guarantees one for commands that need it)."""
        assert self.identity is not None
        return self.identity.view

    @property
    def me(self) -> Player:
        assert self.identity is not None
        return self.identity.me

    def reader(self, view: GameView | None = None) -> Player | None:
        """The sender as a member of ``view`` (default: the signed-on game): the signed-on
        member, else the member mailing from the sender's address, else None."""
        view = view or (self.identity.view if self.identity is not None else None)
        if view is None:
            return None
        if self.identity is not None and self.identity.view is view:
            return self.identity.me
        return member_at(view.game.players, self.sender)

    def zone(self, view: GameView | None = None) -> tzinfo:
        """The zone the sender reads and writes the game's dates in (``judge.game.zones``)."""
        view = view or self.view
        return reader_zone(self.reader(view), view.game, self.config)

    def context(self, view: GameView | None = None) -> GameContext:
        """The render context of ``view`` (default: the signed-on game) for the sender."""
        view = view or self.view
        return context(self.config, view, self.reader(view))

    def game_named(self, name: str, *, lock: bool = False) -> GameView | None:
        """The view of the game called ``name``, or None; with ``lock``, its row locked
        (:func:`judge.game.view.locked_view`)."""
        if lock:
            return locked_view(self.session, name)
        row = find_game(self.session, name)
        return view_of(self.session, row) if row is not None else None

    def game_or_signed_on(self, words: tuple[str, ...]) -> GameView | Outcome:
        """The game a command names in its first word, else the signed-on one; an error
        outcome when there is neither."""
        if words:
            found = self.game_named(words[0])
            if found is None:
                return self.error(render.refusal("game_unknown", game=words[0].lower()))
            return found
        if self.identity is None:
            return self.error(render.refusal("game_not_named", verb=self.cmd.verb))
        return self.view

    def error(self, message: str) -> Outcome:
        """A refusal of this command, reported on its line."""
        return Outcome(reply=(render.error_text(message, self.cmd.line),), errors=1)


@dataclass(frozen=True, slots=True)
class Copy:
    """Someone who gets a copy of the mail's reply, headed by ``note`` (njudge BECOME:
    "The player for 'power' will receive a message from the Judge ... confirming all
    commands entered by the Master"): the sections ``reader`` may read
    (:func:`judge.game.disclosure.may_share`)."""

    address: str
    note: str
    reader: Player


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a handler did (see the module docstring); ``copies`` get the mail's whole reply."""

    reply: tuple[str, ...] = ()
    errors: int = 0
    mails: tuple[Mail, ...] = ()
    notices: tuple[Mail, ...] = ()
    settings: tuple[str, ...] = ()
    deadline_moved: bool = False
    changed: bool = False
    signed_on: Identity | None = None
    about: GameView | None = None
    failed_signon: bool = False
    failure: str | None = None
    files: tuple[File, ...] = ()
    copies: tuple[Copy, ...] = ()
    #: The lines counted in ``errors`` were kept all the same (orders for a later phase,
    #: checked again when it comes), not refused.
    errors_kept: bool = False


def signon_failed(message: str | None = None) -> Outcome:
    """A wrong game, power or password: the mail's changes are undone and its reply says
    ``Invalid password or power ID specified.`` (with ``message`` when there is more to say)."""
    return Outcome(failed_signon=True, failure=message)


def said(*sections: str, changed: bool = False, mails: tuple[Mail, ...] | list[Mail] = (),
         settings: tuple[str, ...] = (), deadline_moved: bool = False,
         notices: tuple[Mail, ...] | list[Mail] = ()) -> Outcome:
    """An outcome that adds ``sections`` to the reply (``settings``: texts of changes
    everyone is told of, and ``deadline_moved``: the deadline moved, in one notice for the
    whole mail; ``notices``: mails to the game's members, gathered with the mail's other
    notices into one mail per reader)."""
    return Outcome(reply=tuple(s for s in sections if s), changed=changed, mails=tuple(mails), settings=settings,
                   deadline_moved=deadline_moved, notices=tuple(notices))
