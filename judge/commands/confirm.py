"""CONFIRM: an address's answer to a confirmation request the judge mailed it
(:mod:`judge.game.confirming`). ``CONFIRM <token>``, or any mail sent to the request's
tagged address (a reply to the confirmation mail: :func:`judge.commands.mail.handle_mail`
reads it as this command alone). A confirmed OBSERVE makes the address an observer; a
confirmed SET ADDRESS moves the member's mail there and tells the master.
"""

from __future__ import annotations

from .. import render
from ..game import confirming
from ..game.mails import context
from ..store.confirmations import OBSERVE
from .outcome import Call, Outcome, said
from .settings import address_changed, who_is


def confirm(call: Call) -> Outcome:
    words = call.cmd.args
    if len(words) != 1:
        return call.error(render.refusal("confirm_syntax"))
    done = confirming.confirm(call.session, words[0], call.sender, call.now)
    if isinstance(done, str):
        return call.error(done)
    view, me = done.view, done.member
    ctx = context(call.config, view, me)
    if done.kind == OBSERVE:
        return Outcome(reply=(render.observe_text(ctx),), changed=True, about=view, proved=True)
    text = render.section("player/setting", what="address", game=view.name, who=who_is(me), address=me.email,
                          old=done.old, zone="", default="")
    out = said(text, mails=address_changed(view, call.config, me, done.old))
    return Outcome(reply=out.reply, mails=out.mails, about=view, proved=True)
