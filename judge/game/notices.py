"""Which mail each game event sends, to whom: game start, late notices, resignations,
ejections, state changes, deadline changes and settings.

Each function returns :class:`~judge.game.mails.Mail` values for the caller to queue; the
texts come from :mod:`judge.render`. Mail kinds (the outbox's ``kind``): ``start``,
``selected`` (a power given to one player), ``late`` (a late player's notice: private, not
in HISTORY) and ``notice`` (everything the whole game may read; in HISTORY, as njudge keeps
them).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import render
from ..config import Config
from ..store.games import MASTER, Player
from .gunboat import ANONYMOUS, roster_for, to_everyone
from .mails import Mail, context, everyone, masters, role_of
from .view import GameView


def start(view: GameView, config: Config) -> list[Mail]:
    """The game-start mail, one per reader (``You have been selected as ...``); the archive
    copy is the first one to a reader who is no master (in a gunboat game, only masters see
    the players' addresses)."""
    ctx = context(config, view)
    readers = view.members()
    first = next((p for p in readers if p.role != MASTER), readers[0] if readers else None)
    held = {p.power for p in readers}
    vacant = [pw.name for pw in view.map.powers if pw.name not in held]
    return [Mail.of(p.email, render.game_start_mail(ctx, view.position, view.game.deadline, roster_for(view, p),
                                                    recipient=role_of(p), vacant=vacant),
                    "start", view, archive=p is first)
            for p in readers]


def late(view: GameView, config: Config, late_players: Sequence[Player]) -> list[Mail]:
    """The phase's late notices: one to each late player, one to the master."""
    ctx = context(config, view)
    grace = view.game.grace_end
    assert grace is not None
    mails = [Mail.of(p.email, render.late_player_mail(ctx, p.power or "", grace), "late", view)
             for p in late_players]
    powers = [p.power for p in late_players if p.power]
    mails.append(Mail.of(masters(view), render.late_master_mail(ctx, powers, grace), "notice", view))
    return mails


def resigned(view: GameView, config: Config, address: str, powers: list[str]) -> list[Mail]:
    ctx = context(config, view)
    return to_everyone(view, lambda reveal: render.resign_mail(ctx, address if reveal else ANONYMOUS, powers),
                       "notice")


def ejected(view: GameView, config: Config, players: Sequence[Player]) -> list[Mail]:
    """The master ejected ``players`` (all of one address): its powers are told to everyone
    in one mail (as njudge tells a resignation of several powers); an ejected observer
    concerns only the observer and the master."""
    ctx = context(config, view)
    mails = []
    powers = [p.power for p in players if p.power]
    address = players[0].email
    if powers:
        mails.extend(to_everyone(view, lambda reveal: render.eject_mail(ctx, address if reveal else ANONYMOUS, powers),
                                 "notice", also=(address,)))
    if any(p.power is None for p in players):
        mails.append(Mail.of((address, *masters(view)), render.eject_mail(ctx, address, []), "private", view))
    return mails


def state_changed(view: GameView, config: Config, change: str) -> list[Mail]:
    return [Mail.of(everyone(view), render.game_state_mail(context(config, view), change), "notice", view)]


def settings_changed(view: GameView, config: Config, changes: Sequence[str], deadlines: Sequence[str] = ()) -> list[Mail]:
    """One mail to everyone in the game listing every setting and deadline a master's mail
    changed (``Deadline Changed`` when it changed only deadlines, as njudge titles it)."""
    mail = render.settings_mail(context(config, view), list(changes), list(deadlines))
    return [Mail.of(everyone(view), mail, "notice", view)]
