"""The master's commands (njudge ``data/master``, ``data/index``): on a game's course,
PROCESS, PAUSE, RESUME, TERMINATE, EJECT and SET OPTION; the tools to mend a game, PREDICT,
ROLLBACK, UNSTART and FORCE BEGIN; and on people, PROMOTE and BECOME.

BECOME changes who the rest of the mail speaks for: its outcome signs the mail on as the
power's player (so the table refuses master commands after it, and a second BECOME), and
the player gets a copy of the whole reply, as njudge sends one.
"""

from __future__ import annotations

from .. import render
from ..config import Config
from ..engine import Phase, PhaseError
from ..game import predict as prediction
from ..game import processing, rules_in_play, starting, status
from ..game import rollback as rollbacks
from ..game.mails import Mail, context, masters
from ..game.view import GameView
from ..store.games import PAUSED, TERMINATED, Player
from .outcome import Call, Copy, Identity, Outcome, said


def process(call: Call) -> Outcome:
    """``PROCESS [season year phase]``: process now, with whatever orders are in; with a
    phase, only if that is the current one."""
    view, cmd = call.view, call.cmd
    game = view.game
    if cmd.args and game.phase and cmd.args[0].upper() != game.phase.upper():
        try:
            wanted = Phase.parse(" ".join(cmd.args)).code
        except PhaseError:
            wanted = " ".join(cmd.args)
        if wanted != game.phase:
            return call.error(render.refusal("process_other_phase", phase=game.phase, asked=" ".join(cmd.args)))
    done = game.phase or ""
    mails = processing.advance(view, call.config, call.now, forced=True)
    return said(processed_text(call.config, view, done, call.me), changed=True, mails=mails)


def processed_text(config: Config, view: GameView, done: str, reader: Player | None = None) -> str:
    """The phase ``done`` was processed: the game's phase and deadline now, in ``reader``'s
    zone."""
    game = view.game
    ctx = context(config, view, reader)
    return render.section("player/processed", game=game.name, done=done, phase=game.phase,
                          finished=game.deadline is None,
                          deadline=ctx.when(game.deadline) if game.deadline else None)


def _state(call: Call, change: str) -> Outcome:
    view = call.view
    if change == PAUSED:
        mails = status.pause(view, call.config)
    elif change == "resumed":
        mails = status.resume(view, call.config, call.now)
    else:
        mails = status.terminate(view, call.config)
    return said(render.section("master/state_changed", game=view.name, change=change), changed=True, notices=mails)


def pause(call: Call) -> Outcome:
    return _state(call, PAUSED)


def resume(call: Call) -> Outcome:
    return _state(call, "resumed")


def terminate(call: Call) -> Outcome:
    return _state(call, TERMINATED)


def eject(call: Call) -> Outcome:
    """``EJECT power`` or ``EJECT address`` (every place that address holds)."""
    view = call.view
    target = call.cmd.text.strip()
    found = status.who(view, target)
    if not found:
        return call.error(render.refusal("eject_nobody", target=target, game=view.name))
    mails = status.eject(view, call.config, found)
    texts = [render.section("master/ejected", game=view.name, address=p.email, power=p.power) for p in found]
    return said("\n".join(texts), changed=True, notices=mails)


def set_option(call: Call) -> Outcome:
    """``SET OPTION name=value``: a rule switch; once the game has started, only those that
    may change in play (:mod:`judge.game.rules_in_play`)."""
    view, cmd = call.view, call.cmd
    key, sep, value = cmd.text.partition("=")
    if not sep:
        key, _, value = cmd.text.strip().partition(" ")
    if not key.strip() or not value.strip():
        return call.error(render.refusal("option_syntax"))
    name, now = rules_in_play.set_option(view, key, value)
    text = render.section("all/option_set", game=view.name, option=name, value=now, in_play=view.started)
    return said(text, changed=True, settings=(text,))


# -- mending a game ------------------------------------------------------------------------


def predict(call: Call) -> Outcome:
    """``PREDICT``: the master alone gets the current phase adjudicated with the orders in."""
    mail = prediction.predict(call.view, call.config, call.sender)
    return said(_done(call, "predicted"), mails=(mail,))


def rollback(call: Call) -> Outcome:
    """``ROLLBACK [turn_number|phase]``: back to before that turn (default: the last one).
    The restored orders stand and may be changed: the turn is not processed in this mail,
    but as usual once a player's mail completes the orders (or at the deadline)."""
    view = call.view
    done = rollbacks.rollback(view, call.config, rollbacks.target(view, call.cmd.text), call.now)
    return said(_done(call, "rolled_back", seq=done.record.seq, phase=done.record.phase, withdrawn=done.withdrawn,
                      resumed=done.resumed), notices=done.mails)


def unstart(call: Call) -> Outcome:
    """``UNSTART``: a started game with no turn processed back to forming."""
    mails = starting.unstart(call.view, call.config, call.now)
    return said(_done(call, "unstarted"), changed=True, notices=mails)


def force_begin(call: Call) -> Outcome:
    """``FORCE BEGIN``: start the forming game now; the powers without a player are in
    civil disorder, open for takeover."""
    vacant, mails = starting.force_begin(call.view, call.config, call.now)
    return said(_done(call, "begun", powers=vacant), changed=True, mails=mails)


# -- people --------------------------------------------------------------------------------


def promote(call: Call) -> Outcome:
    """``PROMOTE address``: an observer of the game becomes one of its masters."""
    view = call.view
    promoted = status.promote(view, call.cmd.text)
    ctx = context(call.config, view)
    mail = render.promoted_mail(ctx, promoted.email, call.sender)
    to = tuple(dict.fromkeys((promoted.email, *masters(view))))
    return said(_done(call, "promoted", address=promoted.email), notices=(Mail.of(to, mail, "private", view),))


def become(call: Call) -> Outcome:
    """``BECOME power``: the rest of the mail acts as that power's player, who gets a copy
    of the reply (njudge). ``BECOME MASTER``: the creator of a game is its master already."""
    view, text = call.view, call.cmd.text.strip()
    if text.upper() == "MASTER":
        return said(_done(call, "master_already"))
    power = view.map.find_power(text) if text else None
    if power is None and len(text) == 1:
        power = view.map.power_by_letter.get(text.upper())
    if power is None:
        return call.error(render.refusal("become_syntax", game=view.name, powers=[p.name for p in view.map.powers]))
    player = view.player_of(power.name)
    if player is None:
        return call.error(render.refusal("become_unplayed", power=power.name, game=view.name))
    note = render.section("player/become_copy", game=view.name, power=power.name, master=call.sender)
    return Outcome(reply=(_done(call, "became", power=power.name),), signed_on=Identity(view, player, call.me),
                   copies=(Copy(player.email, note, player),))


def _done(call: Call, what: str, **values: object) -> str:
    """The master's reply section for one of the tools above."""
    return render.section("master/done", game=call.view.name, what=what, **{
        "seq": 0, "phase": "", "withdrawn": [], "resumed": False, "powers": [], "address": "", "power": "",
        **values})
