"""PRESS, BROADCAST and POSTAL PRESS, and the master's press settings (``SET WHITE``, ``SET
GREY``, ``SET NO PRESS``, ``SET NO PARTIAL``, ``SET PARTIAL MAY BE FAKED``, ``SET POSTAL
PRESS``, ``SET OBSERVER WHITE``, ``SET MUST ORDER``...); what reaches whom is
:mod:`judge.game.press`, the settings' words :mod:`judge.game.press_rules`.

``PRESS`` with no options sends nothing, as in njudge, so that a slip does not broadcast
one's plans; ``POSTAL PRESS`` takes none.
"""

from __future__ import annotations

from .. import render
from ..game import press as game_press
from ..game.press_rules import (
    apply_settings,
    describe,
    read_options,
    rules_of,
    store_rules,
)
from ..store.games import FORMING
from .command import Command
from .outcome import Call, Outcome, said

PRESS_VERB = "PRESS"


def _empty(call: Call) -> bool:
    """An empty message, where the game does not allow blank press (SET BLANK PRESS)."""
    return not call.cmd.press_text.strip() and not rules_of(call.view.game).blank


def press(call: Call) -> Outcome:
    cmd, view, me = call.cmd, call.view, call.me
    if _empty(call):
        return call.error(_refusal("empty"))
    size = len(cmd.press_text.encode("utf-8"))
    if size > call.config.press_max_bytes:
        return call.error(render.section("player/press_refused", reason="too_long", game=view.name, size=size,
                                         limit=call.config.press_max_bytes))
    if cmd.verb == PRESS_VERB and not cmd.args:
        return call.error(_refusal("no_options"))
    request = read_options(cmd.args)
    readers = game_press.readers_for(view, request)
    refused = game_press.refused(view, me, request, readers, call.now)
    if refused:
        return call.error(_refusal(refused, game=view.name))
    grey = game_press.is_grey(view, me, request, readers)
    sent, mails = game_press.deliver(view, call.config, cmd.press_text, me, request, readers, grey)
    return said(sent, mails=mails)


def postal_press(call: Call) -> Outcome:
    """``POSTAL PRESS``: kept, and sent to everyone after the phase's results."""
    view, me = call.view, call.me
    if call.cmd.args:
        return call.error(_refusal("postal_options", game=view.name))
    if _empty(call):
        return call.error(_refusal("empty"))
    refused = game_press.postal_refused(view, me, call.now)
    if refused:
        return call.error(_refusal(refused, game=view.name))
    return said(game_press.hold_postal(view, call.config, call.cmd.press_text, me))


def _refusal(reason: str, game: str = "") -> str:
    return render.section("player/press_refused", reason=reason, game=game, size=0, limit=0)


def setting_text(cmd: Command) -> str:
    """The press setting a ``SET`` line gives (``SET NO GREY, NO PARTIAL`` -> ``NO GREY, NO PARTIAL``)."""
    return cmd.line.strip().split(maxsplit=1)[1] if len(cmd.line.split()) > 1 else ""


def set_press(call: Call) -> Outcome:
    """The master's press settings (njudge ``data/press``, ``data/index``)."""
    game = call.view.game
    before = rules_of(game)
    rules = apply_settings(setting_text(call.cmd), before)
    if rules.minor != before.minor and game.status != FORMING:
        return call.error(render.refusal("minor_press_started", game=game.name))
    changed = rules != before
    store_rules(game, rules)
    text = render.section("all/press_set", game=game.name, changed=changed, rules=rules, summary=describe(rules))
    return said(text, settings=(text,) if changed else ())
