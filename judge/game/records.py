"""Player records: how reliably an address plays (njudge ``data/dedsystems``, Diplicity's
reliability), shown by ``WHOIS`` and ``LIST``, and the minimum a game may ask of those who
join it.

Each :class:`~judge.store.games.Player` row keeps its own counts, so a player who takes over
an abandoned power starts that row clean while the one who left keeps the abandonment.
When a phase is processed (:func:`count_phase`), each active player of a power that had to
order counts it as on time (orders complete, never late), late (completed after the
deadline) or missed (still incomplete once the deadline had passed: civil disorder). The
record of an address adds up its rows:

- ``dedication``, njudge's points: +3 for each phase on time, -1 for each late notice, -50
  for each power abandoned at the end of grace, -100 for each phase missed;
- the on-time ratio: phases on time / phases due (no phases yet: none, which never fails a
  minimum);
- the CD ratio: phases missed / (games started + powers taken over).

A game's master may ask for a minimum dedication (``SET DEDICATION``), a minimum on-time
ratio (``SET ONTIMERAT``) or a maximum CD ratio (``SET RESRAT``) of anyone joining or
taking over a power (:func:`refusal`), and a minimum skill rating (``SET MINRATING``: the
display value, mu - 3 sigma, of the overall ladder, :mod:`.ratings`; a player with no rating
has a new player's).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from .. import render
from ..ratings import fresh
from ..store.games import (
    ELIMINATED,
    FINISHED,
    PLAYER,
    RESIGNED,
    Game,
    Player,
    PlayerStatus,
    players_with_address,
)
from . import lateness, orders, ratings
from .view import GameView

ON_TIME_POINTS, LATE_NOTICE_POINTS, ABANDON_POINTS, MISSED_POINTS = 3, -1, -50, -100


@dataclass(frozen=True, slots=True)
class Record:
    """What an address's places add up to (see the module docstring)."""

    address: str
    on_time: int = 0
    late: int = 0
    missed: int = 0
    late_notices: int = 0
    started: int = 0
    taken_over: int = 0
    finished: int = 0
    abandoned: int = 0
    resigned: int = 0

    @property
    def phases(self) -> int:
        return self.on_time + self.late + self.missed

    @property
    def dedication(self) -> int:
        return (ON_TIME_POINTS * self.on_time + LATE_NOTICE_POINTS * self.late_notices
                + ABANDON_POINTS * self.abandoned + MISSED_POINTS * self.missed)

    @property
    def on_time_ratio(self) -> float | None:
        return self.on_time / self.phases if self.phases else None

    @property
    def cd_ratio(self) -> float | None:
        games = self.started + self.taken_over
        return self.missed / games if games else None


def count_phase(view: GameView, now: datetime) -> list[str]:
    """Before the phase is processed: count it in each active player's record; the powers
    that missed it."""
    need = orders.required(view.board, view.position)
    past = lateness.past_deadline(view.game, now)
    missed = []
    for p in view.members(PLAYER):
        if not p.active or p.power not in need:
            continue
        if lateness.submitted(view, p.power):
            if p.was_late:
                p.late_phases += 1
            else:
                p.on_time += 1
        elif past:
            p.nmr_count += 1
            missed.append(p.power)
    return sorted(missed, key=view.power_rank)


def of_places(address: str, places: list[Player]) -> Record:
    """The record of ``address`` from its places (player rows with a power)."""
    rows = [p for p in places if p.role == PLAYER and p.power]
    return Record(
        address=address,
        on_time=sum(p.on_time for p in rows),
        late=sum(p.late_phases for p in rows),
        missed=sum(p.nmr_count for p in rows),
        late_notices=sum(p.late_notices for p in rows),
        started=sum(1 for p in rows if not p.took_over and p.game.position is not None),
        taken_over=sum(1 for p in rows if p.took_over),
        finished=sum(1 for p in rows if p.game.status == FINISHED and p.status in (PlayerStatus.ACTIVE, ELIMINATED)),
        abandoned=sum(p.abandonments for p in rows),
        resigned=sum(1 for p in rows if p.status == RESIGNED),
    )


def record_of(session: Session, address: str) -> Record:
    """The record of ``address`` over every game on the judge."""
    return of_places(address.strip().lower(), players_with_address(session, address))


def refusal(game: Game, record: Record) -> str | None:
    """Why ``record`` does not meet the game's minimum (njudge's wording), or None."""
    if game.min_dedication is not None and record.dedication < game.min_dedication:
        return render.refusal("dedication_too_low", game=game.name, least=game.min_dedication,
                              rated=record.dedication)
    ratio = record.on_time_ratio
    if game.min_ontime is not None and ratio is not None and ratio < game.min_ontime:
        return render.refusal("ontime_too_low", game=game.name, least=f"{game.min_ontime:.3f}", rated=f"{ratio:.3f}")
    cd = record.cd_ratio
    if game.max_cd_ratio is not None and cd is not None and min(cd, 1.0) > game.max_cd_ratio:
        return render.refusal("cd_ratio_too_high", game=game.name, most=f"{game.max_cd_ratio:.3f}",
                              rated=f"{min(cd, 1.0):.3f}")
    return None


def may_join(view: GameView, address: str) -> str | None:
    """Why ``address`` may not join or take over a power in the game, or None."""
    game = view.game
    if game.min_rating is not None:
        rating = ratings.rating_of(view.session, address) or fresh()
        if rating.display < game.min_rating:
            return render.refusal("rating_too_low", game=game.name, least=f"{game.min_rating:.2f}",
                                  rated=f"{rating.display:.2f}")
    if game.min_dedication is None and game.min_ontime is None and game.max_cd_ratio is None:
        return None
    return refusal(game, record_of(view.session, address))

