"""Press: ``BROADCAST`` (to everyone in the game) and ``PRESS`` options (to some), and the
master's press settings (``SET WHITE``, ``SET GREY``, ``SET NO PRESS``, ``SET NO PARTIAL``...).

``BROADCAST`` without options and ``PRESS TO ALL`` go to every player, observer and the
master. ``PRESS TO FG`` goes to the players of France and Germany (``M`` is the master,
``O`` the observers), ``PRESS TO ALL BUT G`` to everyone else; the master gets a copy of
all press. ``PRESS`` with no options sends nothing, as in njudge, so that a slip does not
broadcast one's plans. ``GREY`` sends the press without its sender's power and address,
``WHITE`` with them; which ones a game allows is its press setting
(:mod:`.press_rules`). Press to the master alone is always allowed and always white, and the
master may always send press. The reply shows the press as it went out and who got it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..mail import commands as c
from ..mail.commands import Command
from ..maps import load_map
from ..render.environment import render
from ..store.games import FORMING, MASTER, OBSERVER, Game, Player, members
from . import announce, notices
from .press_rules import (
    NONE,
    PressRequest,
    PressSettingError,
    apply_settings,
    describe,
    grey_allowed,
    grey_by_default,
    read_options,
    white_allowed,
)
from .service import MailState, handles, need_master, need_signon

log = logging.getLogger(__name__)

MASTER_ROLE, OBSERVERS_ROLE = "Master", "Observers"


@dataclass(frozen=True, slots=True)
class Readers:
    """Who press to some powers is for: ``roles`` as named (powers in map order, then
    ``Master``, ``Observers``), the ``players`` reading it, and the powers named that
    nobody plays now (``unplayed``)."""

    roles: list[str]
    players: list[Player]
    unplayed: list[str]

    @property
    def master_only(self) -> bool:
        return self.roles == [MASTER_ROLE]


@handles(c.BROADCAST, c.PRESS)
def press(state: MailState, cmd: Command) -> None:
    if need_signon(state, cmd):
        return
    game, me = state.game, state.me
    assert game is not None and me is not None
    if not cmd.press_text.strip():
        state.error(cmd, _refusal("empty"))
        return
    if cmd.verb == c.PRESS and not cmd.args:
        state.error(cmd, _refusal("no_options"))
        return
    try:
        request = read_options(cmd.args)
        readers = None if request.broadcast else _readers(game, request)
    except PressSettingError as exc:
        state.error(cmd, str(exc))
        return
    refused = _refused(game, me, request, readers)
    if refused:
        state.error(cmd, _refusal(refused, game=game.name))
        return
    grey = _grey(game, me, request, readers)
    sent = notices.press(state.session, state.config, game, cmd.press_text, me,
                         None if readers is None else readers.players,
                         names=None if readers is None else readers.roles, grey=grey)
    state.say(sent + "\n" + _delivered(game, me, readers, grey))
    log.info("%s: %s press from %s to %s", game.name, "grey" if grey else "white", notices.role_of(me),
             "everyone" if readers is None else ", ".join(readers.roles))


def _readers(game: Game, request: PressRequest) -> Readers:
    """The readers the request's letters name; raises ``PressSettingError``."""
    m = load_map(game.map_name)
    letters = request.letters or ""
    named: set[str] = set()
    for letter in letters:
        if letter == "M":
            named.add(MASTER_ROLE)
        elif letter == "O":
            named.add(OBSERVERS_ROLE)
        elif (power := m.power_by_letter.get(letter)) is not None:
            named.add(power.name)
        else:
            raise PressSettingError(f"No power has the letter {letter!r}; nothing was sent.")
    everyone = [p.name for p in m.powers] + [MASTER_ROLE, OBSERVERS_ROLE]
    roles = [r for r in everyone if (r not in named) == request.all_but]
    people = members(game)
    chosen = [p for p in people if _role(p) in roles]
    played = {p.power for p in chosen}
    unplayed = [r for r in roles if r in {pw.name for pw in m.powers} and r not in played]
    return Readers(roles, chosen, unplayed)


def _role(p: Player) -> str:
    if p.role == MASTER:
        return MASTER_ROLE
    if p.role == OBSERVER:
        return OBSERVERS_ROLE
    return p.power or ""


def _refused(game: Game, me: Player, request: PressRequest, readers: Readers | None) -> str | None:
    """Why the press may not go (a key of ``game/press_refused.txt.j2``), or None."""
    to_powers = readers is not None and any(r not in (MASTER_ROLE, OBSERVERS_ROLE) for r in readers.roles)
    if game.status == FORMING and to_powers:
        return "forming"
    if me.role == MASTER or (readers is not None and readers.master_only):
        return None
    if game.press == NONE:
        return "no_press"
    if readers is not None and not game.partial_press:
        return "no_partial"
    if request.grey is True and not grey_allowed(game.press):
        return "no_grey"
    if request.grey is False and not white_allowed(game.press):
        return "no_white"
    return None


def _grey(game: Game, me: Player, request: PressRequest, readers: Readers | None) -> bool:
    """Whether the press goes out without its sender: never to the master alone; the
    master's only when asked; a player's as asked, else as the game's default."""
    if readers is not None and readers.master_only:
        return False
    if me.role == MASTER or request.grey is not None:
        return bool(request.grey)
    return grey_by_default(game.press)


def _refusal(reason: str, game: str = "") -> str:
    """The message of a refused press command (``reason`` picks the text)."""
    return render("game/press_refused.txt.j2", reason=reason, game=game).strip()


def _delivered(game: Game, me: Player, readers: Readers | None, grey: bool) -> str:
    """Who got the press, for the sender's reply."""
    if readers is None:
        return render("game/press_delivered.txt.j2", everyone=True, grey=grey, got=[], unplayed=[],
                      master_copy=False).rstrip("\n")
    present = {_role(p) for p in readers.players}
    got = [r for r in readers.roles if r in present]
    copy = MASTER_ROLE not in readers.roles and any(p.role == MASTER and p is not me for p in members(game))
    return render("game/press_delivered.txt.j2", everyone=False, grey=grey, got=got,
                  unplayed=readers.unplayed, master_copy=copy).rstrip("\n")


@handles(c.SET_PRESS)
def set_press(state: MailState, cmd: Command) -> None:
    """``SET WHITE``, ``SET GREY``, ``SET NO PRESS``, ``SET NO PARTIAL``... (master only)."""
    if need_master(state, cmd):
        return
    game = state.game
    assert game is not None
    try:
        press, partial = apply_settings(cmd.text, game.press, game.partial_press)
    except PressSettingError as exc:
        state.error(cmd, str(exc))
        return
    changed = (press, partial) != (game.press, game.partial_press)
    game.press, game.partial_press = press, partial
    text = render("game/press_set.txt.j2", game=game.name, changed=changed, press=press, partial=partial,
                  summary=describe(press, partial)).rstrip("\n")
    if changed:
        state.touched = True
        announce.setting(state.session, state.config, game, text)
    state.say(text)
