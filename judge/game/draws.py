"""Draws and concessions (njudge ``data/draws``; ``data/index`` SET CONCEDE).

DIAS ("Draws Include All Survivors", the default): ``SET DRAW`` votes for a draw of every
surviving power (one with a unit or a supply centre) and ``SET NO DRAW`` takes the vote
back; when every survivor votes, the game is drawn between them all. With concessions on
(the default) a player may ``SET CONCEDE <power>`` to the largest power (no power has more
supply centres); when every other survivor concedes to it, the game is conceded to it.
``SET NO CONCEDE`` takes the vote back.

NoDIAS (``SET NODIAS``): ``SET DRAW <powers>`` approves a draw among those powers, in
njudge's words: with the voter's own power in the list, "any subset of [drawlist] that also
includes his power"; without it, "any subset of [drawlist], *and* any subset of [drawlist]
including his own power". ``SET DRAW`` alone names every survivor, and ``SET NO DRAW`` is
``SET DRAW <own power>``: only a concession to the voter. When every survivor has voted and
some draws are approved by all, "the draw including the most players passes": that is the
survivors that every voter's list (with the voter, when left out) contains, provided it
contains each voter who named himself; a draw of one power is a concession to it.

A survivor without a player (resigned, ejected, not yet taken over) cannot vote, so it holds
a draw or a concession up, except where the judge's bot plays it (``SET BOT``, ``SET CD BOT``,
a practice game; :func:`judge.game.botseats.plays`): the bot never votes, and as njudge counts
the votes of the powers with players, the survivors the bot plays are left out of the count.
They are still survivors: a DIAS draw includes them, a concession may go to one of them, and
in NoDIAS a draw includes one only where every voter's list does. A draw takes the votes of
two players at least where the bot's powers survive (the bot agrees to no draw, so a person
alone with them cannot declare one, even a one-way NoDIAS draw to themselves; conceding to a
bot's power they can): a practice game ends by a solo, a concession or TERMINATE. A game whose
survivors are all the bot's is not ended by votes. Votes are secret until the game ends (only the voter's reply
tells what the vote means) and count for one phase: processing the phase clears them, and
so does the master's SET DIAS or SET NODIAS (the votes meant something else).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from .. import render
from ..config import Config
from ..engine import centre_counts
from ..store.games import PLAYER, Player
from . import botseats, ending
from .errors import GameError
from .mails import Mail
from .takeover import alive_powers
from .view import GameView

log = logging.getLogger(__name__)

#: What a vote means, for the voter's reply (``templates/player/draw_vote.txt.j2``).
ALL_SURVIVORS, WITH_ME, WITHOUT_ME, ONLY_ME, WITHDRAWN = "all", "with_me", "without_me", "only_me", "withdrawn"


class DrawError(GameError):
    """A vote the game does not allow, or a list that cannot be read; the message is for the voter."""


@dataclass(frozen=True, slots=True)
class Voted:
    """A vote recorded: what it means (``meaning``, the ``powers`` named that count, those
    ``ignored`` because they no longer survive), and the end of the game it brought
    (``how``, ``winners``, the final ``mails``) if it was the last vote needed."""

    meaning: str
    powers: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    how: str | None = None
    winners: list[str] = field(default_factory=list)
    mails: list[Mail] = field(default_factory=list)


def read_powers(view: GameView, text: str) -> list[str]:
    """The powers a list names, in map order: letters run together (``AEF``), or names
    and letters apart (``Austria, England F``). Raises :class:`DrawError`."""
    m = view.map
    found: set[str] = set()
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        power = m.find_power(word)
        if power is not None:
            found.add(power.name)
            continue
        for letter in word.upper():
            by_letter = m.power_by_letter.get(letter)
            if by_letter is None:
                letters = "".join(p.letter for p in m.powers)
                raise DrawError(render.refusal("powers_unreadable", word=word, letters=letters))
            found.add(by_letter.name)
    return [p.name for p in m.powers if p.name in found]


def _settled(view: GameView, config: Config, voted: Voted) -> Voted:
    """The vote, and the end of the game if every survivor now agrees."""
    found = concession(view) if view.game.dias else None
    how, winners = (ending.CONCESSION, [found]) if found is not None else (None, [])
    if how is None:
        drawn = agreed_draw(view)
        if drawn:
            how, winners = (ending.DRAW if len(drawn) > 1 else ending.CONCESSION), drawn
    if how is None:
        return voted
    mails = ending.finish(view, config, how, winners)
    return Voted(voted.meaning, voted.powers, voted.ignored, how, winners, mails)


def vote_draw(view: GameView, config: Config, me: Player, text: str) -> Voted:
    """``SET DRAW [powers]`` by ``me``; raises :class:`DrawError`."""
    assert me.power is not None
    alive = alive_powers(view)
    if view.game.dias:
        if text.strip():
            raise DrawError(render.refusal("draw_dias_no_list", game=view.name))
        me.draw_vote, me.draw_powers = True, []
        return _settled(view, config, Voted(ALL_SURVIVORS))
    named = read_powers(view, text) if text.strip() else []
    me.draw_vote, me.draw_powers = True, named
    counted = [p for p in named if p in alive]
    ignored = [p for p in named if p not in alive]
    if not named:
        meaning = ALL_SURVIVORS
    elif counted == [me.power]:
        meaning = ONLY_ME
    else:
        meaning = WITH_ME if me.power in named else WITHOUT_ME
    return _settled(view, config, Voted(meaning, counted, ignored))


def vote_no_draw(view: GameView, config: Config, me: Player) -> Voted:
    """``SET NO DRAW``: a DIAS vote taken back; in NoDIAS, ``SET DRAW <own power>``."""
    assert me.power is not None
    if view.game.dias:
        me.draw_vote, me.draw_powers = False, []
        return Voted(WITHDRAWN)
    me.draw_vote, me.draw_powers = True, [me.power]
    return _settled(view, config, Voted(ONLY_ME, [me.power]))


def largest(view: GameView) -> list[str]:
    """The surviving powers no power has more supply centres than."""
    counts = centre_counts(view.board, view.position.owners)
    alive = alive_powers(view)
    top = max((counts.get(p, 0) for p in alive), default=0)
    return [p for p in alive if counts.get(p, 0) == top]


def vote_concede(view: GameView, config: Config, me: Player, text: str) -> Voted:
    """``SET CONCEDE <power>``; raises :class:`DrawError`."""
    game = view.game
    if not game.dias:
        raise DrawError(render.refusal("concede_nodias", game=game.name))
    if not game.concessions:
        raise DrawError(render.refusal("concessions_off", game=game.name))
    named = read_powers(view, text) if text.strip() else []
    if len(named) != 1:
        raise DrawError(render.refusal("concede_name_one"))
    power = named[0]
    if power == me.power:
        raise DrawError(render.refusal("concede_to_self"))
    top = largest(view)
    if power not in top:
        raise DrawError(render.refusal("concede_not_largest", largest=top, power=power))
    me.concede_to = power
    return _settled(view, config, Voted(power))


def vote_no_concede(me: Player) -> Voted:
    me.concede_to = None
    return Voted(WITHDRAWN)


def _voters(view: GameView) -> dict[str, Player]:
    return {p.power: p for p in view.members(PLAYER) if p.active and p.power}


def _voting(view: GameView, alive: list[str]) -> list[str]:
    """The survivors whose votes count: all but those the judge's bot plays."""
    return [power for power in alive if not botseats.plays(view, power)]


