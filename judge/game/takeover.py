"""Taking over an abandoned power (njudge Bug91-16) and a player's comeback (Bug91-14).

A power is abandoned when its player resigned, was ejected or was abandoned at the end of
grace (NoNMR, :mod:`.lateness`) and it still has a unit or a supply centre; ``LIST`` shows
it as open. ``SIGNON <letter><game> <password>`` for an abandoned power of an active or
paused game gives it to the sender (njudge: "taken over by anyone not already playing a
power in the game merely by signing on with any password"; this judge needs no master's
approval): the password given becomes the power's password. If the sender is the player who
left it (resigned or abandoned) and gives the old password, that player returns instead. The
master cannot take a power, an ejected player cannot take back the power they were ejected
from, and the game's minimum record (:mod:`.records`) applies to newcomers.

The newcomer's place is a new player row, so their record starts clean while the old
player's keeps the phases missed and the abandonment.

njudge's rule for the clock (``mail.c``, 1.7): once no other power is left abandoned, the
deadline is set again as for a phase starting now, never earlier than it was (the clock's
``next`` hours at its time and days, past absences), grace ends its hours after that and
never earlier than it did, and a wait is placed on every active player (on those with
orders to give, in a game without press) so that the newcomer has time to talk before the
phase is processed. Everyone is told: the newcomer gets the ``Power Assignment`` mail (the
power, the position and the deadline); the others a notice (the master with the newcomer's
address, the others without, as njudge does; the master's copy, with the address, stays
out of the public archive).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from .. import render
from ..config import Config
from ..store.games import ABANDONED, ACTIVE, EJECTED, MASTER, PAUSED, PLAYER, RESIGNED, Player, PlayerStatus
from ..store.passwords import check_password, hash_password
from . import absences, botseats, disclosure, lateness, orders, records
from .clocks import deadline_after, grace_after
from .mails import Mail, context, per_zone
from .view import GameView
from .zones import game_zone

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
    """Why ``sender`` (not returning to the power) may not take ``power`` over, or None."""
    game = view.game
    if any(p.role == MASTER and p.email == sender and p.active for p in game.players):
        return render.refusal("takeover_by_master", game=game.name)
    if any(p.power == power and p.email == sender and p.status == EJECTED for p in game.players):
        return render.refusal("takeover_ejected", power=power, game=game.name)
    playing = next((p.power for p in view.members(PLAYER) if p.email == sender and p.active and p.power), None)
    if playing is not None:
        return render.refusal("takeover_playing_already", power=playing, game=game.name)
    return records.may_join(view, sender)


def take_over(view: GameView, config: Config, letter: str, sender: str, password: str,
              now: datetime) -> TakenOver | str | None:
    """Give the abandoned power of ``letter`` to ``sender``: what happened, or why it may
    not (a text), or None if the power is not abandoned (the sign-on then fails as usual)."""
    game = view.game
    power = view.map.power_by_letter.get(letter)
    if power is None or game.status not in (ACTIVE, PAUSED) or not abandoned(view, power.name):
        return None
    old = next((p for p in game.players if p.power == power.name and p.email == sender
                and p.status in (RESIGNED, ABANDONED) and check_password(password, p.password_hash)), None)
    if old is None:
        why = refusal(view, power.name, sender)
        if why is not None:
            return why
        me = Player(game_id=game.id, email=sender, password_hash=hash_password(password), role=PLAYER,
                    power=power.name, took_over=True)
        game.players.append(me)
    else:
        old.status = PlayerStatus.ACTIVE
        me = old
    botseats.unseat(view, power.name)
    view.session.flush()
    given = _give_time(view, config, now)
    log.info("%s: %s %s %s", game.name, sender, "returned as" if old else "took over", power.name)
    return _announce(view, config, me, returned=old is not None, given=given)


def _give_time(view: GameView, config: Config, now: datetime) -> tuple[bool, bool] | None:
    """njudge's rule (module docstring): once no power is left abandoned, the deadline and
    grace as for a phase starting now (never earlier) and a wait on every active player.
    None if not so; else whether the deadline and whether grace moved (only what moved is
    announced as advanced)."""
    game = view.game
    if game.deadline is None or lateness.open_powers(view):
        return None
    tz = game_zone(game, config)
    clock = view.clock()
    deadline = absences.adjust(view, deadline_after(clock, now, tz, not_before=game.deadline), clock, tz)
    grace_before = game.grace_end
    deadline_moved = deadline > game.deadline
    if deadline_moved:
        lateness.move_deadline(view, deadline, tz)
    grace = grace_after(clock, game.deadline, tz)
    if game.grace is None or grace > game.grace:
        game.grace = grace
    need = set(orders.required(view.board, view.position))
    for p in view.members(PLAYER):
        if p.active and (game.press != "none" or p.power in need):
            p.wait = True
    return deadline_moved, game.grace_end != grace_before


def _announce(view: GameView, config: Config, me: Player, *, returned: bool,
              given: tuple[bool, bool] | None) -> TakenOver:
    game = view.game
    power = me.power
    assert power is not None
    grace = game.grace_end
    moved = given is not None
    deadline_moved, grace_moved = given or (False, False)

    def when(ctx: render.GameContext) -> dict[str, str | None]:
        return {"deadline": ctx.when(game.deadline) if deadline_moved and game.deadline else None,
                "grace": ctx.when(grace) if grace_moved and grace else None}

    others = [p for p in view.members() if p is not me]
    mails: list[Mail] = []
    for master in (False, True):
        shown = me.email if master or (returned and not disclosure.identities_secret(game)) else None

        def build(ctx: render.GameContext, shown: str | None = shown) -> render.Rendered:
            return render.takeover_mail(ctx, power, shown, returned=returned, wait_set=moved, **when(ctx))

        kind = "private" if master else "notice"
        mails.extend(per_zone(view, config, [p for p in others if (p.role == MASTER) == master], build, kind))
    ctx = context(config, view, me)
    selected = render.selected_mail(ctx, power, None, view.position, game.deadline)
    mails.append(Mail.of(me.email, selected, "selected", view))
    reply = render.section("player/takeover", game=game.name, power=power, returned=returned,
                           letter=render.role_letter(ctx, power), wait_set=moved, **when(ctx))
    return TakenOver(me, reply, mails)
