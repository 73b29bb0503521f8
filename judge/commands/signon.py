"""CREATE, SIGNON, OBSERVE and SET PREFERENCE: who the sender is for the rest of the mail.

- ``CREATE ?name password [variant] [option ...]``: a new game, the sender its master; the
  variant and njudge's option words in any order (``gunboat``, ``NMR``: :mod:`judge.game.joining`).
- ``SIGNON ?name password``: a place in a forming game (again: with the same password; only
  SET PASSWORD changes it, as in njudge).
- ``SIGNON <letter><name> password``: as the power with that letter, ``M`` the master,
  ``O`` an observer; an abandoned power is taken over (:mod:`judge.game.takeover`).
- ``OBSERVE name password``: as an observer.
- ``SET PREFERENCE E[FGR][TAI]``: the powers a player would like, before the start.

A wrong game, power or password undoes the whole mail (njudge, Bug91-10).
"""

from __future__ import annotations

from .. import render
from ..game import absences, disclosure, joining, listing, status, takeover
from ..game.assign import read_preferences
from ..game.joining import WrongPassword
from ..game.mails import context
from ..game.view import GameView
from ..store.games import ACTIVE, MASTER, PAUSED, Player
from ..store.passwords import check_password
from .outcome import Call, Identity, Outcome, said, signon_failed


def create(call: Call) -> Outcome:
    args = call.cmd.args
    if len(args) < 2 or not args[0].startswith("?"):
        return call.error(render.refusal("create_syntax"))
    words = joining.read_create_words(list(args[2:]))
    view = joining.create(call.session, call.config, args[0][1:], args[1], words, call.sender)
    me = view.members()[0]
    ctx = context(call.config, view, me)
    text = render.section("master/created", game=view.name, master=call.sender, variant=ctx.variant,
                          powers=[p.name for p in view.map.powers], settings=words.settings)
    return Outcome(reply=(text,), changed=True, signed_on=Identity(view, me))


def signon(call: Call) -> Outcome:
    args = call.cmd.args
    if len(args) < 2 or len(args[0]) < 2:
        return call.error(render.refusal("signon_syntax"))
    who, password = args[0], args[1]
    if who.startswith("?"):
        return _join(call, who[1:].lower(), password)
    letter, name = who[0].upper(), who[1:].lower()
    view = call.game_named(name, lock=True)
    if view is None:
        return signon_failed(render.refusal("game_unknown", game=name))
    if letter == "O":
        return _observe(call, view, password)
    me = status.master_with(view, password) if letter == "M" else joining.member_for(view, letter)
    if me is None and letter != "M":
        taken = takeover.take_over(view, call.config, letter, call.sender, password, call.now)
        if isinstance(taken, str):
            return signon_failed(taken)
        if taken is not None:
            taken.player.since_phase = taken.player.since_phase or view.game.phase
            return Outcome(reply=(taken.reply,), mails=tuple(taken.mails), changed=True,
                           signed_on=Identity(view, taken.player))
    if me is None or not check_password(password, me.password_hash):
        return signon_failed()
    role = "Master" if letter == "M" else me.power or "Player"
    ctx = context(call.config, view, me)
    sections = [render.signon_text(ctx, role)]
    if disclosure.sees_every_order(view.game, me) and view.game.status in (ACTIVE, PAUSED):
        sections.append(render.power_orders_text(ctx, view.phase, listing.power_orders(view)))
    sections.extend(absence_lines(call, view, me))
    return Outcome(reply=tuple(sections), signed_on=Identity(view, me))


def _join(call: Call, name: str, password: str) -> Outcome:
    view = call.game_named(name, lock=True)
    if view is None:
        return signon_failed(render.refusal("game_unknown", game=name))
    try:
        joined = joining.join(view, call.sender, password)
    except WrongPassword:
        return signon_failed()
    ctx = context(call.config, view, joined.player)
    text = render.joined_text(ctx, joined.players, joined.needed, again=joined.again)
    return Outcome(reply=(text,), changed=True, signed_on=Identity(view, joined.player))


def observe(call: Call) -> Outcome:
    args = call.cmd.args
    if len(args) < 2:
        return call.error(render.refusal("observe_syntax"))
    view = call.game_named(args[0].lstrip("?"), lock=True)
    if view is None:
        return signon_failed(render.refusal("game_unknown", game=args[0].lstrip("?").lower()))
    return _observe(call, view, args[1])


def _observe(call: Call, view: GameView, password: str) -> Outcome:
    found = joining.observe(view, call.sender, password)
    if found is None:
        return signon_failed()
    me, new = found
    return Outcome(reply=(render.observe_text(context(call.config, view, me)),), changed=new,
                   signed_on=Identity(view, me))


def absence_lines(call: Call, view: GameView, me: Player) -> list[str]:
    """The pending absences a member sees at sign-on (njudge ``display_absence``): the
    master every member's, a player their own."""
    pending = [(who, a, b) for who, a, b in absences.pending_lines(view, call.now)
               if me.role == MASTER or who == me.power]
    if not pending:
        return []
    ctx = context(call.config, view, me)
    return [render.section("player/absences", game=view.name,
                           absences=[(who, ctx.when(a), ctx.when(b)) for who, a, b in pending])]


def set_preference(call: Call) -> Outcome:
    me = call.me
    text = "".join(call.cmd.args)
    read_preferences(text, [p.letter for p in call.view.map.powers])
    me.preferences = text.upper()
    return said(render.preference_text(me.preferences), changed=True)
