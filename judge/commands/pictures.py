"""The map pictures by mail: ``SET NOPICTURES`` / ``SET PICTURES`` and ``GET MAP <game> [<phase>]``.

A player (or observer) turns the picture in their own result mails off and on; the master
turns it off and on for the whole game (everyone is told). ``GET MAP`` mails the picture of
any phase a game has played (with its orders), or of its current position, to anyone, as
HISTORY gives anyone the result mails.
"""

from __future__ import annotations

from .. import render
from ..game.pictures import phase_file
from ..store.games import MASTER
from .outcome import Call, Outcome, said


def _pictures(call: Call, on: bool) -> Outcome:
    me = call.me
    if me.role == MASTER:
        call.view.game.pictures = on
        text = render.section("all/pictures_set", game=call.view.name, on=on, whole_game=True)
        return said(text, settings=(text,))
    me.pictures = on
    return said(render.section("all/pictures_set", game=call.view.name, on=on, whole_game=False))


def set_pictures(call: Call) -> Outcome:
    return _pictures(call, True)


def set_nopictures(call: Call) -> Outcome:
    return _pictures(call, False)


def get_map(call: Call) -> Outcome:
    """``GET MAP <game> [<phase>]``: the picture as an attachment of the reply."""
    args = call.cmd.args
    found = call.game_or_signed_on(args[:1])
    if isinstance(found, Outcome):
        return found
    if not found.started:
        return call.error(render.refusal("map_not_started", game=found.name))
    file = phase_file(call.session, found, " ".join(args[1:]) or None)
    text = render.section("player/map_sent", game=found.name, filename=file.filename)
    return Outcome(reply=(text,), files=(file,), about=found if call.identity is None else None)
