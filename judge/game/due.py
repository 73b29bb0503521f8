"""Due games, the third queue: ``games.due_at`` is the next moment anything is due for a game,
and the deadline job claims the games whose moment has come, as the inbox reader claims mail.

- :func:`due_at` is the one rule: for an active game with a deadline, the earliest of the
  reminder before the deadline (unless it went out for this deadline), the phase's next
  lateness notice (the deadline's, each day of grace, the end of grace, then every two days
  while the game waits for replacements: :func:`.lateness.notice_moment`) and, before the
  deadline, the moment a phase whose orders are all in is processed (``process_at``); for
  any other game, never (None). An absence needs no moment of its own: a deadline that would
  fall in one was moved to its end when the phase began (:mod:`.absences`).
- The column is kept by this module: whenever a game row is written with a change to a column
  the rule reads (``DEPENDS``), ``due_at`` is computed again in the same flush (a mapper event),
  so every writer (commands, processing, the master) keeps it without knowing it.
- :func:`claim_due` takes the first game whose moment has come, ``FOR UPDATE SKIP LOCKED`` on
  PostgreSQL (another judge process skips the row it holds; on SQLite the write transaction
  already excludes others), acts on it (:func:`judge.game.processing.act`) in a savepoint, and
  writes its next moment, all in the caller's transaction. A game whose work fails, or that
  was due and had nothing to do (which the rule should never allow), is put off by
  ``retry_seconds`` rather than claimed again at once.
- :func:`sweep` computes every game's moment again as a guard (the deadline job does so every
  ``scheduler_sync_seconds`` and at start), and :func:`earliest` is when the job wakes next.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, event, func, inspect, or_, select
from sqlalchemy.orm import Mapper, Session
from sqlalchemy.orm.attributes import get_history

from ..config import Config
from ..store.games import ACTIVE, Game
from .lateness import notice_moment
from .processing import act

log = logging.getLogger(__name__)

#: The columns :func:`due_at` reads: a write that changes one of them computes it again.
DEPENDS = ("status", "deadline", "grace", "process_at", "reminder", "reminded_for", "late_notices")


def due_at(game: Game) -> datetime | None:
    """The next moment the judge must look at ``game`` (None: nothing will be due)."""
    deadline = game.deadline
    if game.status != ACTIVE or deadline is None:
        return None
    grace = game.grace
    grace_end = deadline if grace is None or grace < deadline else grace
    due = notice_moment(deadline, grace_end, game.late_notices or 0)
    reminder = game.reminder or 0
    if reminder > 0 and game.reminded_for != deadline:
        due = min(due, deadline - timedelta(hours=reminder))
    if game.process_at is not None and game.process_at < deadline:
        due = min(due, game.process_at)
    return due


@event.listens_for(Game, "before_insert")
def _inserted(_mapper: Mapper[Game], _connection: Any, game: Game) -> None:
    game.due_at = due_at(game)


@event.listens_for(Game, "before_update")
def _updated(_mapper: Mapper[Game], _connection: Any, game: Game) -> None:
    # Only a column set since the last flush can have changed (the row's committed_state
    # holds those): its history is read for those alone, not every column's.
    touched = inspect(game).committed_state
    if any(name in touched and get_history(game, name).has_changes() for name in DEPENDS):
        game.due_at = due_at(game)


_CLAIM = (select(Game).where(Game.due_at <= bindparam("now")).order_by(Game.due_at).limit(1)
          .with_for_update(skip_locked=True))
_EARLIEST = select(func.min(Game.due_at))
_SWEPT = select(Game).where(or_(Game.status == ACTIVE, Game.due_at.is_not(None)))


def claim_due(session: Session, config: Config, now: datetime, retry_seconds: float | None = None) -> str | None:
    """Claim the first game due by ``now`` and act on it in ``session``'s transaction; its name,
    None when no game is due (or every due one is held by another judge process)."""
    game = session.scalars(_CLAIM, {"now": now}).first()
    if game is None:
        return None
    retry = timedelta(seconds=config.scheduler_sync_seconds if retry_seconds is None else retry_seconds)
    try:
        with session.begin_nested():
            acted = act(session, config, game, now)
    except Exception:  # noqa: BLE001 - one game must not stop the others: it is tried again later
        log.exception("processing %s failed; trying again in %.0f s", game.name, retry.total_seconds())
        session.refresh(game)
        game.due_at = now + retry
        return game.name
    session.flush()  # the mapper event writes the moment the settings say; the guard below may not
    moment = due_at(game)
    if moment is not None and moment <= now:
        log.error("game %s was due at %s and nothing was done; trying again in %.0f s", game.name,
                  moment.isoformat(), retry.total_seconds())
        moment = now + retry
    if game.due_at != moment:
        game.due_at = moment
    if acted:
        log.debug("game %s: acted at %s, next due %s", game.name, now.isoformat(), moment)
    return game.name


def earliest(session: Session) -> datetime | None:
    """The earliest moment any game is due."""
    return session.scalar(_EARLIEST)


def sweep(session: Session) -> int:
    """Compute every game's ``due_at`` again from its settings; how many were wrong (each is
    logged: the rule was skipped somewhere)."""
    wrong = 0
    for game in session.scalars(_SWEPT):
        moment = due_at(game)
        if game.due_at != moment:
            log.warning("game %s: due_at was %s, its settings say %s", game.name, game.due_at, moment)
            game.due_at = moment
            wrong += 1
    return wrong