def concession(view: GameView) -> str | None:
    """The power every other voting survivor concedes to (each having a player), or None."""
    alive = alive_powers(view)
    voting = _voting(view, alive)
    voters = _voters(view)
    if len(alive) < 2 or any(power not in voters for power in voting):
        return None
    for power in alive:
        others = [other for other in voting if other != power]
        if others and all(voters[other].concede_to == power for other in others):
            return power
    return None


def agreed_draw(view: GameView) -> list[str]:
    """The draw every voting survivor's vote allows, the largest one (see the module
    docstring), in map order; empty if there is none."""
    alive = alive_powers(view)
    voting = _voting(view, alive)
    voters = _voters(view)
    if not voting or any(power not in voters or not voters[power].draw_vote for power in voting):
        return []
    if len(voting) < min(2, len(alive)):
        return []  # a person alone with the bot's powers: no one agreed with them
    if view.game.dias:
        return alive
    drawn = set(alive)
    selfish: set[str] = set()
    for power in voting:
        named = set(voters[power].draw_powers or alive) & set(alive)
        if power in named:
            selfish.add(power)
        drawn &= named | {power}
    if not drawn or not selfish <= drawn:
        return []
    return [p for p in alive if p in drawn]


def clear_votes(view: GameView) -> bool:
    """Every draw and concession vote of the game is dropped (after a change of the rules, or
    the phase's end); True if there was any."""
    cast = False
    for p in view.members(PLAYER):
        cast = cast or p.draw_vote or bool(p.draw_powers) or p.concede_to is not None
        p.draw_vote, p.draw_powers, p.concede_to = False, [], None
    return cast
