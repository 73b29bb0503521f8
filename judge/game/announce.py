"""Mails for the njudge features added on top of the basic game: late notices, draws and
takeovers. The texts are templates under ``templates/game/``; like :mod:`.notices`, this
module picks the recipients and queues the mail in the caller's transaction.

Mail kinds: ``late`` (a late player's reminder: private, not in HISTORY) and ``notice``
(the master's list of late powers, draws and takeovers: in HISTORY as njudge keeps them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..render.context import GameContext, Rendered
from ..render.environment import render
from ..store.games import MASTER, Game, Player, members
from .notices import everyone, game_ctx, send


def _title(ctx: GameContext) -> str:
    assert ctx.phase is not None
    return ctx.calendar.phase_title(ctx.phase)


def late_player_mail(ctx: GameContext, power: str, grace: Any) -> Rendered:
    """To a late player: its orders were incomplete at the deadline; when grace ends."""
    assert ctx.deadline is not None
    body = render("game/late_player.txt.j2", header=ctx.header, power=power, game=ctx.game,
                  title=_title(ctx), deadline=ctx.when(ctx.deadline), grace=ctx.when(grace))
    return Rendered(f"{ctx.subject_prefix} Late Notice: {power}", body)


def late_master_mail(ctx: GameContext, powers: Sequence[str], grace: Any) -> Rendered:
    """To the master: who is late, and when grace ends."""
    body = render("game/late_master.txt.j2", header=ctx.header, game=ctx.game, title=_title(ctx),
                  powers=list(powers), grace=ctx.when(grace))
    return Rendered(f"{ctx.subject_prefix} Late: {', '.join(powers)}", body)


def late(session: Any, config: Any, game: Game, late_players: Sequence[Player]) -> None:
    """The phase's late notices: one to each late player, one to the master."""
    ctx = game_ctx(config, game)
    grace = game.grace_end
    for p in late_players:
        assert p.power is not None
        send(session, p.email, late_player_mail(ctx, p.power, grace), game, "late")
    masters = [p.email for p in members(game, roles=(MASTER,))]
    if masters:
        powers = [p.power for p in late_players if p.power]
        send(session, masters, late_master_mail(ctx, powers, grace), game, "notice")


def _hours(value: float) -> str:
    return f"{value:g} hour" + ("" if value == 1 else "s")


def lengths_text(game: Game, name: str, hours: float, grace: float) -> str:
    """SET MOVES and friends: the new lengths of a phase kind."""
    return render("game/lengths_set.txt.j2", game=game.name, kind=name, hours=_hours(hours),
                  grace=_hours(grace))


def setting(session: Any, config: Any, game: Game, text: str) -> None:
    """Tell everyone in the game that the master changed a setting (njudge tells all)."""
    ctx = game_ctx(config, game)
    body = render("game/setting_changed.txt.j2", header=ctx.header, game=game.name, text=text)
    send(session, everyone(game), Rendered(f"{ctx.subject_prefix} Settings Changed", body), game, "notice")
