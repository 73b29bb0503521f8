"""SET DRAW, SET NO DRAW, SET CONCEDE and SET NO CONCEDE: a player's secret votes to end the
game in a draw or a concession (njudge ``data/draws``; :mod:`judge.game.draws`). The reply
tells the voter what the vote means; nobody else hears of it until the game ends."""

from __future__ import annotations

from collections.abc import Callable

from .. import render
from ..game import draws
from ..game.draws import Voted
from .outcome import Call, Outcome, said


def set_draw(call: Call) -> Outcome:
    return _voted(call, lambda: draws.vote_draw(call.view, call.config, call.me, call.cmd.text))


def set_nodraw(call: Call) -> Outcome:
    return _voted(call, lambda: draws.vote_no_draw(call.view, call.config, call.me))


def set_concede(call: Call) -> Outcome:
    return _voted(call, lambda: draws.vote_concede(call.view, call.config, call.me, call.cmd.text), concede=True)


def set_noconcede(call: Call) -> Outcome:
    return _voted(call, lambda: draws.vote_no_concede(call.me), concede=True)


def _voted(call: Call, vote: Callable[[], Voted], *, concede: bool = False) -> Outcome:
    voted = vote()
    view = call.view
    text = render.section("player/draw_vote", game=view.name, concede=concede, meaning=voted.meaning,
                          me=call.me.power or "", powers=voted.powers, ignored=voted.ignored, how=voted.how,
                          winners=voted.winners)
    return said(text, changed=True, mails=voted.mails)
