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
from dataclasses import dataclass
from datetime import datetime

from .. import render
from ..config import Config
from ..store.games import ACTIVE, EJECTED, MASTER, PAUSED, PLAYER, RESIGNED, Player
from ..store.passwords import check_password, hash_password
from .clocks import deadline_after
from .deadlines import zone
from .lateness import move_deadline
from .mails import Mail, context
from .view import GameView

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TakenOver:
    """A power taken over: its new player, the reply section and the mails to send."""

    player: Player
    reply: str
    mails: list[Mail]


def alive_powers(view: GameView) -> list[str]:
    """Powers with a unit (dislodged or not) or a supply centre, in map order."""
    position = view.position
    alive = {u.power for u in position.units.values()} | set(position.owners.values())
    alive |= {d.unit.power for d in position.dislodged.values()}
    return [pw.name for pw in view.map.powers if pw.name in alive]


def abandoned(view: GameView, power: str) -> bool:
    """True if ``power`` is alive and nobody plays it."""
    return view.player_of(power) is None and power in alive_powers(view)


def refusal(view: GameView, power: str, sender: str) -> str | None:
    """Why ``sender`` may not take ``power`` over, or None."""
    game = view.game
    if any(p.role == MASTER and p.email == sender and p.active for p in game.players):
        return f"The master of game '{game.name}' cannot take over a power."
    if any(p.power == power and p.email == sender and p.status == EJECTED for p in game.players):
        return f"You were ejected from {power} in game '{game.name}'; ask the master."
    return None


def take_over(view: GameView, config: Config, letter: str, sender: str, password: str,
              now: datetime) -> TakenOver | str | None:
    """Give the abandoned power of ``letter`` to ``sender``: what happened, or why it may
    not (a text), or None if the power is not abandoned (the sign-on then fails as usual)."""
    game = view.game
    power = view.map.power_by_letter.get(letter)
    if power is None or game.status not in (ACTIVE, PAUSED) or not abandoned(view, power.name):
        return None
    why = refusal(view, power.name, sender)
    if why is not None:
        return why
    old = next((p for p in game.players if p.power == power.name and p.email == sender
                and p.status == RESIGNED and check_password(password, p.password_hash)), None)
    if old is not None:
        old.status = "active"
        me = old
    else:
        me = Player(game_id=game.id, email=sender, password_hash=hash_password(password), role=PLAYER,
                    power=power.name)
        game.players.append(me)
    view.session.flush()
    moved = _give_time(view, config, now)
    log.info("%s: %s %s %s", game.name, sender, "returned as" if old else "took over", power.name)
    return _announce(view, config, me, returned=old is not None, moved=moved)


def _give_time(view: GameView, config: Config, now: datetime) -> bool:
    """Move the deadline to a phase's usual time from now if it is sooner; True if moved."""
    game = view.game
    if game.deadline is None:
        return False
    usual = deadline_after(view.clock(), now, zone(config.timezone))
    if usual <= game.deadline:
        return False
    move_deadline(view, usual, zone(config.timezone))
    return True


def _announce(view: GameView, config: Config, me: Player, *, returned: bool, moved: bool) -> TakenOver:
    ctx = context(config, view)
    game = view.game
    assert me.power is not None
    grace = game.grace_end
    when = {"deadline": ctx.when(game.deadline) if moved and game.deadline else None,
            "grace": ctx.when(grace) if moved and grace else None}
    others = [p for p in view.members() if p is not me]
    mails: list[Mail] = []
    for master in (False, True):
        to = [p.email for p in others if (p.role == MASTER) == master]
        if to:
            shown = master or (returned and not game.gunboat)
            mails.append(Mail.of(to, render.takeover_mail(ctx, me.power, me.email if shown else None,
                                                          returned=returned, **when), "notice", view))
    selected = render.selected_mail(ctx, me.power, None, view.position, game.deadline)
    mails.append(Mail.of(me.email, selected, "selected", view))
    reply = render.section("player/takeover", game=game.name, power=me.power, returned=returned,
                           letter=render.role_letter(ctx, me.power), **when)
    return TakenOver(me, reply, mails)
