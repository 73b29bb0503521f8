"""Reply to play (beyond njudge, as Diplicity does it): every mail of a game to one of its
members carries a ``Reply-To`` of their own, and a reply to it acts as that member's mail
signed on to the game, without the ``SIGNON`` line.

The address is the judge's with a tag: ``judge+<id>-<mac>@domain``. ``id`` is the member's
``Player`` row and ``mac`` the first 20 letters (100 bits) of the base32 HMAC-SHA256, keyed
with the judge's key (:func:`judge.store.keys.reply_key`: kept in the database, so a restored
backup keeps every address working), of the game's name, the row and
the member's stored password hash. So it cannot be guessed or made from another, it is
another for every game and member, and it changes by itself when the password does (``SET
PASSWORD`` stores a new hash, with a new salt) and when someone else takes the power over (a
new row). Only active members get one, and only in a game whose master has not turned reply
to play off (``SET NO REPLY TO PLAY``: ``Game.reply_play``).

A reply address is honoured only in mail from the member's own address (:func:`member_for`
says which member an address belongs to, and whether the sender may use it), so that a
reply address that leaks with a forwarded mail is no use to another person.

The judge's confirmation requests (:mod:`judge.store.confirmations`) use the same tagged form
with a ``c`` first: ``judge+c<id>-<nonce>@domain`` (:func:`confirm_address`); a mail sent to
one is that address's confirmation (:func:`confirmation_token`), never a member's reply.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
from collections.abc import Container, Iterable
from dataclasses import dataclass
from email.utils import getaddresses

from sqlalchemy.orm import Session, object_session

from ..config import Config, file_secret
from ..store.games import MASTER, OBSERVER, PLAYER, Game, Player
from ..store.keys import reply_key

MAC_LETTERS = 20


def _mac(secret: bytes, game: str, player: Player) -> str:
    return _mac_of(secret, game, player.id, player.password_hash)


@functools.lru_cache(maxsize=8192)
def _mac_of(secret: bytes, game: str, player_id: int, password_hash: str) -> str:
    """The MAC of one member's reply address, remembered by its inputs (every mail of a game
    addresses all its members: the same MACs again and again)."""
    message = f"reply-to-play\0{game}\0{player_id}\0{password_hash}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:MAC_LETTERS]


def reply_address(config: Config, game: Game, player: Player) -> str | None:
    """The member's reply address in ``game``, or None (reply to play is off, or the member
    is not active)."""
    if not game.reply_play or not player.active:
        return None
    session = object_session(game)
    if session is None:
        raise ValueError(f"game {game.name!r} is not in a session: its reply addresses need the judge's key")
    key = reply_key(session, config.secret, lambda: file_secret(config))
    local, _, domain = config.address.rpartition("@")
    return f"{local}+{player.id}-{_mac(key, game.name, player)}@{domain}"


_ROLE_RANK: dict[str, int] = {PLAYER: 0, MASTER: 1, OBSERVER: 2}


def _rank(player: Player) -> tuple[int, int]:
    return _ROLE_RANK.get(player.role, 3), player.id


def member_addresses(config: Config, game: Game, among: Container[str] | None = None) -> dict[str, str]:
    """Bare address (lower case) -> that member's reply address, for every active member of
    ``game`` (a person who is both a player and an observer gets the player's); with
    ``among``, for the members at those bare addresses only (a reply to one member needs no
    address made for the others)."""
    if not game.reply_play:
        return {}
    out: dict[str, str] = {}
    wanted = [p for p in game.players if p.active and (among is None or p.email.strip().lower() in among)]
    for p in sorted(wanted, key=_rank):
        address = reply_address(config, game, p)
        if address is not None:
            out.setdefault(p.email.strip().lower(), address)
    return out


def _tag(config: Config, address: str) -> str | None:
    local, _, domain = address.strip().lower().rpartition("@")
    own_local, _, own_domain = config.address.lower().rpartition("@")
    if domain != own_domain or not local.startswith(own_local + "+"):
        return None
    return local[len(own_local) + 1:]


@dataclass(frozen=True, slots=True)
class Found:
    """A reply address a mail was sent to: the member it belongs to (None when it is no
    longer valid: the password changed, the member left, reply to play was turned off),
    and whether the mail's sender is that member."""

    player: Player | None
    from_member: bool


def confirm_address(config: Config, token: str) -> str:
    """The judge's address tagged with a confirmation ``token`` (``c<id>-<nonce>``): the
    ``Reply-To`` of a confirmation request, so that a reply to it confirms it."""
    local, _, domain = config.address.rpartition("@")
    return f"{local}+{token}@{domain}"


def confirmation_token(config: Config, recipients: Iterable[str]) -> str | None:
    """The confirmation token of the judge's tagged address a mail was sent to, or None."""
    for _, address in getaddresses(list(recipients)):
        tag = _tag(config, address)
        if tag is not None and tag.startswith("c"):
            return tag
    return None


def member_for(session: Session, config: Config, recipients: Iterable[str], sender: str) -> Found | None:
    """The reply address among a mail's ``recipients`` (addresses or header values), or
    None when the mail was sent to none (a confirmation address is none)."""
    for _, address in getaddresses(list(recipients)):
        tag = _tag(config, address)
        if tag is None or tag.startswith("c"):
            continue
        number, _, mac = tag.partition("-")
        player = session.get(Player, int(number)) if number.isdigit() and len(number) <= 9 and mac else None
        expected = reply_address(config, player.game, player) if player is not None else None
        if player is None or expected is None or not hmac.compare_digest(expected.encode(), address.strip().lower().encode()):
            return Found(None, False)
        return Found(player, player.email.strip().lower() == sender.strip().lower())
    return None
