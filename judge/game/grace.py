"""The clock of the current phase: deadline, grace and who is late (njudge ``deadlines``).

- A phase starts with ``deadline = now + hours`` of its kind and ``grace = deadline + grace
  hours`` of its kind (defaults in :mod:`judge.store.games`: 168 h for movement, 72 h for
  retreats and adjustments, njudge's ``grace 167``/``71`` rounded up to whole days).
- At the deadline a phase whose orders are all in is processed (``SET WAIT`` no longer
  holds it). Otherwise the judge does not process: it mails a late notice to each late
  player and tells the master who is late, once per phase.
- During grace the phase is processed as soon as the late orders are complete, or at the
  end of grace with whatever orders are in (units without orders get the civil-disorder
  defaults).
- A player whose orders are still incomplete when the phase is processed after its
  deadline has missed it: ``nmr_count`` goes up by one.
- Moving the deadline later moves the end of grace to the new deadline plus the grace hours
  when that is later (njudge: "the grace period will automatically be extended"); moving it
  earlier leaves grace where it was. A deadline the master sets gets a late notice of its
  own: the phase's notice is sent again if the new deadline also passes with orders late.

A late power is one with an active player whose orders are incomplete; powers without a
player (resigned or ejected, waiting for a takeover) are never late and never wait.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from ..store.games import PLAYER, Game, Player, members, order_sets
from . import orders
from .board import board_of
from .deadlines import default_deadline


def start_clock(game: Game, now: datetime, kind: str) -> None:
    """Set the deadline and grace of a phase of ``kind`` starting at ``now``."""
    game.deadline = default_deadline(now, game.hours_for(kind))
    game.grace = game.deadline + timedelta(hours=game.grace_for(kind))
    game.late_notice_sent = False


def stop_clock(game: Game) -> None:
    """The game is over: no deadline, no grace."""
    game.deadline = None
    game.grace = None


def move_deadline(game: Game, deadline: datetime) -> None:
    """Set a new deadline for the current phase, extending grace if it moves later."""
    assert game.phase is not None
    game.deadline = deadline
    game.late_notice_sent = False
    extended = deadline + timedelta(hours=game.grace_for(board_of(game).phase.kind))
    if game.grace is None or extended > game.grace:
        game.grace = extended


def late_players(session: Session, game: Game) -> list[Player]:
    """Players of powers that must order in this phase and have incomplete orders, in map
    order."""
    if game.phase is None or game.position is None:
        return []
    b = board_of(game)
    need = orders.required(b.engine, b.position)
    stored = order_sets(session, game, game.phase)
    rank = {pw.name: i for i, pw in enumerate(b.m.powers)}
    late = []
    for p in members(game, roles=(PLAYER,)):
        if not p.active or p.power not in need:
            continue
        lines = stored[p.power].lines if p.power in stored else []
        if not orders.is_complete(b.engine, b.position, p.power, lines):
            late.append(p)
    return sorted(late, key=lambda p: rank.get(p.power or "", 99))


def past_deadline(game: Game, now: datetime) -> bool:
    return game.deadline is not None and now >= game.deadline


def in_grace(game: Game, now: datetime) -> bool:
    """True between the deadline and the end of grace."""
    end = game.grace_end
    return past_deadline(game, now) and end is not None and now < end


def count_missed(session: Session, game: Game, now: datetime) -> list[str]:
    """Before processing: add one missed phase to every late player if the deadline has
    passed; the powers counted."""
    if not past_deadline(game, now):
        return []
    late = late_players(session, game)
    for p in late:
        p.nmr_count += 1
    return [p.power for p in late if p.power]
