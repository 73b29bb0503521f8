"""PRESS and BROADCAST, and the master's press settings (``SET WHITE``, ``SET GREY``,
``SET NO PRESS``, ``SET NO PARTIAL``...); what reaches whom is :mod:`judge.game.press`.

``PRESS`` with no options sends nothing, as in njudge, so that a slip does not broadcast
one's plans.
"""

from __future__ import annotations

from .. import render
from ..game import press as game_press
from ..game.press_rules import PressSettingError, apply_settings, describe, read_options
from .command import Command
from .outcome import Call, Outcome, said

PRESS_VERB = "PRESS"


def press(call: Call) -> Outcome:
    cmd, view, me = call.cmd, call.view, call.me
    if not cmd.press_text.strip():
        return call.error(_refusal("empty"))
    size = len(cmd.press_text.encode("utf-8"))
    if size > call.config.press_max_bytes:
        return call.error(render.section("player/press_refused", reason="too_long", game=view.name, size=size,
                                         limit=call.config.press_max_bytes))
    if cmd.verb == PRESS_VERB and not cmd.args:
        return call.error(_refusal("no_options"))
    try:
        request = read_options(cmd.args)
        readers = game_press.readers_for(view, request)
    except PressSettingError as exc:
        return call.error(str(exc))
    refused = game_press.refused(view, me, request, readers)
    if refused:
        return call.error(_refusal(refused, game=view.name))
    grey = game_press.is_grey(view, me, request, readers)
    sent, mails = game_press.deliver(view, call.config, cmd.press_text, me, readers, grey)
    return said(sent, mails=mails)


def _refusal(reason: str, game: str = "") -> str:
    return render.section("player/press_refused", reason=reason, game=game, size=0, limit=0)


def setting_text(cmd: Command) -> str:
    """The press setting a ``SET`` line gives (``SET NO GREY, NO PARTIAL`` -> ``NO GREY, NO PARTIAL``)."""
    return cmd.line.strip().split(maxsplit=1)[1] if len(cmd.line.split()) > 1 else ""


def set_press(call: Call) -> Outcome:
    """``SET WHITE``, ``SET GREY``, ``SET NO PRESS``, ``SET NO PARTIAL``... (master only)."""
    game = call.view.game
    try:
        kind, partial = apply_settings(setting_text(call.cmd), game.press, game.partial_press)
    except PressSettingError as exc:
        return call.error(str(exc))
    changed = (kind, partial) != (game.press, game.partial_press)
    game.press, game.partial_press = kind, partial
    text = render.section("all/press_set", game=game.name, changed=changed, press=kind, partial=partial,
                          summary=describe(kind, partial))
    return said(text, settings=(text,) if changed else ())
