"""Reply to play: a mail sent to a member's reply address is that member's mail signed on to
the game, without the ``SIGNON`` line; and the master's ``SET [NO] REPLY TO PLAY``
(:mod:`judge.game.tokens` makes and checks the addresses).

A mail that holds a sign-on of its own is read as it is written, wherever it was sent. A
reply address that is no longer good (the password changed, the power changed hands, the
master turned reply to play off), or that is not the sender's, signs nobody on, and the
reply says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import getaddresses

from sqlalchemy.orm import Session

from .. import render
from ..config import Config
from ..game import tokens
from ..game.mails import role_of
from ..game.view import view_of
from ..mail.reader import IncomingMail
from ..store.games import find_game
from .command import Command
from .outcome import Call, Identity, Outcome, said


@dataclass(frozen=True, slots=True)
class ByReply:
    """Who a mail to a reply address is signed on as (None: nobody), and the reply section."""

    identity: Identity | None
    outcome: Outcome


def recipients_of(mail: IncomingMail) -> list[str]:
    """The addresses the mail was sent to: the envelope's, then the To and Cc headers'."""
    headers = [str(v) for name in ("To", "Cc") for v in (mail.headers.get_all(name) or [])]
    return [*mail.recipients, *(address for _, address in getaddresses(headers))]


def signed_by_reply(session: Session, config: Config, mail: IncomingMail, commands: list[Command],
                    signs_on: frozenset[str]) -> ByReply | None:
    """The sign-on a mail gets from the reply address it was sent to, or None when it was sent
    to none or signs on by itself."""
    if any(cmd.verb in signs_on for cmd in commands):
        return None
    found = tokens.member_for(session, config, recipients_of(mail), mail.sender)
    if found is None:
        return None
    player = found.player
    if player is None or not found.from_member:
        reason = "stale" if player is None else "sender"
        text = render.section("player/reply_play", reason=reason, game=player.game.name if player else "", role="")
        return ByReply(None, Outcome(reply=(render.error_text(text),), errors=1))
    game = find_game(session, player.game.name, lock=True)
    assert game is not None
    view = view_of(session, game)
    text = render.section("player/reply_play", reason="signed", game=game.name, role=role_of(player))
    return ByReply(Identity(view, player), said(text))


def _set(call: Call, on: bool) -> Outcome:
    game = call.view.game
    changed = game.reply_play != on
    game.reply_play = on
    text = render.section("all/reply_play_set", game=game.name, on=on, changed=changed)
    return said(text, settings=(text,) if changed else ())


def set_reply_play(call: Call) -> Outcome:
    """``SET REPLY TO PLAY``: the game's mail carries each member's reply address (the default)."""
    return _set(call, True)


def set_noreply_play(call: Call) -> Outcome:
    """``SET NO REPLY TO PLAY``: no reply addresses; those already sent stop working."""
    return _set(call, False)
