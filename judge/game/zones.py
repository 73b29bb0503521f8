"""Time zones: the game's, each reader's, and the names people write.

Times are stored in UTC. A game's clock (njudge ``data/deadlines``: the ``clock`` time of
day, the ``days`` a deadline may fall on) runs in the game's zone (``SET ZONE`` by its
master, else the judge's ``[judge] timezone``), in wall-clock time, so a deadline set for
Saturday 23:30 in Europe/London stays at 23:30 when the clocks change. Every date a person
reads is shown in their zone: their own ``SET ZONE``, else the game's, else the judge's.
A mail to many readers is rendered once per zone among them (:func:`judge.game.mails.per_zone`).

Zone names are IANA names (``Europe/London``, ``America/New_York``), read in any case;
``UTC`` and ``GMT`` are UTC.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from .. import render
from ..config import Config
from ..store.games import MASTER, Game, Player
from .deadlines import zone
from .errors import GameError


class ZoneError(GameError):
    """A zone name that is no IANA zone; the message is for the sender."""


@cache
def _names() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


def check_zone(text: str) -> str:
    """The IANA name ``text`` means (any case; ``UTC`` and ``GMT`` are ``UTC``)."""
    word = text.strip()
    if word.upper() in ("UTC", "GMT", "Z"):
        return "UTC"
    name = _names().get(word.lower())
    if name is None:
        raise ZoneError(render.refusal("zone_unknown", word=word))
    return name


def game_zone(game: Game, config: Config) -> tzinfo:
    """The zone of the game's clock: its own, else the judge's."""
    return zone(game.zone or config.timezone)


def reader_zone(reader: Player | None, game: Game, config: Config) -> tzinfo:
    """The zone ``reader`` reads the game's dates in: their own, else the game's."""
    if reader is not None and reader.zone:
        return zone(reader.zone)
    return game_zone(game, config)


def member_zone(game: Game, config: Config, address: str) -> tzinfo:
    """The zone of whoever mails from ``address`` about ``game``: a member's own zone if the
    address is one of its members (the master's first), else the game's."""
    return reader_zone(member_at(game.players, address), game, config)


def member_at(players: Iterable[Player], address: str) -> Player | None:
    """The active member signed on from ``address`` (the master first), or None."""
    found = [p for p in players if p.email == address.strip().lower() and p.active]
    found.sort(key=lambda p: p.role != MASTER)
    return found[0] if found else None


def zone_name(tz: tzinfo) -> str:
    """``Europe/London`` (``UTC`` for UTC)."""
    if tz is UTC:
        return "UTC"
    return tz.key if isinstance(tz, ZoneInfo) else str(tz)
