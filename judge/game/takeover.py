"""Taking over an abandoned power (njudge Bug91-16) and a resigned player's comeback
(Bug91-14).

A power is abandoned when its player resigned or was ejected and it still has a unit or a
supply centre. ``SIGNON <letter><game> <password>`` for an abandoned power of an active or
paused game gives it to the sender (njudge: "taken over by anyone ... merely by signing on
with any password"; this judge needs no master's approval): the password given becomes the
power's password. If the sender is the player who resigned it and gives the old password,
that player returns instead. The master cannot take a power, and an ejected player cannot
take back the power they were ejected from.

The newcomer gets the ``Power Assignment`` mail (the power, the position and the deadline);
everyone else is told (the master with the newcomer's address, the others without, as
njudge does). If less than a phase's usual time is left, the deadline moves to the usual
time from now so that the newcomer can order, and grace moves with it.
"""

from __future__ import annotations

import logging
from datetime import datetime

from ..maps import load_map
from ..render import notices as rn
from ..render.context import Rendered
from ..render.environment import render
from ..store.games import ACTIVE, EJECTED, MASTER, PAUSED, PLAYER, RESIGNED, Game, Player, members
from ..store.passwords import check_password, hash_password
from .board import alive_powers, board_of
from .deadlines import default_deadline
from .grace import move_deadline
from .notices import game_ctx, send
from .service import MailState

log = logging.getLogger(__name__)


def abandoned(game: Game, power: str) -> bool:
    """True if ``power`` is alive and nobody plays it."""
    if any(p.role == PLAYER and p.power == power and p.active for p in game.players):
        return False
    b = board_of(game)
    return power in alive_powers(b.m, b.position)


def refusal(game: Game, power: str, sender: str) -> str | None:
    """Why ``sender`` may not take ``power`` over, or None."""
    if any(p.role == MASTER and p.email == sender and p.active for p in game.players):
        return f"The master of game '{game.name}' cannot take over a power."
    if any(p.power == power and p.email == sender and p.status == EJECTED for p in game.players):
        return f"You were ejected from {power} in game '{game.name}'; ask the master."
    return None


def take_over(state: MailState, game: Game, letter: str, password: str) -> bool:
    """Give the abandoned power of ``letter`` to the sender; False if it is not abandoned
    (the sign-on then fails as usual). A refusal is reported as an error."""
    power = load_map(game.map_name).power_by_letter.get(letter)
    if power is None or game.status not in (ACTIVE, PAUSED) or not abandoned(game, power.name):
        return False
    why = refusal(game, power.name, state.sender)
    if why is not None:
        state.bad_password, state.failure, state.stop = True, why, True
        return True
    old = next((p for p in game.players if p.power == power.name and p.email == state.sender
                and p.status == RESIGNED and check_password(password, p.password_hash)), None)
    if old is not None:
        old.status = "active"
        me = old
    else:
        me = Player(game_id=game.id, email=state.sender, password_hash=hash_password(password), role=PLAYER,
                    power=power.name)
        game.players.append(me)
    state.session.flush()
    moved = _give_time(game, state.now)
    state.game, state.me, state.touched = game, me, True
    _announce(state, game, me, returned=old is not None, moved=moved)
    log.info("%s: %s %s %s", game.name, state.sender, "returned as" if old else "took over", power.name)
    return True


def _give_time(game: Game, now: datetime) -> bool:
    """Move the deadline to a phase's usual time from now if it is sooner; True if moved."""
    if game.deadline is None:
        return False
    usual = default_deadline(now, game.hours_for(board_of(game).phase.kind))
    if usual <= game.deadline:
        return False
    move_deadline(game, usual)
    return True


def _announce(state: MailState, game: Game, me: Player, *, returned: bool, moved: bool) -> None:
    ctx = game_ctx(state.config, game)
    assert me.power is not None and ctx.phase is not None
    grace = game.grace_end
    when = {"deadline": ctx.when(game.deadline) if moved and game.deadline else None,
            "grace": ctx.when(grace) if moved and grace else None}
    what = "player returned as" if returned else "Takeover of"
    subject = f"{ctx.subject_prefix} {what} {me.power}"
    others = [p for p in members(game) if p is not me]
    for role in (PLAYER, MASTER):
        show = returned or role == MASTER
        to = [p.email for p in others if (p.role == MASTER) == (role == MASTER)]
        if to:
            body = render("game/takeover.txt.j2", header=ctx.header, game=game.name, power=me.power,
                          address=me.email if show else None, returned=returned, **when)
            send(state.session, to, Rendered(subject, body), game, "notice")
    selected = rn.selected_mail(ctx, me.power, None, board_of(game).position, game.deadline)
    send(state.session, me.email, selected, game, "selected")
    state.say(render("game/takeover_reply.txt.j2", game=game.name, power=me.power, returned=returned,
                     letter=rn.role_letter(ctx, me.power), **when))
