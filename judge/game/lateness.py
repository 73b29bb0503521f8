"""The clock of the current phase: deadline, grace, the processing delay, and who is late
(njudge ``data/deadlines``).

- A phase starts with the deadline its kind's clock gives (:func:`judge.game.clocks.deadline_after`:
  ``next`` hours on, at least ``min``, at the ``clock`` time on an allowed day, never before
  the previous phase's deadline) and the end of grace ``grace`` hours after it.
- A power has submitted its orders when they are complete and the last mail that gave them
  had no error (njudge: "an error free set of orders will be required to set the 'has
  submitted orders' status"). A late power is one with an active player that has not.
- When every power has submitted (and, before the deadline, nobody has ``SET WAIT``), the
  phase is processed after the clock's ``delay`` (njudge: "the number of hours after the
  last required orders have been received before the orders will be processed"); a mail
  within the delay may still change orders, and orders that are no longer all in stop it.
- At the deadline a phase whose orders are all in is processed. Otherwise the judge sends
  the late notices once and waits until the late orders are in or grace ends; then it
  processes with whatever orders are in (units without orders get the civil-disorder
  defaults) and counts the phase as missed for each late player (``nmr_count``).
- Moving the deadline later moves the end of grace to the new deadline plus the grace hours
  when that is later (njudge: "the grace period will automatically be extended"); moving it
  earlier leaves grace where it was. A deadline the master sets gets a late notice of its
  own.

Powers without a player (resigned or ejected, waiting for a takeover) are never late and
never wait.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from ..store.games import PLAYER, Game, Player
from . import orders
from .clocks import deadline_after, grace_after
from .view import GameView


def start_clock(view: GameView, now: datetime, tz: tzinfo) -> None:
    """Set the deadline and grace of the phase starting at ``now`` (the position's phase)."""
    game = view.game
    clock = view.clock()
    game.deadline = deadline_after(clock, now, tz, not_before=game.deadline)
    game.grace = grace_after(clock, game.deadline, tz)
    game.late_notice_sent = False
    game.process_at = None


def stop_clock(game: Game) -> None:
    """The game is over: no deadline, no grace, nothing to process."""
    game.deadline = None
    game.grace = None
    game.process_at = None


def move_deadline(view: GameView, deadline: datetime, tz: tzinfo) -> None:
    """Set a new deadline for the current phase, extending grace if it moves later."""
    game = view.game
    game.deadline = deadline
    game.late_notice_sent = False
    extended = grace_after(view.clock(), deadline, tz)
    if game.grace is None or extended > game.grace:
        game.grace = extended


def submitted(view: GameView, power: str) -> bool:
    """True when ``power``'s orders are complete and its last order mail had no error."""
    entries = view.entries(power)
    return view.errors(power) == 0 and orders.is_complete(view.board, view.position, power, entries)


def late_players(view: GameView) -> list[Player]:
    """Players of powers that must order in this phase and have not submitted, in map order."""
    if not view.started:
        return []
    need = orders.required(view.board, view.position)
    late = [p for p in view.members(PLAYER) if p.active and p.power in need and not submitted(view, p.power)]
    return sorted(late, key=lambda p: view.power_rank(p.power))


def past_deadline(game: Game, now: datetime) -> bool:
    return game.deadline is not None and now >= game.deadline


def in_grace(game: Game, now: datetime) -> bool:
    """True between the deadline and the end of grace."""
    end = game.grace_end
    return past_deadline(game, now) and end is not None and now < end


def all_in(view: GameView, now: datetime) -> bool:
    """Every power with a player has submitted and, before the deadline, nobody waits."""
    if not past_deadline(view.game, now) and any(p.wait for p in view.members(PLAYER)):
        return False
    return not late_players(view)


def count_missed(view: GameView, now: datetime) -> list[str]:
    """Before processing: add one missed phase to every late player if the deadline has
    passed; the powers counted."""
    if not past_deadline(view.game, now):
        return []
    late = late_players(view)
    for p in late:
        p.nmr_count += 1
    return [p.power for p in late if p.power]
