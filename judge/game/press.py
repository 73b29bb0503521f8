"""Press: ``BROADCAST`` (to everyone in the game) and ``PRESS TO <letters>`` (to some powers).

White press only: every message names its sender's role. ``BROADCAST`` without options and
``PRESS TO ALL`` go to every player, observer and the master; ``PRESS TO FG`` goes to the
players of France and Germany (``M`` is the master), with a copy to the sender. ``PRESS``
with no options sends nothing, as in njudge, so that a slip does not broadcast one's plans.
"""

from __future__ import annotations

import logging

from ..mail import commands as c
from ..mail.commands import Command
from ..maps import load_map
from ..store.games import FORMING, MASTER, Game, Player, members
from . import notices
from .service import MailState, handles, need_signon

log = logging.getLogger(__name__)


@handles(c.BROADCAST, c.PRESS)
def press(state: MailState, cmd: Command) -> None:
    if need_signon(state, cmd):
        return
    game, me = state.game, state.me
    assert game is not None and me is not None
    body = cmd.press_text
    if not body.strip():
        state.error(cmd, "The press message is empty; nothing was sent.")
        return
    words = [w.upper() for w in cmd.args]
    if cmd.verb == c.PRESS and not words:
        state.error(cmd, "PRESS needs options (PRESS TO ALL, PRESS TO FG); nothing was sent.")
        return
    if words[:1] == ["TO"]:
        words = words[1:]
    role = notices.role_of(me)
    if not words or words == ["ALL"]:
        state.say(notices.press(state.session, state.config, game, body, me))
        log.info("%s: broadcast from %s", game.name, role)
        return
    readers = _readers(game, "".join(words))
    if isinstance(readers, str):
        state.error(cmd, readers)
        return
    if game.status == FORMING:
        state.error(cmd, "Partial press needs the powers assigned; the game has not started.")
        return
    state.say(notices.press(state.session, state.config, game, body, me, readers))
    log.info("%s: press from %s to %d readers", game.name, role, len(readers))


def _readers(game: Game, letters: str) -> list[Player] | str:
    """The players the letters name, or an error message."""
    m = load_map(game.map_name)
    people = members(game)
    chosen: list[Player] = []
    for letter in letters:
        if letter == "M":
            chosen += [p for p in people if p.role == MASTER]
            continue
        power = m.power_by_letter.get(letter)
        if power is None:
            return f"No power has the letter {letter!r}."
        chosen += [p for p in people if p.power == power.name]
    return chosen
