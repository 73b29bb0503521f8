"""Requests that wait for an address to confirm it wants the judge's mail (double opt-in, as
GNU Mailman 3 asks a new subscriber).

Contract::

    from judge.store.confirmations import Confirmation, request, pending, prune
    c = request(session, "ann@example.org", OBSERVE, game_id, now, password_hash=h)
    c.token                     # "c<id>-<nonce>": what the address sends back
    pending(session, c.token, now)   # the request while it waits, else None

A request is for one address and one thing: ``observe`` (to observe ``game_id`` with
``password_hash``) or ``address`` (to make it the address of ``player_id``). Its ``nonce`` is
20 random base32 letters (100 bits), so a token cannot be guessed; it is good until
``expires_at`` (:data:`LIFETIME` after it was asked), and used once. Asking the same thing
again for the same address while a request waits renews that request (same token, new
expiry, the newest password), so one address never holds a pile of them. :func:`prune`
forgets the expired ones.
"""

from __future__ import annotations

import base64
import hmac
import secrets
from datetime import datetime, timedelta

from sqlalchemy import ForeignKey, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .base import Base

OBSERVE = "observe"
ADDRESS = "address"
#: How long a request waits for its confirmation (Mailman's default is three days).
LIFETIME = timedelta(days=3)
NONCE_LETTERS = 20


class Confirmation(Base):
    """One request waiting for ``address`` to confirm it."""

    __tablename__ = "confirmation"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address: Mapped[str] = mapped_column(String(320), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), default=None)
    password_hash: Mapped[str | None] = mapped_column(String(255), default=None)
    nonce: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime] = mapped_column(index=True)

    @property
    def token(self) -> str:
        """What the address sends back: ``c<id>-<nonce>`` (also the tag of its reply address)."""
        return f"c{self.id}-{self.nonce}"


def _nonce() -> str:
    return base64.b32encode(secrets.token_bytes(16)).decode().lower()[:NONCE_LETTERS]


def request(session: Session, address: str, kind: str, game_id: int, now: datetime, *,
            player_id: int | None = None, password_hash: str | None = None) -> Confirmation:
    """The waiting request for ``address`` to confirm this (a new one, or the one already
    waiting renewed); flushed, so its token is known."""
    found = session.scalars(select(Confirmation).where(
        Confirmation.address == address, Confirmation.kind == kind, Confirmation.game_id == game_id,
        Confirmation.player_id.is_(None) if player_id is None else Confirmation.player_id == player_id,
        Confirmation.expires_at > now)).first()
    if found is None:
        found = Confirmation(address=address, kind=kind, game_id=game_id, player_id=player_id, nonce=_nonce(),
                             created_at=now)
        session.add(found)
    found.password_hash = password_hash
    found.expires_at = now + LIFETIME
    session.flush()
    return found


def pending(session: Session, token: str, now: datetime) -> Confirmation | None:
    """The request ``token`` names, if it is still waiting (not expired, not used)."""
    number, _, nonce = token.strip().lower().removeprefix("c").partition("-")
    if not number.isdigit() or len(number) > 9 or not nonce:
        return None
    found = session.get(Confirmation, int(number), with_for_update=True)
    if found is None or found.expires_at <= now or not hmac.compare_digest(found.nonce.encode(), nonce.encode()):
        return None
    return found


def is_token(text: str) -> bool:
    """Whether ``text`` has a confirmation token's form (``c<digits>-<letters>``)."""
    number, _, nonce = text.strip().lower().partition("-")
    return number.startswith("c") and number[1:].isdigit() and nonce.isalnum()


def prune(session: Session, now: datetime) -> int:
    """Forget the requests that expired unconfirmed; how many."""
    return int(session.execute(delete(Confirmation).where(Confirmation.expires_at <= now)).rowcount or 0)  # type: ignore[attr-defined]
