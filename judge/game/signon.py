"""Joining games: CREATE, SIGNON (a forming game, a power, the master, an abandoned power:
see :mod:`.takeover`), OBSERVE, SET PREFERENCE, and the start of a game when its last power
is filled."""

from __future__ import annotations

import logging
import re

from ..engine import OptionError, Options, initial_position
from ..mail import commands as c
from ..mail.commands import Command
from ..maps import load_map
from ..store.games import (
    ACTIVE,
    FORMING,
    MASTER,
    OBSERVER,
    PLAYER,
    Game,
    Player,
    find_game,
    members,
)
from ..store.passwords import check_password, hash_password
from . import notices
from .assign import PreferenceError, assign, read_preferences, seed_for
from .board import store_position
from .grace import start_clock
from .service import MailState, handles, need_signon
from .takeover import take_over

log = logging.getLogger(__name__)
_NAME = re.compile(r"^[a-z0-9]{1,8}$")


def _fail_signon(state: MailState, message: str | None = None) -> None:
    """A wrong game, power or password: nothing changes and the mail is not read further."""
    state.bad_password = True
    state.failure = message
    state.stop = True


@handles(c.CREATE)
def create(state: MailState, cmd: Command) -> None:
    if len(cmd.args) < 2 or not cmd.args[0].startswith("?"):
        state.error(cmd, "Write CREATE ?name password [variant] [option=value ...].")
        return
    name, password = cmd.args[0][1:].lower(), cmd.args[1]
    if not _NAME.match(name):
        state.error(cmd, "A game name is 1 to 8 letters or digits.")
        return
    if find_game(state.session, name) is not None:
        state.error(cmd, f"A game called '{name}' already exists.")
        return
    variant, options = "standard", {}
    for word in cmd.args[2:]:
        if "=" in word:
            key, _, value = word.partition("=")
            options[key] = value
        else:
            variant = word
    try:
        m = load_map(variant)
        opts = Options(options)
    except KeyError as exc:
        state.error(cmd, str(exc.args[0]))
        return
    except OptionError as exc:
        state.error(cmd, str(exc))
        return
    game = Game(name=name, map_name=m.name, options=dict(opts.explicit), status=FORMING, seq=0)
    state.session.add(game)
    state.session.flush()
    me = Player(game_id=game.id, email=state.sender, password_hash=hash_password(password), role=MASTER)
    game.players.append(me)
    state.session.flush()
    state.game, state.me = game, me
    state.touched = True
    state.say(notices.created_text(state.config, game, state.sender))
    log.info("game %s created by %s (%s)", name, state.sender, m.name)


@handles(c.SIGNON)
def signon(state: MailState, cmd: Command) -> None:
    if len(cmd.args) < 2 or len(cmd.args[0]) < 2:
        state.error(cmd, "Write SIGNON ?name password, or SIGNON <power letter><name> password.")
        return
    who, password = cmd.args[0], cmd.args[1]
    if who.startswith("?"):
        _join(state, cmd, who[1:].lower(), password)
        return
    letter, name = who[0].upper(), who[1:].lower()
    game = find_game(state.session, name, lock=True)
    if game is None:
        _fail_signon(state, f"There is no game called '{name}'.")
        return
    if letter == "O":
        _observe(state, cmd, game, password)
        return
    me = _find_member(game, letter)
    if me is None and letter != "M" and take_over(state, game, letter, password):
        return
    if me is None or not check_password(password, me.password_hash):
        _fail_signon(state)
        return
    state.game, state.me = game, me
    state.say(notices.signon_text(state.config, game, me))


@handles(c.OBSERVE)
def observe(state: MailState, cmd: Command) -> None:
    if len(cmd.args) < 2:
        state.error(cmd, "Write OBSERVE name password.")
        return
    game = find_game(state.session, cmd.args[0].lstrip("?").lower(), lock=True)
    if game is None:
        _fail_signon(state, f"There is no game called '{cmd.args[0]}'.")
        return
    _observe(state, cmd, game, cmd.args[1])


def _observe(state: MailState, cmd: Command, game: Game, password: str) -> None:
    mine = [p for p in game.players if p.role == OBSERVER and p.email == state.sender and p.active]
    if mine:
        if not check_password(password, mine[0].password_hash):
            _fail_signon(state)
            return
        me = mine[0]
    else:
        me = Player(game_id=game.id, email=state.sender, password_hash=hash_password(password), role=OBSERVER)
        game.players.append(me)
        state.touched = True
    state.game, state.me = game, me
    state.say(notices.observe_text(state.config, game))


def _find_member(game: Game, letter: str) -> Player | None:
    if letter == "M":
        return next((p for p in game.players if p.role == MASTER and p.active), None)
    m = load_map(game.map_name)
    power = m.power_by_letter.get(letter)
    if power is None:
        return None
    return next((p for p in game.players if p.role == PLAYER and p.power == power.name and p.active), None)


def _join(state: MailState, cmd: Command, name: str, password: str) -> None:
    game = find_game(state.session, name, lock=True)
    if game is None:
        _fail_signon(state, f"There is no game called '{name}'.")
        return
    if game.status != FORMING:
        state.error(cmd, f"Game '{name}' is not forming; it has all its players.")
        return
    me = Player(game_id=game.id, email=state.sender, password_hash=hash_password(password), role=PLAYER)
    game.players.append(me)
    state.session.flush()
    state.game, state.me = game, me
    state.touched = True
    m = load_map(game.map_name)
    joined = len(members(game, roles=(PLAYER,)))
    state.say(notices.joined_text(state.config, game, joined, len(m.powers) - joined))
    log.info("%s joined %s (%d of %d)", state.sender, name, joined, len(m.powers))


@handles(c.SET_PREFERENCE)
def set_preference(state: MailState, cmd: Command) -> None:
    if need_signon(state, cmd):
        return
    game, me = state.game, state.me
    assert game is not None and me is not None
    if game.status != FORMING or me.role != PLAYER:
        state.error(cmd, "Preferences can be set only by a player before the game starts.")
        return
    text = "".join(cmd.args)
    try:
        read_preferences(text, [p.letter for p in load_map(game.map_name).powers])
    except PreferenceError as exc:
        state.error(cmd, str(exc))
        return
    me.preferences = text.upper()
    state.touched = True
    state.say(notices.preference_text(me.preferences))


def start_if_full(state: MailState) -> None:
    """Start the sender's game if it is forming and every power has a player."""
    game = state.game
    if game is None or game.status != FORMING:
        return
    m = load_map(game.map_name)
    players = members(game, roles=(PLAYER,))
    if len(players) < len(m.powers):
        return
    letters = [pw.letter for pw in m.powers]
    got = assign([p.email for p in players], [p.preferences for p in players], letters, seed_for(game.name))
    for p, letter in zip(players, got, strict=True):
        p.power = m.power_by_letter[letter.upper()].name
    position = initial_position(m)
    store_position(game, m, position)
    game.status = ACTIVE
    game.seq = 1
    start_clock(game, state.now, position.phase.kind)
    state.session.flush()
    notices.start_mails(state.session, state.config, game, position)
    log.info("game %s started; deadline %s", game.name, game.deadline)
