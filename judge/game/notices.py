"""The one place the game package turns events into text and mail.

Every text comes from :mod:`judge.render` (or, for the few reply sections it does not have,
from ``templates/game/`` through its environment); this module picks the recipients and
queues the mail with :func:`judge.store.mail.queue_mail`, in the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ..engine import Adjudication, Phase, Position
from ..maps import load_map
from ..render import notices as rn
from ..render import replies
from ..render.context import GameContext, JudgeContext, Rendered
from ..render.environment import render
from ..render.formats import time_left
from ..render.results import game_over_text as _game_over_text
from ..render.results import results_mail
from ..store.games import MASTER, OBSERVER, Game, Player, members
from ..store.mail import queue_mail
from .board import board_of
from .deadlines import zone


def game_ctx(config: Any, game: Game) -> GameContext:
    """The render context of ``game`` at its current phase."""
    b = board_of(game)
    options = ", ".join(f"{k}={v}" for k, v in sorted((game.options or {}).items()))
    return GameContext(
        judge_code=config.code, judge_address=config.address, game=game.name, m=b.m,
        tz=zone(config.timezone), calendar=b.rules.calendar, options_text=options,
        phase=Phase.parse(game.phase) if game.phase else None, deadline=game.deadline,
        seq=max(game.seq, 1),
    )


def judge_ctx(config: Any) -> JudgeContext:
    return JudgeContext(judge_code=config.code, judge_address=config.address)


def addresses(players: Iterable[Player]) -> list[str]:
    return [p.email for p in players]


def role_of(p: Player) -> str:
    """``Master``, ``Observer`` or the player's power."""
    if p.role == MASTER:
        return "Master"
    if p.role == OBSERVER:
        return "Observer"
    return p.power or "Player"


def roster(game: Game) -> list[tuple[str, str]]:
    """``[(role, address)]`` for the player lists: master, powers in map order, observers."""
    rank = {pw.name: i for i, pw in enumerate(load_map(game.map_name).powers)}

    def key(p: Player) -> tuple[int, int]:
        if p.role == MASTER:
            return (0, 0)
        if p.role == OBSERVER:
            return (2, p.id)
        return (1, rank.get(p.power or "", 99))

    return [(role_of(p), p.email) for p in sorted(members(game), key=key)]


def send(session: Any, to: Sequence[str] | str, mail: Rendered, game: Game | None, kind: str,
         phase: str | None = None) -> None:
    """Queue ``mail`` to ``to`` for ``game``."""
    queue_mail(session, to, mail.subject, mail.body, game=game.name if game else None,
               phase=phase or (game.phase if game else None), kind=kind)


def everyone(game: Game) -> list[str]:
    return addresses(members(game))


# -- mail to everyone in a game ---------------------------------------------------------------


def start_mails(session: Any, config: Any, game: Game, position: Position) -> None:
    """The game-start mail, one per reader (``You have been selected as ...``)."""
    ctx = game_ctx(config, game)
    people = roster(game)
    for p in members(game):
        mail = rn.game_start_mail(ctx, position, game.deadline, people, recipient=role_of(p))
        send(session, p.email, mail, game, "start")


def results(session: Any, config: Any, game: Game, adjudication: Adjudication, seq: int,
            next_deadline: datetime | None, game_over: str | None) -> str:
    """Queue the result mail of a processed phase to every player, observer and the master;
    returns its body."""
    ctx = game_ctx(config, game)
    mail = results_mail(ctx, adjudication, seq, next_deadline, game_over=game_over)
    send(session, everyone(game), mail, game, "result", adjudication.phase.phase.code)
    return mail.body


def game_over_text(game: Game, winners: Sequence[str]) -> str:
    return _game_over_text(load_map(game.map_name), winners)


def resigned(session: Any, config: Any, game: Game, address: str, powers: list[str]) -> None:
    send(session, everyone(game), rn.resign_mail(game_ctx(config, game), address, powers), game, "notice")


def ejected(session: Any, config: Any, game: Game, address: str, powers: list[str]) -> None:
    send(session, everyone(game), rn.eject_mail(game_ctx(config, game), address, powers), game, "notice")


