"""The judge's bot in a seat: ``SET BOT power`` (the master) and ``PRACTICE`` (anyone).

- ``SET BOT power``: the master gives the judge's bot an empty seat: before the start (the
  game then starts when the persons fill the other seats) or later (an abandoned power).
  ``SIGNON`` with the power's letter gives it to a person at once (:mod:`judge.game.takeover`).
- ``PRACTICE ?name password [variant] [power]``: a game against the bot, started at once: the
  sender is its master and plays the power named (else one drawn for the game), the bot
  every other; an NMR game set to ``CD BOT`` (:mod:`judge.game.botseats`).
"""

from __future__ import annotations

from .. import render
from ..game import botseats, joining, takeover
from ..game.assign import seed_for
from ..game.mails import context
from ..maps import load_map
from ..store.games import FORMING, PLAYER, Player
from ..store.passwords import hash_password
from .outcome import Call, Identity, Outcome, said


def set_bot(call: Call) -> Outcome:
    """``SET BOT power`` (module docstring)."""
    view = call.view
    text = call.cmd.text.strip()
    if not text:
        return call.error(render.refusal("bot_syntax"))
    found = view.map.find_power(text)
    if found is None:
        return call.error(render.refusal("bot_no_power", text=text))
    power = found.name
    game = view.game
    if view.player_of(power) is not None:
        return call.error(render.refusal("bot_seat_taken", power=power))
    if game.status == FORMING:
        free = len(view.map.powers) - len(botseats.seated(view)) - (0 if power in game.bot_powers else 1)
        if free < 1:
            return call.error(render.refusal("bot_all_seats", game=game.name))
    elif not takeover.abandoned(view, power):
        return call.error(render.refusal("bot_power_out", power=power))
    botseats.seat(view, power)
    section = render.section("all/game_setting", game=game.name, setting=f"bot {power}", same=False, dropped=False)
    return said(section, changed=True, settings=(section,))


def practice(call: Call) -> Outcome:
    """``PRACTICE ?name password [variant] [power]`` (module docstring)."""
    args = call.cmd.args
    if len(args) < 2 or not args[0].startswith("?") or len(args) > 4:
        return call.error(render.refusal("practice_syntax"))
    words = list(args[2:])
    try:
        named = load_map(words[0]) if words else None
    except KeyError:
        named = None  # CREATE says why
    if named is not None and len(words) > 1 and named.find_power(words[1]) is None:
        return call.error(render.refusal("bot_no_power", text=words[1]))
    read = joining.read_create_words([*words[:1], "cd=bot", "NMR"])
    view = joining.create(call.session, call.config, args[0][1:], args[1], read, call.sender)
    m = view.map
    wanted = m.find_power(words[1]) if len(words) > 1 else None
    game = view.game
    mine = wanted.name if wanted is not None else m.powers[seed_for(game.name) % len(m.powers)].name
    game.bot_powers = [p.name for p in m.powers if p.name != mine]
    me = Player(game_id=game.id, email=call.sender, password_hash=hash_password(args[1]), role=PLAYER)
    game.players.append(me)
    view.session.flush()
    ctx = context(call.config, view, me)
    text = render.section("master/created", game=view.name, master=call.sender, variant=ctx.variant,
                          powers=[p.name for p in m.powers], settings=read.settings, practice=mine,
                          letter=m.power(mine).letter)
    return Outcome(reply=(text,), changed=True, signed_on=Identity(view, me))
