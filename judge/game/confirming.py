"""Double opt-in: the judge mails an address only once that address has asked for it.

OBSERVE from an address that is not yet an observer of the game, and SET ADDRESS to an
address that is not yet the member's, do nothing at once: they make a request
(:mod:`judge.store.confirmations`) and the judge sends the address one mail, with the
request's token in a ``CONFIRM <token>`` line and in its ``Reply-To``
(``judge+c<id>-<nonce>@domain``, :func:`judge.game.tokens.confirm_address`). The request
takes effect when a mail from that address confirms it (the CONFIRM line, or any reply to
the confirmation mail); until then the judge sends the address nothing else, as GNU Mailman
3 does for a new subscriber. A request not confirmed within
:data:`~judge.store.confirmations.LIFETIME` expires.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from .. import render
from ..config import Config
from ..render import Rendered
from ..store import confirmations
from ..store.confirmations import ADDRESS, OBSERVE, Confirmation
from ..store.games import OBSERVER, Game, Player
from . import tokens
from .mails import Mail, context, role_of
from .view import GameView, view_of

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Asked:
    """A request made: the section that asks the address to confirm (with its token), the
    address a reply confirms at, and when it expires (as the reader reads dates)."""

    text: str
    reply_to: str
    expires: str


def _asked(view: GameView, config: Config, request: Confirmation, who: str) -> Asked:
    expires = context(config, view).when(request.expires_at)
    text = render.section("player/confirm_asked", kind=request.kind, address=request.address, game=view.name,
                          who=who, token=request.token, expires=expires)
    return Asked(text, tokens.confirm_address(config, request.token), expires)


def ask_observe(view: GameView, config: Config, address: str, password_hash: str, now: datetime) -> Asked:
    """Ask ``address`` to confirm that it observes the game (with ``password_hash``)."""
    request = confirmations.request(view.session, address, OBSERVE, view.game.id, now, password_hash=password_hash)
    log.info("%s asked to observe %s: confirmation %s sent", address, view.name, request.id)
    return _asked(view, config, request, "")


def ask_address(view: GameView, config: Config, member: Player, address: str, now: datetime) -> tuple[Asked, Mail]:
    """Ask ``address`` to confirm that it takes ``member``'s mail for the game: the request
    and the one mail to the address."""
    request = confirmations.request(view.session, address, ADDRESS, view.game.id, now, player_id=member.id)
    who = role_of(member)
    asked = _asked(view, config, request, who)
    ctx = context(config, view)
    body = render.reply_mail(ctx, "", [asked.text], 0).body
    mail = Mail.of(address, Rendered(f"{ctx.subject_prefix} Confirmation", body), "private", view,
                   archive=False, reply_to=asked.reply_to)
    log.info("%s asked that %s's mail in %s go to %s: confirmation %s sent", member.email, who, view.name,
             address, request.id)
    return asked, mail


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A request confirmed: the game, the member it made or moved, what it was, and the
    member's address before (SET ADDRESS)."""

    view: GameView
    member: Player
    kind: str
    old: str


def confirm(session: Session, token: str, sender: str, now: datetime) -> Confirmed | str:
    """Carry out the request ``token`` names, confirmed by a mail from ``sender``: what it
    did, or why nothing was done (a refusal text)."""
    request = confirmations.pending(session, token, now)
    if request is None:
        return render.refusal("confirm_unknown")
    if request.address != sender.strip().lower():
        return render.refusal("confirm_sender")
    game = session.get(Game, request.game_id, with_for_update=True)
    assert game is not None
    view = view_of(session, game)
    done = _observe(view, request) if request.kind == OBSERVE else _move(view, request)
    session.delete(request)
    if isinstance(done, str):
        return done
    member, old = done
    log.info("%s confirmed %s in %s", request.address, request.kind, view.name)
    return Confirmed(view, member, request.kind, old)


def _observe(view: GameView, request: Confirmation) -> tuple[Player, str]:
    game = view.game
    mine = next((p for p in game.players if p.role == OBSERVER and p.email == request.address and p.active), None)
    if mine is None:
        mine = Player(game_id=game.id, email=request.address, password_hash=request.password_hash or "",
                      role=OBSERVER)
        game.players.append(mine)
        view.session.flush()
    elif request.password_hash:
        mine.password_hash = request.password_hash
    return mine, request.address


def _move(view: GameView, request: Confirmation) -> tuple[Player, str] | str:
    member = next((p for p in view.game.players if p.id == request.player_id and p.active), None)
    if member is None:
        return render.refusal("confirm_unknown")
    old, member.email = member.email, request.address
    return member, old

