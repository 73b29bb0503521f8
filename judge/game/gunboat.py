"""Gunboat games (njudge ``data/info``: "The identities of the other players are kept
secret"): with ``SET GUNBOAT`` the players' addresses are never shown to each other, in
LIST, WHOGAME, SUMMARY, the start mail's player list or any notice; ``someone@somewhere``
stands in their place, as njudge prints it. The masters see every address. Press is made
anonymous by the press rules, which read :func:`is_gunboat`.
"""

from __future__ import annotations

from ..store.games import Game, Player
from .mails import roster, sees_addresses
from .view import GameView

#: What a gunboat game shows instead of an address.
ANONYMOUS = "someone@somewhere"


def is_gunboat(game: Game) -> bool:
    """Whether players do not know who plays whom (``SET GUNBOAT``): their addresses are
    never shown to each other, in press neither."""
    return game.gunboat


def reveals(view: GameView, reader: Player | None) -> bool:
    """True if ``reader`` (None: someone outside the game) may see the players' addresses."""
    return sees_addresses(view, reader)


def roster_for(view: GameView, reader: Player | None) -> list[tuple[str, str]]:
    """``[(role, address)]`` as ``reader`` may see it: the master, the powers, the observers."""
    people = roster(view)
    if reveals(view, reader):
        return people
    return [(role, ANONYMOUS) for role, _ in people]


def address_for(view: GameView, address: str, reader: Player | None) -> str:
    """``address`` as ``reader`` may see it."""
    return address if reveals(view, reader) else ANONYMOUS
