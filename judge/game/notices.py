"""Which mail each game event sends, to whom: game start, resignations,
ejections, state changes, deadline changes and settings.

Each function returns :class:`~judge.game.mails.Mail` values for the caller to queue; the
texts come from :mod:`judge.render`, each in its readers' zones (:func:`.mails.per_zone`);
the lateness notices are :mod:`.reminders`'. Mail kinds (the outbox's ``kind``): ``start``,
``selected`` (a power given to one player), ``late`` (a late player's notice: private, not
in HISTORY) and ``notice`` (everything the whole game may read; in HISTORY, as njudge keeps
them).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import render
from ..config import Config
from ..store.games import MASTER, Player
from .mails import Mail, context, per_zone, role_of, roster
from .view import GameView


def start(view: GameView, config: Config) -> list[Mail]:
    """The game-start mail, one per reader (``You have been selected as ...``), each in the
    reader's zone."""
    people = roster(view)
    return [Mail.of(p.email, render.game_start_mail(context(config, view, p), view.position, view.game.deadline,
                                                    people, recipient=role_of(p)), "start", view, archive=i == 0)
            for i, p in enumerate(view.members())]


def resigned(view: GameView, config: Config, address: str, powers: list[str]) -> list[Mail]:
    return per_zone(view, config, view.members(), lambda ctx: render.resign_mail(ctx, address, powers), "notice")


def ejected(view: GameView, config: Config, player: Player) -> list[Mail]:
    """An ejected player's powers are told to everyone; an ejected observer concerns only
    the observer and the master."""
    if player.power is None:
        to = [player, *view.members(MASTER)]
        return per_zone(view, config, to, lambda ctx: render.eject_mail(ctx, player.email, []), "private")
    return per_zone(view, config, [*view.members(), player],
                    lambda ctx: render.eject_mail(ctx, player.email, [player.power or ""]), "notice")


def state_changed(view: GameView, config: Config, change: str) -> list[Mail]:
    return per_zone(view, config, view.members(), lambda ctx: render.game_state_mail(ctx, change), "notice")


def deadline_changed(view: GameView, config: Config, *, wait_set: bool = False) -> list[Mail]:
    game = view.game
    deadline = game.deadline
    assert deadline is not None
    return per_zone(view, config, view.members(),
                    lambda ctx: render.deadline_changed_mail(ctx, deadline, game.grace_end, wait_set=wait_set),
                    "notice")


def settings_changed(view: GameView, config: Config, changes: Sequence[str]) -> list[Mail]:
    """One mail to everyone in the game listing every setting changed by one mail."""
    return per_zone(view, config, view.members(), lambda ctx: render.settings_mail(ctx, list(changes)), "notice")
