"""Joining games: creating one, taking a place in a forming game, observing, preferences, and
the start of a game when its last power is filled.

A game is created by its master (``CREATE ?name password [variant] [word ...]``), with the
judgekeeper's clocks and lateness settings (``[clocks]``, ``[games]``). As in njudge, the
variant and the option words come in any order: ``gunboat``, ``NMR``/``NoNMR`` and the
other switches of :data:`SWITCH_WORDS`, a one-word press setting (``grey``, ``nopress``:
:mod:`.press_rules`), and the variant's rule options as ``name=value``. The master changes
them with SET commands in the same mail or later, before the start.
Players take places with ``SIGNON ?name password`` while it forms; the same address signing
on again does not take a second place, and must give the password it has (njudge changes a
password only with SET PASSWORD: a different one is a wrong password); a newcomer must meet
the game's minimum record (:mod:`.records`). When every power has a player the game starts:
powers are assigned by the preference lists (:mod:`.assign`), the first phase gets its
deadline, and everyone gets the start mail. Seats the master gave the judge's bot (``SET
BOT``, :mod:`.botseats`) count as filled and are left out of the assignment; ``cd=bot`` among
CREATE's words sets ``CD BOT``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from .. import render
from ..config import Config
from ..engine import OptionError, Options
from ..maps import load_map
from ..store.games import ACTIVE, FORMING, MASTER, OBSERVER, PLAYER, Game, Player, find_game
from ..store.passwords import check_password, hash_password
from . import botseats, notices, records
from .assign import assign, seed_for
from .botseats import BOT, HOLD
from .clocks import clocks_to_json, default_clocks
from .errors import GameError
from .lateness import start_clock
from .mails import Mail
from .press_rules import PressRules, PressSettingError, apply_settings, rules_of, store_rules
from .view import GameView, view_of
from .zones import game_zone

log = logging.getLogger(__name__)
_NAME = re.compile(r"^[a-z0-9]{1,8}$")


class JoinError(GameError):
    """A game that cannot be created or joined; the message is for the sender."""


class WrongPassword(JoinError):
    """A second ``SIGNON ?name`` from a player of the game with another password than its own."""


#: njudge's option words CREATE takes beside the variant (its ``data/index``: CREATE's
#: "variant" and "option" are SET VARIANT's, Gunboat among them; ``data/deadlines``: NMR),
#: each the game switch it sets and the value; the master's SET commands of the same names
#: (:mod:`judge.commands.switches`, :mod:`judge.commands.policy`) change them later.
SWITCH_WORDS: dict[str, tuple[str, bool]] = {
    "GUNBOAT": ("gunboat", True), "NOGUNBOAT": ("gunboat", False),
    "NMR": ("nmr", True), "NONMR": ("nmr", False), "CD": ("nmr", True), "NOCD": ("nmr", False),
    "DIAS": ("dias", True), "NODIAS": ("dias", False),
    "CONCESSIONS": ("concessions", True), "NOCONCESSIONS": ("concessions", False),
    "LIST": ("listed", True), "PUBLIC": ("listed", True),
    "NOLIST": ("listed", False), "UNLIST": ("listed", False), "PRIVATE": ("listed", False),
    "MANUALSTART": ("manual_start", True), "AUTOSTART": ("manual_start", False),
}


@dataclass
class CreateWords:
    """CREATE's words read: the variant, its rule options, the switches and press
    settings, and the words as the master wrote them (for the reply)."""

    variant: str = "standard"
    options: dict[str, str] = field(default_factory=dict)
    switches: dict[str, bool | str] = field(default_factory=dict)
    press: list[str] = field(default_factory=list)
    settings: list[str] = field(default_factory=list)


def read_create_words(words: list[str]) -> CreateWords:
    """The variant and option words of a CREATE line, in any order (``NO GUNBOAT`` is
    ``NOGUNBOAT``); a word that is none of them, or a second variant, is a
    :class:`JoinError`."""
    read = CreateWords()
    named: str | None = None
    joined: list[str] = []
    for word in words:
        if joined and joined[-1].upper() == "NO" and "=" not in word:
            joined[-1] += word
        else:
            joined.append(word)
    for word in joined:
        upper = word.upper()
        if "=" in word:
            key, _, text = word.partition("=")
            if key.lower() == "cd":  # what a power in civil disorder does (SET CD BOT / SET CD HOLD)
                if text.lower() not in (HOLD, BOT):
                    raise JoinError(render.refusal("cd_mode_syntax"))
                read.switches["cd_mode"] = text.lower()
                read.settings.append(f"CD {text.upper()}")
                continue
            read.options[key] = text
        elif upper in SWITCH_WORDS:
            column, value = SWITCH_WORDS[upper]
            read.switches[column] = value
            read.settings.append(upper)
        elif _press_word(upper):
            read.press.append(upper)
            read.settings.append(upper)
        else:
            try:
                m = load_map(word)
            except KeyError:
                raise JoinError(render.refusal("create_word_unknown", word=word, words=sorted(SWITCH_WORDS))) from None
            if named is not None and named != m.name:
                raise JoinError(render.refusal("create_two_variants", first=named, second=word))
            named = read.variant = m.name
    return read


def _press_word(word: str) -> bool:
    """Whether ``word`` is a one-word press setting (``GREY``, ``NOPRESS``, ``PARTIAL``)."""
    try:
        apply_settings(word, PressRules())
    except PressSettingError:
        return False
    return True


def create(session: Session, config: Config, name: str, password: str, words: CreateWords,
           master: str) -> GameView:
    """A new forming game with ``master`` as its master and the judge's default clocks,
    of the variant and with the options of ``words`` (:func:`read_create_words`). Raises
    :class:`JoinError`."""
    name = name.lower()
    if not _NAME.match(name):
        raise JoinError(render.refusal("game_name_invalid"))
    if find_game(session, name) is not None:
        raise JoinError(render.refusal("game_exists", game=name))
    try:
        m = load_map(words.variant)
        opts = Options(words.options)
    except OptionError as exc:
        raise JoinError(str(exc)) from None
    clocks = clocks_to_json(default_clocks(config.clocks))
    game = Game(name=name, map_name=m.name, options=dict(opts.explicit), status=FORMING, seq=0, clocks=clocks,
                pictures=config.pictures, nmr=config.nmr, reminder=config.reminder_hours,
                max_absence=config.max_absence_days, cd_mode=HOLD, bot_powers=[])
    for column, value in words.switches.items():
        setattr(game, column, value)
    session.add(game)
    session.flush()
    for word in words.press:
        store_rules(game, apply_settings(word, rules_of(game)))
    game.players.append(Player(game_id=game.id, email=master, password_hash=hash_password(password), role=MASTER))
    session.flush()
    log.info("game %s created by %s (%s)", name, master, m.name)
    return view_of(session, game)


@dataclass(frozen=True, slots=True)
class Joined:
    """A place in a forming game: the player, how many have places now, how many more are
    needed, and whether the sender already had the place (a second ``SIGNON ?name``)."""

    player: Player
    players: int
    needed: int
    again: bool


def join(view: GameView, address: str, password: str) -> Joined:
    """Give ``address`` a place in the forming game (or find the place it has: then
    ``password`` must be its password, else :class:`WrongPassword`)."""
    game = view.game
    if game.status != FORMING:
        raise JoinError(render.refusal("game_not_forming", game=game.name))
    mine = next((p for p in view.members(PLAYER) if p.email == address and p.active), None)
    again = mine is not None
    if mine is None and (why := records.may_join(view, address)) is not None:
        raise JoinError(why)
    if mine is None:
        mine = Player(game_id=game.id, email=address, password_hash=hash_password(password), role=PLAYER)
        game.players.append(mine)
        view.session.flush()
    elif not check_password(password, mine.password_hash):
        raise WrongPassword(address)
    joined = len(view.members(PLAYER))
    log.info("%s %s %s (%d of %d)", address, "signed on again to" if again else "joined", game.name, joined,
             len(view.map.powers))
    return Joined(mine, joined, len(view.map.powers) - joined, again)


def observe(view: GameView, address: str, password: str) -> tuple[Player, bool] | None:
    """The sender as an observer of the game: (player, new); None for a wrong password of
    an observer the address already is."""
    mine = [p for p in view.game.players if p.role == OBSERVER and p.email == address and p.active]
    if mine:
        return (mine[0], False) if check_password(password, mine[0].password_hash) else None
    me = Player(game_id=view.game.id, email=address, password_hash=hash_password(password), role=OBSERVER)
    view.game.players.append(me)
    view.session.flush()
    return me, True


def member_for(view: GameView, letter: str) -> Player | None:
    """The active master (``M``) or the player of the power with signon ``letter``."""
    if letter == "M":
        return next((p for p in view.game.players if p.role == MASTER and p.active), None)
    power = view.map.power_by_letter.get(letter)
    return view.player_of(power.name) if power is not None else None


def start_if_full(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """Start the game if it is forming, every power has a player and the master has not set
    it to start by hand (SET MANUALSTART, UNSTART); the start mails."""
    game = view.game
    if game.status != FORMING or game.manual_start:
        return []
    if len(view.members(PLAYER)) + len(botseats.seated(view)) < len(view.map.powers):
        return []
    return begin(view, config, now)


def begin(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """Start the forming game with the players it has (FORCE BEGIN: fewer than its powers;
    the powers left over have no player, in civil disorder until taken over): powers by
    preference, the first deadline, the start mails."""
    game = view.game
    players = view.members(PLAYER)
    m = view.map
    bots = set(botseats.seated(view))
    letters = [pw.letter for pw in m.powers if pw.name not in bots]
    got = assign([p.email for p in players], [p.preferences for p in players], letters, seed_for(game.name))
    for p, letter in zip(players, got, strict=True):
        p.power = m.power_by_letter[letter.upper()].name
    view.set_position(view.position)
    for p in players:
        p.since_phase = view.phase.code
    game.status = ACTIVE
    game.manual_start = False
    game.seq = 1
    start_clock(view, now, game_zone(game, config))
    view.session.flush()
    log.info("game %s started; deadline %s", game.name, game.deadline)
    return notices.start(view, config)
