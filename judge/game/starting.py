"""The master's hand on a game's start: FORCE BEGIN and UNSTART (njudge ``data/index``,
``data/master``).

- ``FORCE BEGIN`` starts a forming game with the players it has (at least one): powers are
  given by preference as usual, and the powers left over have no player: they are in civil
  disorder (their units hold, their adjustments follow the civil-disorder rule) and open for
  takeover (``SIGNON <letter><game> password``), njudge's "dummy players that are already
  abandoned".
- ``UNSTART`` returns a started game to forming, "only if no turns have yet processed"
  (njudge; after ``ROLLBACK 1`` no turn counts any more): the powers are unassigned, the
  position, orders and deadline are gone, and the game waits for the master (njudge sets
  it ManualStart: ``FORCE BEGIN`` or ``SET AUTOSTART`` starts it again), so that a
  replacement can sign on with a preference list. Its start mail is withdrawn from the
  archive. Everyone is told.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import delete

from .. import render
from ..config import Config
from ..store.games import FORMING, PLAYER, OrderSet, phase_records
from ..store.mail import withdraw_mails
from . import draws, joining, lateness
from .mails import Mail, per_zone
from .status import StatusError
from .view import GameView

log = logging.getLogger(__name__)


def force_begin(view: GameView, config: Config, now: datetime) -> tuple[list[str], list[Mail]]:
    """Start the forming game with the players it has: the powers left in civil disorder,
    and the start mails. Raises :class:`StatusError`."""
    if not view.members(PLAYER):
        raise StatusError(render.refusal("begin_nobody", game=view.name))
    mails = joining.begin(view, config, now)
    taken = {p.power for p in view.members(PLAYER)}
    vacant = [pw.name for pw in view.map.powers if pw.name not in taken]
    log.info("game %s begun by its master; in civil disorder: %s", view.name, ", ".join(vacant) or "none")
    return vacant, mails


def unstart(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """Return the started game to forming (see the module docstring). Raises :class:`StatusError`."""
    game = view.game
    played = phase_records(view.session, game)
    if played:
        raise StatusError(render.refusal("unstart_after_turns", game=game.name, turns=len(played)))
    view.session.execute(delete(OrderSet).where(OrderSet.game_id == game.id))
    for p in game.players:
        p.wait = False
        if p.role == PLAYER:
            p.power, p.since_phase, p.until_phase = None, None, None
    draws.clear_votes(view)
    view.clear_position()
    lateness.stop_clock(game)
    game.status, game.seq, game.manual_start = FORMING, 0, True
    withdraw_mails(view.session, game.name, ["start"], None, now)
    view.session.flush()
    log.info("game %s unstarted by its master", game.name)
    players, powers = len(view.members(PLAYER)), len(view.map.powers)
    return per_zone(view, config, view.members(), lambda ctx: render.unstarted_mail(ctx, players, powers), "notice")
