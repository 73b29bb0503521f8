"""A player's own commands: SET WAIT / SET NOWAIT and RESIGN."""

from __future__ import annotations

from .. import render
from ..game import status
from .outcome import Call, Outcome, said


def set_wait(call: Call) -> Outcome:
    """``SET WAIT``: hold the phase until the deadline even when every order is in."""
    call.me.wait = True
    return said(render.wait_text(True), changed=True)


def set_nowait(call: Call) -> Outcome:
    call.me.wait = False
    return said(render.wait_text(False), changed=True)


def resign(call: Call) -> Outcome:
    """``RESIGN``: the power is left to a takeover; everyone is told (Bug91-13)."""
    me = call.me
    powers = [me.power] if me.power else []
    mails = status.resign(call.view, call.config, me)
    return said(render.section("player/resigned", game=call.view.name, powers=powers), changed=True, mails=mails)
