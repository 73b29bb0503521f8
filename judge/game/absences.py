"""Absences: periods a player or master will be away, and the deadlines they push back
(njudge ``data/absence``).

- ``SET ABSENCE start [TO end]`` declares an absence; without an end it lasts 24 hours.
  Neither date may be before today; without a time the start is at 0:00 and the end at
  23:59 (in the writer's zone). An end before the start is refused. At most
  :data:`MAX_PENDING` absences may be pending for one player; overlapping absences count
  separately.
- A player's absence may last at most the game's ``max_absence`` days (njudge's default 15;
  ``SET MAX ABSENCE 0`` forbids absences). A longer request is refused and the master told:
  the master may declare it (for the player after ``BECOME``), as njudge's ``max_absence``
  does not bind a master. No absence, a master's included, may last more than
  :data:`MOST_DAYS` (31, the highest ``SET MAX ABSENCE``): a master away longer pauses the
  game.
- ``SET NOABSENCE date`` cancels the first pending absence that includes the date (with no
  time given: that touches the day).
- Declaring an absence never moves the current deadline. When a phase starts, its deadline
  is computed as usual; then, while an absence of an active player or master covers it
  (starts at or before it and ends after it), the deadline moves to the end of that absence
  and again to the clock's time and days (:func:`adjust`). Absences over by then are
  forgotten (:func:`expire`).
- The absences together push one phase's deadline at most as far as one absence may last:
  the game's ``max_absence`` days past the deadline the clock gave it, :data:`MOST_DAYS`
  when a master declared one of them (:func:`adjust`), so no chain of absences, each within
  the limit, holds a phase for longer.

The master is told of every absence a player declares or cancels, and sees the pending ones
(:func:`pending_lines`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta, tzinfo

from .. import render
from ..store.games import MASTER, OBSERVER, Absence, Player, game_absences
from .clocks import Clock, fit_deadline, fit_within
from .deadlines import DeadlineError, parse_date
from .errors import GameError
from .view import GameView

MAX_PENDING = 3
MOST_DAYS = 31  # njudge's highest SET MAX ABSENCE
DEFAULT_LENGTH = timedelta(hours=24)
START_TIME, END_TIME = time(0, 0), time(23, 59)
_TO = re.compile(r"\s+to\s+", re.IGNORECASE)
_TIME = re.compile(r"\d{1,2}:\d{2}|\d{4}-\d{1,2}-\d{1,2}[ t]\d")


class AbsenceError(GameError):
    """An absence that cannot be set or cancelled; the message is for the sender."""


@dataclass(frozen=True, slots=True)
class Period:
    """A start and an end, as read from ``start [TO end]``."""

    starts: datetime
    ends: datetime


def read_period(text: str, now: datetime, tz: tzinfo) -> Period:
    """``start [TO end]`` in the dates of ``SET DEADLINE`` (see the module docstring), at
    most :data:`MOST_DAYS` long."""
    first, _, second = (part.strip() for part in _split(text))
    if not first:
        raise AbsenceError(render.refusal("absence_syntax"))
    try:
        starts = parse_date(first, now, tz, default_time=START_TIME)
        ends = parse_date(second, now, tz, default_time=END_TIME) if second else starts + DEFAULT_LENGTH
    except DeadlineError as exc:
        raise AbsenceError(str(exc)) from None
    today = now.astimezone(tz).date()
    if starts.astimezone(tz).date() < today or ends.astimezone(tz).date() < today:
        raise AbsenceError(render.refusal("absence_before_today"))
    if ends <= starts:
        raise AbsenceError(render.refusal("absence_ends_before_start"))
    if ends - starts > timedelta(days=MOST_DAYS):
        raise AbsenceError(render.refusal("absence_longer_than", days=MOST_DAYS))
    return Period(starts, ends)


def _split(text: str) -> tuple[str, str, str]:
    parts = _TO.split(text.strip(), maxsplit=1)
    return (parts[0], "TO", parts[1]) if len(parts) == 2 else (parts[0], "", "")


def pending(player: Player, now: datetime) -> list[Absence]:
    """The player's absences not over yet, earliest first."""
    return sorted((a for a in player.absences if a.ends > now), key=lambda a: a.starts)


