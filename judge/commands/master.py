"""The master's commands on a game's course: PROCESS, PAUSE, RESUME, TERMINATE, EJECT and
SET OPTION (njudge ``data/master``)."""

from __future__ import annotations

from .. import render
from ..config import Config
from ..engine import OptionError, Options, Phase, PhaseError
from ..game import processing, status
from ..game.mails import context
from ..game.status import StatusError
from ..game.view import GameView
from ..store.games import FORMING, Player
from .outcome import Call, Outcome, said


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
            return call.error(f"The game is in {game.phase}, not {' '.join(cmd.args)}; nothing was processed.")
    done = game.phase or ""
    mails = processing.advance(view, call.config, call.now)
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
    try:
        if change == "paused":
            mails = status.pause(view, call.config)
        elif change == "resumed":
            mails = status.resume(view, call.config, call.now)
        else:
            mails = status.terminate(view, call.config)
    except StatusError as exc:
        return call.error(str(exc))
    return said(render.section("master/state_changed", game=view.name, change=change), changed=True, mails=mails)


def pause(call: Call) -> Outcome:
    return _state(call, "paused")


def resume(call: Call) -> Outcome:
    return _state(call, "resumed")


def terminate(call: Call) -> Outcome:
    return _state(call, "terminated")


def eject(call: Call) -> Outcome:
    """``EJECT power`` or ``EJECT address`` (every place that address holds)."""
    view = call.view
    target = call.cmd.text.strip()
    found = status.who(view, target)
    if not found:
        return call.error(f"No power or address {target!r} is signed on to game '{view.name}'.")
    mails = status.eject(view, call.config, found)
    texts = [render.section("master/ejected", game=view.name, address=p.email, power=p.power) for p in found]
    return said("\n".join(texts), changed=True, mails=mails)


def set_option(call: Call) -> Outcome:
    """``SET OPTION name=value``: a rule switch, before the start (phases already played
    were judged by the options in force)."""
    view, cmd = call.view, call.cmd
    game = view.game
    key, sep, value = cmd.text.partition("=")
    if not sep:
        key, _, value = cmd.text.strip().partition(" ")
    if not key.strip() or not value.strip():
        return call.error("Write SET OPTION name=value.")
    if game.status != FORMING:
        return call.error(f"Game '{game.name}' has started; its options (rule switches) can be changed only "
                          "before the start, as the moves already played were judged by them.")
    try:
        options = Options({**(game.options or {}), key.strip(): value.strip()})
    except OptionError as exc:
        return call.error(str(exc))
    game.options = dict(options.explicit)
    view.reload_board()
    name = key.strip().lower()
    text = render.section("all/option_set", game=game.name, option=name, value=options[name])
    return said(text, changed=True, settings=(text,))