def state_changed(session: Any, config: Any, game: Game, change: str) -> None:
    send(session, everyone(game), rn.game_state_mail(game_ctx(config, game), change), game, "notice")


def deadline_changed(session: Any, config: Any, game: Game) -> None:
    assert game.deadline is not None
    mail = rn.deadline_changed_mail(game_ctx(config, game), game.deadline, game.grace_end)
    send(session, everyone(game), mail, game, "notice")


def press(session: Any, config: Any, game: Game, body: str, sender: Player,
          readers: list[Player] | None = None, *, names: list[str] | None = None, grey: bool = False) -> str:
    """Press from ``sender`` to ``readers`` (None: everyone), headed as going to ``names``
    (the roles named), with a copy to the master (unless the master sent it); ``grey`` leaves the sender out. Returns
    the reply section."""
    ctx = game_ctx(config, game)
    role = role_of(sender)
    author = None if grey else sender.email
    if names is None and readers is not None:
        names = sorted({role_of(p) for p in readers})
    mail = rn.press_mail(ctx, body, author=author, role=role, recipients=names)
    if readers is None:
        to = everyone(game)
    else:
        masters = [p for p in members(game, roles=(MASTER,)) if p is not sender]
        to = list(dict.fromkeys(addresses(readers) + addresses(masters)))
    send(session, to, mail, game, "press" if readers is None else "partial")
    return rn.press_sent_text(ctx, body, author=author, role=role, recipients=names)


# -- reply sections ---------------------------------------------------------------------------


def error_text(message: str, line: str | None) -> str:
    return replies.error_text(message, line)


def wrong_password_text() -> str:
    return replies.wrong_password_text()


def wait_text(on: bool) -> str:
    return replies.wait_text(on)


def preference_text(preference: str) -> str:
    return replies.preference_text(preference)


def signon_text(config: Any, game: Game, me: Player) -> str:
    return replies.signon_text(game_ctx(config, game), role_of(me))


def observe_text(config: Any, game: Game) -> str:
    return replies.observe_text(game_ctx(config, game))


def joined_text(config: Any, game: Game, players: int, needed: int) -> str:
    return replies.joined_text(game_ctx(config, game), players, needed)


def order_lines_text(lines: Sequence[tuple[str, str | None]]) -> str:
    return render("player/order_lines.txt.j2", lines=list(lines))


def orders_text(config: Any, game: Game, power: str, echo: Sequence[str], complete: bool,
                now: datetime) -> str:
    ctx = game_ctx(config, game)
    return replies.orders_text(ctx, power, echo, complete, game.deadline, now)


def created_text(config: Any, game: Game, master: str) -> str:
    ctx = game_ctx(config, game)
    powers = [p.name for p in ctx.m.powers]
    return render("game/created.txt.j2", game=game.name, master=master, variant=ctx.variant, powers=powers)


def processed_text(config: Any, game: Game, done: str) -> str:
    ctx = game_ctx(config, game)
    return render("game/processed.txt.j2", game=game.name, done=done, phase=game.phase,
                  finished=game.deadline is None, deadline=ctx.when(game.deadline) if game.deadline else None)


def deadline_text(config: Any, game: Game, now: datetime) -> str:
    assert game.deadline is not None
    ctx = game_ctx(config, game)
    end = game.grace_end
    return render("game/deadline_set.txt.j2", game=game.name, deadline=ctx.when(game.deadline),
                  left=time_left(game.deadline, now), grace=ctx.when(end) if end else None,
                  grace_left=time_left(end, now) if end and end > now else None)


def option_text(game: Game, name: str, value: object) -> str:
    return render("game/option_set.txt.j2", game=game.name, option=name, value=value)


def state_text(game: Game, change: str) -> str:
    return render("game/state_changed.txt.j2", game=game.name, change=change)


def ejected_text(game: Game, address: str, power: str | None) -> str:
    return render("game/ejected.txt.j2", game=game.name, address=address, power=power)


def resigned_text(game: Game, powers: list[str]) -> str:
    return render("game/resigned.txt.j2", game=game.name, powers=powers)
