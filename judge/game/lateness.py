"""The clock of the current phase: deadline, grace, the earliest processing, the delay, and
who is late (njudge ``data/deadlines``).

- A phase starts with the deadline its kind's clock gives (:func:`judge.game.clocks.deadline_after`:
  ``next`` hours on, at least ``min``, at the ``clock`` time on an allowed day, in the game's
  zone), never before the previous phase's deadline nor the game's ``SET START``, and moved
  past the absences that cover it (:mod:`.absences`). Grace ends ``grace`` hours after the
  deadline, never before the previous phase's grace ended. The phase is never processed
  before ``min`` hours have passed (njudge: "the earliest orders will be processed") nor
  before ``SET START``'s date (``Game.start_at``).
- A power has submitted its orders when they are complete and the last mail that gave them
  had no error (njudge: "an error free set of orders will be required to set the 'has
  submitted orders' status"). A late power is one with an active player that has not.
- An open power is one that must order and has no player (resigned, ejected, abandoned). In
  an NMR game it is in civil disorder and never waited for; in a NoNMR game (njudge's
  default) the game waits for it to be taken over ("No orders will be processed until the
  late power returns or is taken over"), unless the master sends PROCESS.
- When every power has submitted (and, before the deadline, nobody has ``SET WAIT``), the
  phase is processed after the clock's ``delay``; a mail within the delay may still change
  orders, and orders that are no longer all in stop it.
- At the deadline a phase whose orders are all in is processed. Otherwise the lateness
  notices go out (:mod:`.late_notices`) and the judge waits until the orders are in or grace
  ends. Then an NMR game is processed with whatever orders are in (civil-disorder defaults)
  and each late player has missed the phase; in a NoNMR game each late player's power is
  abandoned (:func:`abandon_late`) and offered for takeover.
- A master's ``PROCESS`` ends the phase now (:func:`end_now`): its deadline, grace and
  earliest processing become the moment it was processed, so the next phase takes its own
  clock (njudge's floor of the previous deadline keeps a deadline the master extended; a
  master who processes has moved it to now, as a rollback's restarted clock is).
- Moving the deadline later moves the end of grace to the new deadline plus the grace hours
  when that is later (njudge: "the grace period will automatically be extended"); moving it
  earlier leaves grace where it was. Either way the lateness notices start again.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import datetime, timedelta, tzinfo

from ..store.games import ABANDONED, PLAYER, Game, Player
from . import absences, botseats, orders
from .clocks import deadline_after, grace_after
from .view import GameView

#: Lateness notices come once a day during grace, then every two days while the game waits
#: for replacements (njudge).
NOTICE_EVERY = timedelta(hours=24)
WAITING_EVERY = timedelta(hours=48)


def notice_moment(deadline: datetime, grace_end: datetime, count: int) -> datetime:
    """When the lateness notice number ``count`` (0: the deadline's) of a phase is due: the
    deadline and each day of grace after it, then the end of grace and every two days after."""
    in_grace = max(0, math.ceil((grace_end - deadline) / NOTICE_EVERY))
    if count < in_grace:
        return deadline + count * NOTICE_EVERY
    return grace_end + (count - in_grace) * WAITING_EVERY


def start_clock(view: GameView, now: datetime, tz: tzinfo) -> None:
    """Set the deadline, grace and earliest processing of the phase starting at ``now`` (the
    position's phase); ``tz`` is the game's zone."""
    game = view.game
    clock = view.clock()
    away = absences.expire(view, now)
    floor = max((t for t in (game.deadline, game.start_at) if t is not None), default=None)
    deadline = absences.adjust(view, deadline_after(clock, now, tz, not_before=floor), clock, tz, away)
    old_grace = game.grace
    game.deadline = deadline
    game.grace = grace_after(clock, deadline, tz)
    if old_grace is not None and old_grace > game.grace:
        game.grace = old_grace
    earliest = now + timedelta(hours=clock.min)
    game.start_at = min(deadline, max(earliest, game.start_at or earliest))
    _new_phase(game)


def _new_phase(game: Game) -> None:
    game.late_notice_sent = False
    game.late_notices = 0
    game.reminded_for = None
    game.process_at = None
    for p in game.players:
        p.was_late = False


def stop_clock(game: Game) -> None:
    """The game is over: no deadline, no grace, nothing to process."""
    game.deadline = None
    game.grace = None
    game.process_at = None
    game.start_at = None


def move_deadline(view: GameView, deadline: datetime, tz: tzinfo) -> None:
    """Set a new deadline for the current phase, extending grace if it moves later; the
    lateness notices (and the reminder) start again."""
    game = view.game
    game.deadline = deadline
    game.late_notice_sent = False
    game.late_notices = 0
    for p in game.players:
        p.was_late = False
    if game.start_at is not None and game.start_at > deadline:
        game.start_at = deadline
    extended = grace_after(view.clock(), deadline, tz)
    if game.grace is None or extended > game.grace:
        game.grace = extended


def end_now(game: Game, now: datetime) -> None:
    """A master processes the phase at ``now``: its deadline, grace and earliest processing,
    where later, become ``now``, so that none of them is a floor for the next phase's."""
    for field in ("deadline", "grace", "start_at"):
        value = getattr(game, field)
        if value is not None and value > now:
            setattr(game, field, now)


def set_start(view: GameView, when: datetime, tz: tzinfo) -> bool:
    """``SET START``: no processing before ``when``; a running phase whose deadline is
    earlier gets ``when`` as its deadline (njudge). True if the deadline moved."""
    game = view.game
    game.start_at = when
    if game.deadline is not None and game.deadline < when:
        move_deadline(view, when, tz)
        game.start_at = when
        return True
    return False


def submitted(view: GameView, power: str) -> bool:
    """True when ``power``'s orders are complete and its last order mail had no error."""
    entries = view.entries(power)
    return view.errors(power) == 0 and orders.is_complete(view.board, view.position, power, entries)


def late_players(view: GameView) -> list[Player]:
    """Players of powers that must order in this phase and have not submitted, in map order."""
    return sorted(_late(view), key=lambda p: view.power_rank(p.power))


def _late(view: GameView) -> Iterator[Player]:
    """The late players of :func:`late_players`, in no order, found one at a time."""
    if not view.started:
        return
    need = orders.required(view.board, view.position)
    yield from (p for p in view.members(PLAYER) if p.active and p.power in need and not submitted(view, p.power))


def open_powers(view: GameView) -> list[str]:
    """Powers that must order in this phase and have no player, in map order."""
    if not view.started:
        return []
    need = orders.required(view.board, view.position)
    return sorted((power for power in need if view.player_of(power) is None), key=view.power_rank)


def waited_for(view: GameView) -> list[str]:
    """The open powers the game waits for: all of them in a NoNMR game, none in an NMR game;
    never one the bot plays (:mod:`.botseats`)."""
    if view.game.nmr:
        return []
    return [p for p in open_powers(view) if not botseats.plays(view, p)]


def past_deadline(game: Game, now: datetime) -> bool:
    return game.deadline is not None and now >= game.deadline


def in_grace(game: Game, now: datetime) -> bool:
    """True between the deadline and the end of grace."""
    end = game.grace_end
    return past_deadline(game, now) and end is not None and now < end


def may_start(game: Game, now: datetime) -> bool:
    """True once the phase may be processed (``min`` hours and ``SET START`` have passed)."""
    return game.start_at is None or now >= game.start_at


def all_in(view: GameView, now: datetime) -> bool:
    """Every power with a player has submitted, no open power is waited for, and, before the
    deadline, nobody waits."""
    if not past_deadline(view.game, now) and any(p.wait for p in view.members(PLAYER)):
        return False
    return not _anyone_late(view) and not waited_for(view)


def _anyone_late(view: GameView) -> bool:
    """Whether :func:`late_players` names anyone, found at the first late player: every order
    mail asks, and the powers after it need not be checked nor the list sorted."""
    return next(_late(view), None) is not None


def abandon_late(view: GameView) -> list[Player]:
    """The end of grace in a NoNMR game: each late player's power is abandoned (offered for
    takeover; the player has missed the phase and their record keeps the abandonment)."""
    late = late_players(view)
    for p in late:
        p.status = ABANDONED
        p.abandonments += 1
        p.nmr_count += 1
        p.wait = False
    return late
