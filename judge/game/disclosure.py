"""Who may read what: the one rule every mail, every copy of a mail, every info command and
every web page asks before it shows a game's secrets.

A reader is a member of the game (a :class:`~judge.store.games.Player`: its master, a
power's player, an observer), ``None`` (someone outside the game: a stranger, or a member
not signed on, since a ``From`` header proves nothing) or :data:`PUBLIC` (the web archive:
anyone at all). What they may read:

- **Orders before processing.** A power's orders for the current phase: its own player and
  the game's masters (:func:`sees_orders`, :func:`sees_every_order`). Everyone reads them in
  the results, once the phase is processed.
- **Press authors.** Grey press reaches its readers without its sender, and fake press as
  sent to others; only the masters' copy says who really sent it and to whom
  (:func:`sees_press_truth`). The address in a white press header is the sender's unless
  identities are secret (:func:`press_author`).
- **Gunboat identities.** In a gunboat game, who plays which power (a player's address, a
  place in WHOIS) is known to its masters alone until the game is over; then the players
  are revealed, as njudge's default ``REVEAL`` does (:func:`sees_identities`).
- **Addresses.** A member's address is shown to whoever may know the member's identity,
  never on the web archive (:func:`sees_addresses`, :func:`public_text`).
- **Copies.** A text written for one reader goes to another only if the other may read all
  the first may (:func:`may_share`: a master's text to masters only, a power's to its
  player and the masters).
"""

from __future__ import annotations

import re
from typing import Final

from ..store.games import FINISHED, MASTER, OBSERVER, PLAYER, TERMINATED, Game, Player


class Public:
    """The reader of the web archive: anyone at all, signed on to nothing."""

    def __repr__(self) -> str:
        return "PUBLIC"


#: The web archive's reader.
PUBLIC: Final = Public()

#: Who reads: a member of the game, someone outside it (None) or the web's public.
Reader = Player | Public | None

#: What stands in for an address a reader may not see (njudge's word for it).
ANONYMOUS = "someone@somewhere"

#: An address, also on a dotless domain (``user@localhost``).
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*")
ADDRESS_HIDDEN = "(address hidden)"


def _member(game: Game, reader: Reader) -> Player | None:
    """``reader`` if it is an active member of ``game``, else None."""
    if not isinstance(reader, Player) or not reader.active:
        return None
    if reader.game_id is not None and game.id is not None:
        return reader if reader.game_id == game.id else None
    return reader if reader.game is game else None


def is_master(game: Game, reader: Reader) -> bool:
    """Whether ``reader`` is one of the game's (active) masters, who read everything."""
    member = _member(game, reader)
    return member is not None and member.role == MASTER


def is_over(game: Game) -> bool:
    return game.status in (FINISHED, TERMINATED)


def identities_secret(game: Game) -> bool:
    """Whether who plays which power is a secret now: a gunboat game that is not over."""
    return game.gunboat and not is_over(game)


def sees_identities(game: Game, reader: Reader) -> bool:
    """Whether ``reader`` may learn who plays which power of ``game``."""
    return not identities_secret(game) or is_master(game, reader)


def sees_addresses(game: Game, reader: Reader) -> bool:
    """Whether ``reader`` may see the members' addresses: whoever may know who they are,
    but never the web archive's public."""
    return not isinstance(reader, Public) and sees_identities(game, reader)


def sees_orders(game: Game, reader: Reader, power: str) -> bool:
    """Whether ``reader`` may see ``power``'s orders before the phase is processed: its
    own player and the masters."""
    if is_master(game, reader):
        return True
    member = _member(game, reader)
    return member is not None and member.role == PLAYER and member.power == power


def sees_every_order(game: Game, reader: Reader) -> bool:
    """Whether ``reader`` may see every power's orders before processing (the masters)."""
    return is_master(game, reader)


def sees_press_truth(game: Game, reader: Reader) -> bool:
    """Whether ``reader`` gets the copy of press that names its real sender and readers
    (grey and fake press): the masters only."""
    return is_master(game, reader)


def press_author(game: Game, role: str, address: str, *, grey: bool) -> str | None:
    """The address a press header shows for a sender of ``role`` (``Master``, ``Observer``
    or a power): none for grey press, none while identities are secret, but the master's."""
    if grey:
        return None
    return address if role == "Master" or not identities_secret(game) else None


def address_for(game: Game, address: str, reader: Reader) -> str:
    """``address`` as ``reader`` may see it."""
    return address if sees_addresses(game, reader) else ANONYMOUS


def may_share(game: Game, written_for: Reader, reader: Reader) -> bool:
    """Whether a text written for ``written_for`` may go to ``reader`` as it is: ``reader``
    may read everything ``written_for`` may (a master's text goes to masters only, a
    power's player's to that player and the masters, anyone else's to any member)."""
    if written_for is reader or is_master(game, reader):
        return True
    writer, member = _member(game, written_for), _member(game, reader)
    if writer is None:
        return True
    if writer.role == OBSERVER:
        return member is not None
    if writer.role == MASTER:
        return False
    return member is not None and member.role == PLAYER and member.power == writer.power


def public_text(text: str) -> str:
    """``text`` as the web archive may publish it: every address hidden."""
    return ADDRESS.sub(ADDRESS_HIDDEN, text)
