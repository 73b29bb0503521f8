"""Gunboat games (njudge ``data/info``: "The identities of the other players are kept
secret"): with ``SET GUNBOAT`` the players' addresses are never shown to each other, in
LIST, WHOGAME, SUMMARY, the start mail's player list or any notice; ``someone@somewhere``
stands in their place, as njudge prints it. The masters see every address. Press is made
anonymous by the press rules, which read :func:`is_gunboat`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..render import Rendered
from ..store.games import MASTER, Game, Player
from .mails import Mail, masters, roster
from .view import GameView

#: What a gunboat game shows instead of an address.
ANONYMOUS = "someone@somewhere"


def is_gunboat(game: Game) -> bool:
    """Whether players do not know who plays whom (``SET GUNBOAT``): their addresses are
    never shown to each other, in press neither."""
    return game.gunboat


def reveals(view: GameView, reader: Player | None) -> bool:
    """True if ``reader`` (None: someone outside the game) may see the players' addresses."""
    return not view.game.gunboat or (reader is not None and reader.role == MASTER and reader.active)


def roster_for(view: GameView, reader: Player | None) -> list[tuple[str, str]]:
    """``[(role, address)]`` as ``reader`` may see it: the master, the powers, the observers."""
    people = roster(view)
    if reveals(view, reader):
        return people
    return [(role, ANONYMOUS) for role, _ in people]


def address_for(view: GameView, address: str, reader: Player | None) -> str:
    """``address`` as ``reader`` may see it."""
    return address if reveals(view, reader) else ANONYMOUS


def to_everyone(view: GameView, make: Callable[[bool], Rendered], kind: str, *,
                also: Sequence[str] = ()) -> list[Mail]:
    """A mail to everyone in the game (and to ``also``): ``make(reveal)`` renders it with or
    without the addresses. In a gunboat game the masters get their own copy with them, and
    the others' copy (the archive's) has none."""
    readers = tuple(dict.fromkeys([*(p.email for p in view.members() if p.role != MASTER), *also]))
    if not view.game.gunboat:
        return [Mail.of(tuple(dict.fromkeys((*masters(view), *readers))), make(True), kind, view)]
    return [Mail.of(readers, make(False), kind, view),
            Mail.of(masters(view), make(True), kind, view, archive=False)]
