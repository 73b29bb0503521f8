"""SET DRAW and SET NO DRAW: a player's secret vote for a draw of all survivors (DIAS,
:mod:`judge.game.draws`)."""

from __future__ import annotations

from .. import render
from ..game import draws
from .outcome import Call, Outcome, said


def set_draw(call: Call) -> Outcome:
    if call.cmd.text.strip():
        return call.error("This judge plays DIAS draws (all survivors): write SET DRAW without a list.")
    return _vote(call, True)


def set_nodraw(call: Call) -> Outcome:
    return _vote(call, False)


def _vote(call: Call, vote: bool) -> Outcome:
    view = call.view
    call.me.draw_vote = vote
    declared = draws.declare_if_agreed(view, call.config) if vote else None
    powers, mails = declared if declared is not None else ([], [])
    text = render.section("player/draw_vote", game=view.name, vote=vote, declared=declared is not None,
                          powers=powers)
    return said(text, changed=True, mails=mails)
