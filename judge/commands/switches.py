"""The master's on/off settings of a game (njudge ``data/index``, ``data/master``, ``data/draws``):

- ``SET DIAS`` / ``SET NODIAS``: whether every draw includes all survivors (the draw votes
  already cast are dropped: they meant something else);
- ``SET CONCESSIONS`` / ``SET NOCONCESSIONS``: whether SET CONCEDE is allowed (DIAS games);
- ``SET GUNBOAT`` (before the start: players' addresses are then never shown to each other) /
  ``SET NOGUNBOAT``;
- ``SET LIST`` (``SET PUBLIC``) / ``SET NOLIST`` (``SET UNLIST``, ``SET PRIVATE``): whether
  the game appears in LIST;
- ``SET MANUALSTART`` / ``SET AUTOSTART``: whether a forming game waits for the master's
  FORCE BEGIN (or SET AUTOSTART) once every power has a player;
- ``SET CD BOT`` / ``SET CD HOLD``: whether the judge's bot plays a power in civil disorder
  or its units hold (:mod:`judge.game.botseats`).

Each change goes to everyone in the game in the mail's settings notice.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import render
from ..game import draws
from ..store.games import Game
from .outcome import Call, Outcome, said

Handler = Callable[[Call], Outcome]


def _switch(attribute: str, value: bool | str, setting: str) -> Handler:
    def handler(call: Call) -> Outcome:
        game: Game = call.view.game
        same = getattr(game, attribute) == value
        setattr(game, attribute, value)
        dropped = attribute == "dias" and not same and draws.clear_votes(call.view)
        text = render.section("all/game_setting", game=game.name, setting=setting, same=same, dropped=dropped)
        return said(text, changed=True, settings=() if same else (text,))

    handler.__doc__ = f"SET {setting.upper()}"
    return handler


set_dias = _switch("dias", True, "dias")
set_nodias = _switch("dias", False, "nodias")
set_concessions = _switch("concessions", True, "concessions")
set_noconcessions = _switch("concessions", False, "noconcessions")
set_gunboat = _switch("gunboat", True, "gunboat")
set_nogunboat = _switch("gunboat", False, "nogunboat")
set_list = _switch("listed", True, "list")
set_nolist = _switch("listed", False, "nolist")
set_manualstart = _switch("manual_start", True, "manualstart")
set_autostart = _switch("manual_start", False, "autostart")
set_cd_bot = _switch("cd_mode", "bot", "cdbot")
set_cd_hold = _switch("cd_mode", "hold", "cdhold")