def too_long(view: GameView, me: Player, period: Period, *, by_master: bool = False) -> str | None:
    """Why ``me`` may not declare ``period`` in this game (it is longer than the game's
    maximum, or absences are forbidden), or None; a master's absences, also one a master
    declares for a player after BECOME (``by_master``), are bound only by :data:`MOST_DAYS`
    (:func:`read_period`)."""
    if me.role == MASTER or by_master:
        return None
    limit = view.game.max_absence
    if limit <= 0:
        return render.refusal("absences_not_allowed", game=view.name)
    if period.ends - period.starts > timedelta(days=limit):
        return render.refusal("absence_too_long", game=view.name, days=limit)
    return None


def declare(view: GameView, me: Player, period: Period, now: datetime, *, by_master: bool = False) -> Absence:
    """Record ``me``'s absence (the caller checked :func:`too_long`); ``by_master``: a master
    declared it for ``me`` after BECOME."""
    if len(pending(me, now)) >= MAX_PENDING:
        raise AbsenceError(render.refusal("absences_pending", most=MAX_PENDING))
    absence = Absence(player_id=me.id, starts=period.starts, ends=period.ends,
                      by_master=by_master or me.role == MASTER)
    me.absences.append(absence)
    view.session.flush()
    return absence


def cancel(view: GameView, me: Player, text: str, now: datetime, tz: tzinfo) -> Absence:
    """Cancel the first pending absence of ``me`` that includes the date ``text`` (its end,
    after ``TO``, is ignored); a date without a time matches an absence touching that day."""
    first = _split(text)[0].strip()
    if not first:
        raise AbsenceError(render.refusal("noabsence_syntax"))
    try:
        when = parse_date(first, now, tz, default_time=START_TIME)
    except DeadlineError as exc:
        raise AbsenceError(str(exc)) from None
    whole_day = not _TIME.search(first)
    until = when + timedelta(days=1) if whole_day else when
    for absence in pending(me, now):
        if (absence.starts < until if whole_day else absence.starts <= when) and when < absence.ends:
            me.absences.remove(absence)
            view.session.flush()
            return absence
    raise AbsenceError(render.refusal("no_absence_on_date"))


def away(view: GameView) -> list[Absence]:
    """Every absence of the game's active players and masters (observers have none)."""
    return [a for a in game_absences(view.session, view.game) if a.player.active and a.player.role != OBSERVER]


def adjust(view: GameView, deadline: datetime, clock: Clock, tz: tzinfo,
           absences: list[Absence] | None = None) -> datetime:
    """``deadline`` moved past every absence that covers it, each time to the clock's time
    and days again (njudge: "the Judge will find that an absence has been set that includes
    the new deadline, so it will extend the next deadline to the end of that absence period,
    ... and then due to the clock and days parameters set the deadline"), but never more
    than the game's ``max_absence`` days later (:data:`MOST_DAYS` when a master declared
    one of the absences; module docstring). ``absences``: the game's absences when the
    caller has them (:func:`expire`), else :func:`away`'s."""
    absences = away(view) if absences is None else absences
    given, by_master = deadline, False
    for _ in range(50):
        covering = [a for a in absences if a.starts <= deadline < a.ends]
        if not covering:
            break
        by_master = by_master or any(a.by_master for a in covering)
        deadline = fit_deadline(clock, max(a.ends for a in covering), tz)
    if deadline == given:
        return deadline
    days = MOST_DAYS if by_master else max(view.game.max_absence, 0)
    return min(deadline, fit_within(clock, given, days, tz))


def expire(view: GameView, now: datetime) -> list[Absence]:
    """Forget the absences that are over (njudge: "removed from memory"); the others of the
    active players and masters."""
    kept = []
    for absence in game_absences(view.session, view.game):
        if absence.ends <= now:
            absence.player.absences.remove(absence)
        elif absence.player.active and absence.player.role != OBSERVER:
            kept.append(absence)
    return kept


def pending_lines(view: GameView, now: datetime) -> list[tuple[str, datetime, datetime]]:
    """``(who, start, end)`` of every pending absence in the game, for the master (njudge
    ``display_absence``): who is the power, or ``Master``."""
    by_player: dict[int, list[Absence]] = {}
    for absence in game_absences(view.session, view.game):  # one query, not one per player
        if absence.ends > now:
            by_player.setdefault(absence.player_id, []).append(absence)
    out: list[tuple[str, datetime, datetime]] = []
    for p in view.game.players:
        if p.active and p.role != OBSERVER and p.id in by_player:
            who = "Master" if p.role == MASTER else p.power or p.email
            out.extend((who, a.starts, a.ends) for a in sorted(by_player[p.id], key=lambda a: a.starts))
    return sorted(out, key=lambda item: item[1])
