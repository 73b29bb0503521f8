"""SUMMARY of a game (njudge ``data/index``: "who took what power over when and which supply
centers each power owned throughout the game"), also the body of a game's final mail.

- Supply centres: the counts at the start of each Spring movement phase that was played,
  and now.
- Who played each power and when: every player who held it, in the order they came, with
  the first phase they played it (``Player.since_phase``: the first phase for the players of
  the start, the phase of a takeover) and the last (``until_phase``: the phase in which they
  resigned or were ejected; else the one in which the next player took over; for an
  eliminated power, the last phase it was in; the last phase of a game that is over; none
  while they still play it), how many deadlines they missed, and how they left. A player
  without those marks (one who left by another way) is placed by the time they joined.
- Addresses as the reader may see them (:mod:`.disclosure`: in a gunboat game that is not
  over, only its masters see them).

Only phases that still count are read: a phase a ROLLBACK undid is not in the summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.orm import Session

from .. import render
from ..engine import Position, centre_counts
from ..engine.phase import MOVEMENT, SPRING, Phase
from ..store.games import (
    EJECTED,
    ELIMINATED,
    FINISHED,
    MASTER,
    PLAYER,
    RESIGNED,
    TERMINATED,
    PhaseRecord,
    Player,
    phase_records,
)
from .disclosure import ANONYMOUS
from .view import GameView

#: How a player who no longer plays their power left it (``Player.status``).
LEFT: dict[str, str] = {RESIGNED: "resigned", EJECTED: "ejected", ELIMINATED: "eliminated"}


def summary(session: Session, view: GameView, *, reveal: bool, ended: str | None = None,
            through: Phase | None = None) -> render.Summary:
    """The summary of the game; ``reveal`` shows addresses (:func:`.disclosure.sees_addresses`
    of its reader); ``ended`` is the sentence saying how it ended; ``through`` the
    last phase played (default: the current one; a victory's is the phase processed)."""
    last = through or view.phase
    records = phase_records(session, view.game)
    positions = [Position.from_json(view.map, r.position) for r in records]
    centres: list[tuple[Phase, dict[str, int]]] = [
        (pos.phase, centre_counts(view.board, pos.owners)) for pos in positions
        if pos.phase.kind == MOVEMENT and pos.phase.season == SPRING]
    if view.started:
        centres.append((view.phase, centre_counts(view.board, view.position.owners)))
    tenures = _tenures(view, records, positions, reveal, last) if view.started else []
    masters = [p.email if reveal else ANONYMOUS for p in view.members(MASTER)]
    return render.Summary(last if view.started else None, centres, tenures, masters, ended)


def tenures(view: GameView, records: Sequence[PhaseRecord], through: Phase | None = None) -> list[render.Tenure]:
    """Who played each power and when, with addresses, from the game's ``records`` (the
    phases that count, in order): what the ratings share a power's result by."""
    if not view.started:
        return []
    positions = [Position.from_json(view.map, r.position) for r in records]
    return _tenures(view, records, positions, True, through or view.phase)


def _phase_at(records: Sequence[PhaseRecord], when: datetime, now: Phase) -> str:
    """The phase that was being played at ``when``: the first one processed after it."""
    for record in records:
        if record.created_at > when:
            return record.phase
    return now.code


def _tenures(view: GameView, records: Sequence[PhaseRecord], positions: Sequence[Position],
             reveal: bool, last: Phase) -> list[render.Tenure]:
    hide = not reveal
    over = view.game.status in (FINISHED, TERMINATED)
    held: dict[str, list[Player]] = {}
    for p in view.game.players:
        if p.role == PLAYER and p.power:
            held.setdefault(p.power, []).append(p)
    out: list[render.Tenure] = []
    for power in sorted(held, key=view.power_rank):
        players = sorted(held[power], key=lambda p: (p.joined_at, p.id))
        starts = [p.since_phase or _phase_at(records, p.joined_at, view.phase) for p in players]
        for i, p in enumerate(players):
            end: str | None = last.code if over else None
            if p.status == ELIMINATED:
                end = _last_alive(power, records, positions, view.phase)
            elif not p.active:
                end = p.until_phase or (starts[i + 1] if i + 1 < len(players) else last.code)
            out.append(render.Tenure(power, ANONYMOUS if hide else p.email, starts[i], end, p.nmr_count,
                                     LEFT.get(p.status, "" if p.active else "abandoned")))
    return out


def _last_alive(power: str, records: Sequence[PhaseRecord], positions: Sequence[Position], now: Phase) -> str:
    """The last phase in which ``power`` still had a unit or a centre."""
    last = now.code
    for record, pos in zip(records, positions, strict=True):
        alive = any(u.power == power for u in pos.units.values()) or power in pos.owners.values() or any(
            d.unit.power == power for d in pos.dislodged.values())
        if alive:
            last = record.phase
    return last
