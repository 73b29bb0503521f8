"""Players' diaries (njudge ``data/index``, ``DIARY``, since 1.5.0): "Diaries allow a
player to record his thoughts during the game for broadcast at the end of the game."

A player's entries are numbered from 1; ``DIARY RECORD`` (or ``DIARY``) adds one, ``DIARY
LIST`` gives their numbers and when each was written, ``DIARY READ n`` one entry, ``DIARY
DELETE n ...`` takes entries away. Numbers are not given again, so deleting any entry but
the newest leaves a hole (the next number is one more than the highest kept). The diary is
the player's own (a new player of the power starts a new one) and nobody else reads it
while the game goes on; when the game ends every diary goes to everyone in the game, after
the final mail (:func:`diaries_of`, :mod:`.ending`), under the name of the power, never an
address.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..store.games import DiaryEntry, Player


@dataclass(frozen=True, slots=True)
class Diary:
    """A diary as the end of the game shows it: its power (or role) and its entries."""

    power: str
    entries: tuple[DiaryEntry, ...]


def record(session: Session, player: Player, body: str, now: datetime) -> DiaryEntry:
    """A new entry of ``player``'s diary: the next number, written ``now``."""
    highest = session.scalar(select(func.max(DiaryEntry.number)).where(DiaryEntry.player_id == player.id))
    entry = DiaryEntry(player_id=player.id, number=(highest or 0) + 1, written=now, body=body)
    session.add(entry)
    session.flush()
    return entry


def entries(session: Session, player: Player) -> list[DiaryEntry]:
    """``player``'s entries, by number."""
    return list(session.scalars(select(DiaryEntry).where(DiaryEntry.player_id == player.id)
                                .order_by(DiaryEntry.number)))


def entry(session: Session, player: Player, number: int) -> DiaryEntry | None:
    """Entry ``number`` of ``player``'s diary, or None."""
    return session.scalar(select(DiaryEntry).where(DiaryEntry.player_id == player.id,
                                                   DiaryEntry.number == number))


def delete_entries(session: Session, player: Player, numbers: Sequence[int]) -> tuple[list[int], list[int]]:
    """Take entries ``numbers`` out of ``player``'s diary: (deleted, not found)."""
    have = {e.number for e in entries(session, player)}
    gone = sorted({n for n in numbers if n in have})
    missing = sorted({n for n in numbers if n not in have})
    if gone:
        session.execute(delete(DiaryEntry).where(DiaryEntry.player_id == player.id, DiaryEntry.number.in_(gone)))
    return gone, missing


def diaries_of(session: Session, players: Sequence[Player]) -> list[Diary]:
    """The diaries of ``players`` that have entries, in the players' order, each named by
    its power (a master's or observer's by its role)."""
    ids = [p.id for p in players]
    rows = list(session.scalars(select(DiaryEntry).where(DiaryEntry.player_id.in_(ids))
                                .order_by(DiaryEntry.player_id, DiaryEntry.number))) if ids else []
    out = []
    for p in players:
        mine = tuple(e for e in rows if e.player_id == p.id)
        if mine:
            out.append(Diary(p.power or p.role.capitalize(), mine))
    return out
