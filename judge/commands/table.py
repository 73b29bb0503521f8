"""The command table: every command a mail may hold, in one place.

Each :class:`Row` gives a command's canonical verb, its spellings (aliases included), who
may use it, in which game states, its handler, and how the reader treats it (a press block,
a sign-on, the end of the mail). The runner (:mod:`.mail`) checks who and when from here
before it calls a handler, so every refusal comes from this table with one wording each
(``templates/player/refused.txt.j2``).

Who: ``roles`` None means anyone, signed on or not; otherwise the sender must be signed on
as one of ``roles`` (``player``, ``observer``, ``master``), and with ``power`` a player must
hold an active power. ``states`` None means any game state (or none), otherwise the game's
status must be one of them. ``directs`` marks ``PHASE``: the commands after it carry its text
as the phase they are for (:mod:`.reading`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import render
from ..store.games import ACTIVE, FINISHED, FORMING, MASTER, OBSERVER, PAUSED, PLAYER, TERMINATED
from . import (
    clock,
    diary,
    draws,
    info,
    master,
    orders,
    people,
    pictures,
    player,
    policy,
    press,
    replyplay,
    seats,
    settings,
    signon,
    switches,
)
from .command import ORDERS, STRAY_END, UNKNOWN
from .outcome import Call, Outcome
from .reading import Vocabulary, spelling

Handler = Callable[[Call], Outcome]

ANYONE: frozenset[str] | None = None
MEMBERS = frozenset({PLAYER, OBSERVER, MASTER})
PLAYERS = frozenset({PLAYER})
MASTERS = frozenset({MASTER})
PLAYERS_AND_MASTERS = frozenset({PLAYER, MASTER})

RUNNING = frozenset({ACTIVE, PAUSED})
NOT_OVER = frozenset({FORMING, ACTIVE, PAUSED})
STATE_WORDS: dict[str, str] = {FORMING: "forming", ACTIVE: "active", PAUSED: "paused", FINISHED: "finished",
               TERMINATED: "terminated"}


@dataclass(frozen=True, slots=True)
class Row:
    """One command (see the module docstring); ``action`` is the phrase refusals use
    (``use SET WAIT``, ``give orders``)."""

    verb: str
    spellings: tuple[str, ...]
    roles: frozenset[str] | None
    states: frozenset[str] | None
    handler: Handler
    action: str = ""
    power: bool = False
    block: bool = False
    signs_on: bool = False
    ends: bool = False
    ends_unsigned: bool = False
    directs: bool = False

    @property
    def phrase(self) -> str:
        return self.action or f"use {self.verb}"


def _nothing(call: Call) -> Outcome:
    """SIGNOFF: the reader has already stopped reading the mail."""
    return Outcome()


def _unknown(call: Call) -> Outcome:
    return Outcome(reply=(render.refusal_text("unknown", "", call.cmd.line),), errors=1)


def _stray_end(call: Call) -> Outcome:
    return Outcome(reply=(render.refusal_text("stray_end", "", call.cmd.line),), errors=1)


def _unknown_setting(call: Call) -> Outcome:
    from .. import render

    word = call.cmd.text.split(maxsplit=1)[0].upper() if call.cmd.text.strip() else ""
    return Outcome(reply=(render.refusal_text("unsupported", word, call.cmd.line),), errors=1)


_PRESS_SETTINGS = ("WHITE", "GREY", "GRAY", "WHITE/GREY", "GREY/WHITE", "WHITE/GRAY", "GRAY/WHITE", "NOWHITE",
                   "NOGREY", "NOGRAY", "PRESS", "NOPRESS", "NONE", "PARTIAL", "NOPARTIAL",
                   # njudge's other press settings (game life, part C)
                   "DEFAULT", "FAKE", "NOFAKE", "POSTAL", "NOPOSTAL", "OBSERVER", "OBSERVERS", "MUST ORDER",
                   "NOMUST ORDER", "MUSTORDER", "NOMUSTORDER", "MINOR PRESS", "NOMINOR PRESS", "LATE PRESS",
                   "NOLATE PRESS", "GRACE PRESS", "NOGRACE PRESS", "BLANK PRESS", "NOBLANK PRESS", "ALL PRESS",
                   "NORMAL PRESS")


def _set(*words: str) -> tuple[str, ...]:
    return tuple(f"SET {w}" for w in words)


#: The table. Order does not matter for reading (the longest spelling wins); it is the order
#: a reader of this file, and ``GET commands``, meet the commands in.
TABLE: tuple[Row, ...] = (
    # -- asking: anyone -----------------------------------------------------------------------------
    Row("HELP", ("HELP",), ANYONE, None, info.get, ends_unsigned=True),
    Row("GET", ("GET", "SEND", "SENDME"), ANYONE, None, info.get),
    Row("GET MAP", ("GET MAP", "SEND MAP", "SENDME MAP"), ANYONE, None, pictures.get_map),
    Row("VERSION", ("VERSION",), ANYONE, None, info.version),
    Row("LIST", ("LIST",), ANYONE, None, info.list_games),
    Row("SUMMARY", ("SUMMARY",), ANYONE, None, info.summary),
    Row("HISTORY", ("HISTORY",), ANYONE, None, info.history_of),
    # -- who the sender is ----------------------------------------------------------------------------
    Row("CREATE", ("CREATE",), ANYONE, None, signon.create, signs_on=True),
    Row("PRACTICE", ("PRACTICE",), ANYONE, None, seats.practice, signs_on=True),
    Row("SIGNON", ("SIGNON",), ANYONE, None, signon.signon, signs_on=True),
    Row("OBSERVE", ("OBSERVE", "WATCH"), ANYONE, None, signon.observe, signs_on=True),
    Row("SIGNOFF", ("SIGNOFF",), ANYONE, None, _nothing, ends=True),
    Row("SET PREFERENCE", _set("PREFERENCE", "PREFERENCES", "PREF"), PLAYERS, frozenset({FORMING}),
        signon.set_preference),
    # -- playing -------------------------------------------------------------------------------------
    Row(ORDERS, (), PLAYERS_AND_MASTERS, frozenset({ACTIVE}), orders.orders, action="give orders", power=True),
    Row("SET WAIT", _set("WAIT"), PLAYERS, RUNNING, player.set_wait, power=True),
    Row("SET NOWAIT", _set("NOWAIT"), PLAYERS, RUNNING, player.set_nowait, power=True),
    Row("SET DRAW", _set("DRAW"), PLAYERS, frozenset({ACTIVE}), draws.set_draw, action="vote for a draw",
        power=True),
    Row("SET NODRAW", _set("NODRAW"), PLAYERS, frozenset({ACTIVE}), draws.set_nodraw,
        action="vote for a draw", power=True),
    Row("SET PICTURES", _set("PICTURES", "PICTURE"), MEMBERS, None, pictures.set_pictures),
    Row("SET NOPICTURES", _set("NOPICTURES", "NOPICTURE"), MEMBERS, None, pictures.set_nopictures),
    Row("RESIGN", ("RESIGN", "WITHDRAW"), PLAYERS, NOT_OVER, player.resign, action="resign", power=True),
    # -- a player's diary (njudge DIARY): its entries go to everyone when the game ends ----------------
    Row("DIARY", ("DIARY", "DIARY RECORD"), PLAYERS, NOT_OVER, diary.record, action="write in a diary",
        block=True),
    Row("DIARY LIST", ("DIARY LIST",), PLAYERS, None, diary.listing),
    Row("DIARY READ", ("DIARY READ",), PLAYERS, None, diary.read),
    Row("DIARY DELETE", ("DIARY DELETE",), PLAYERS, NOT_OVER, diary.delete),
    # -- press ---------------------------------------------------------------------------------------
    Row("BROADCAST", ("BROADCAST",), MEMBERS, None, press.press, action="send press", block=True),
    Row("PRESS", ("PRESS",), MEMBERS, None, press.press, action="send press", block=True),
    # -- the master ----------------------------------------------------------------------------------
    Row("PROCESS", ("PROCESS",), MASTERS, frozenset({ACTIVE}), master.process),
    Row("PAUSE", ("PAUSE",), MASTERS, frozenset({ACTIVE}), master.pause),
    Row("RESUME", ("RESUME",), MASTERS, frozenset({PAUSED}), master.resume),
    Row("TERMINATE", ("TERMINATE",), MASTERS, NOT_OVER, master.terminate),
    Row("EJECT", ("EJECT",), MASTERS, NOT_OVER, master.eject),
    Row("SET OPTION", _set("OPTION", "OPTIONS"), MASTERS, NOT_OVER, master.set_option),
    Row("SET DEADLINE", _set("DEADLINE"), MASTERS, RUNNING, clock.set_deadline),
    Row("SET GRACE", _set("GRACE"), MASTERS, RUNNING, clock.set_grace),
    Row("SET MOVES", _set("MOVES", "MOVE"), MASTERS, NOT_OVER, clock.set_moves),
    Row("SET RETREATS", _set("RETREATS", "RETREAT"), MASTERS, NOT_OVER, clock.set_retreats),
    Row("SET BUILDS", _set("BUILDS", "BUILD", "ADJUST", "ADJUSTMENTS"), MASTERS, NOT_OVER, clock.set_builds),
    Row("SET PRESS", _set(*_PRESS_SETTINGS), MASTERS, None, press.set_press, action="change the press settings"),
    # -- postal press, orders for later phases, reply to play (game life, part C) -----------------------
    # PHASE directs the commands after it to a later phase; the IF/ELSE IF/ELSE/ENDIF lines of
    # conditional orders after it are order lines of the run, read by judge.game.conditions.
    Row("POSTAL PRESS", ("POSTAL PRESS", "POSTALPRESS"), MEMBERS, RUNNING, press.postal_press,
        action="send postal press", block=True),
    Row("PHASE", ("PHASE",), PLAYERS, frozenset({ACTIVE}), orders.phase, action="give orders for a later phase",
        power=True, directs=True),
    Row("CLEAR", ("CLEAR",), PLAYERS, RUNNING, orders.clear, action="clear orders entered in advance", power=True),
    Row("SET REPLY TO PLAY", _set("REPLY TO PLAY"), MASTERS, None, replyplay.set_reply_play),
    Row("SET NOREPLY TO PLAY", _set("NOREPLY TO PLAY"), MASTERS, None, replyplay.set_noreply_play),
    # -- game life part B: master tools, draws and concessions, information --------------------------
    Row("WHOGAME", ("WHOGAME", "WHO GAME"), ANYONE, None, info.who_game),
    Row("SET CONCEDE", _set("CONCEDE", "CONC"), PLAYERS, frozenset({ACTIVE}), draws.set_concede,
        action="concede the game", power=True),
    Row("SET NOCONCEDE", _set("NOCONCEDE", "NOCONC"), PLAYERS, frozenset({ACTIVE}), draws.set_noconcede,
        action="concede the game", power=True),
    Row("PREDICT", ("PREDICT",), MASTERS, RUNNING, master.predict),
    Row("ROLLBACK", ("ROLLBACK",), MASTERS, frozenset({ACTIVE, PAUSED, FINISHED}), master.rollback),
    Row("UNSTART", ("UNSTART",), MASTERS, RUNNING, master.unstart),
    Row("FORCE BEGIN", ("FORCE BEGIN", "FORCEBEGIN"), MASTERS, frozenset({FORMING}), master.force_begin),
    Row("BECOME", ("BECOME",), MASTERS, RUNNING, master.become),
    Row("PROMOTE", ("PROMOTE",), MASTERS, NOT_OVER, master.promote),
    Row("SET DIAS", _set("DIAS"), MASTERS, NOT_OVER, switches.set_dias),
    Row("SET NODIAS", _set("NODIAS"), MASTERS, NOT_OVER, switches.set_nodias),
    Row("SET CONCESSIONS", _set("CONCESSIONS"), MASTERS, NOT_OVER, switches.set_concessions),
    Row("SET NOCONCESSIONS", _set("NOCONCESSIONS"), MASTERS, NOT_OVER, switches.set_noconcessions),
    Row("SET GUNBOAT", _set("GUNBOAT"), MASTERS, frozenset({FORMING}), switches.set_gunboat),
    Row("SET NOGUNBOAT", _set("NOGUNBOAT"), MASTERS, NOT_OVER, switches.set_nogunboat),
    Row("SET LIST", _set("LIST", "PUBLIC"), MASTERS, None, switches.set_list),
    Row("SET NOLIST", _set("NOLIST", "UNLIST", "PRIVATE"), MASTERS, None, switches.set_nolist),
    Row("SET MANUALSTART", _set("MANUALSTART", "MANUAL START", "NOAUTOSTART", "NOAUTO START"), MASTERS,
        frozenset({FORMING}), switches.set_manualstart),
    Row("SET AUTOSTART", _set("AUTOSTART", "AUTO START", "NOMANUALSTART", "NOMANUAL START"), MASTERS,
        frozenset({FORMING}), switches.set_autostart),
    # -- game life A: clocks, lateness, absences, zones, player settings, records (issue 11) -------------
    Row("SET START", _set("START"), MASTERS, NOT_OVER, clock.set_start),
    Row("SET NMR", _set("NMR", "CD"), MASTERS, NOT_OVER, policy.set_nmr),
    Row("SET NONMR", _set("NONMR", "NOCD"), MASTERS, NOT_OVER, policy.set_nonmr),
    Row("SET REMINDER", _set("REMINDER", "REMIND"), MASTERS, NOT_OVER, policy.set_reminder),
    Row("SET MAX ABSENCE", _set("MAX ABSENCE", "MAXABSENCE"), MASTERS, NOT_OVER, policy.set_max_absence),
    Row("SET DEDICATION", _set("DEDICATION"), MASTERS, NOT_OVER, policy.set_dedication),
    Row("SET ONTIMERAT", _set("ONTIMERAT", "ONTIME RATIO"), MASTERS, NOT_OVER, policy.set_ontimerat),
    Row("SET RESRAT", _set("RESRAT", "CD RATIO"), MASTERS, NOT_OVER, policy.set_resrat),
    Row("SET PASSWORD", _set("PASSWORD"), MEMBERS, None, settings.set_password),
    Row("SET ADDRESS", _set("ADDRESS"), MEMBERS, None, settings.set_address),
    Row("SET ZONE", _set("ZONE", "TIMEZONE", "TIME ZONE"), MEMBERS, None, settings.set_zone),
    Row("SET ABSENCE", _set("ABSENCE", "VACATION", "VACATIONS", "HOLIDAY", "HOLIDAYS"), PLAYERS_AND_MASTERS,
        NOT_OVER, settings.set_absence, action="set an absence"),
    Row("SET NOABSENCE", _set("NOABSENCE", "NOVACATION", "NOVACATIONS", "NOHOLIDAY", "NOHOLIDAYS"),
        PLAYERS_AND_MASTERS, NOT_OVER, settings.set_noabsence, action="cancel an absence"),
    Row("WHOIS", ("WHOIS", "WHO IS", "WHO", "INFO PLAYER", "INFOPLAYER"), ANYONE, None, people.whois),
    Row("GET DEDICATION", ("GET DEDICATION", "SEND DEDICATION"), ANYONE, None, people.get_dedication),
    # -- the judge's bot (issue 25) --------------------------------------------------------------------
    Row("SET CD BOT", _set("CD BOT"), MASTERS, NOT_OVER, switches.set_cd_bot),
    Row("SET CD HOLD", _set("CD HOLD"), MASTERS, NOT_OVER, switches.set_cd_hold),
    Row("SET BOT", _set("BOT"), MASTERS, NOT_OVER, seats.set_bot),
    # -- skill ratings (issue 26) ----------------------------------------------------------------------------
    Row("RATING", ("RATING",), ANYONE, None, people.rating),
    Row("RATINGS", ("RATINGS",), ANYONE, None, people.ratings_table),
    Row("SET MINRATING", _set("MINRATING", "MIN RATING"), MASTERS, NOT_OVER, policy.set_minrating),
    # -- what the reader finds that is no command --------------------------------------------------------
    Row("SET", ("SET",), ANYONE, None, _unknown_setting),
    Row(UNKNOWN, (), ANYONE, None, _unknown),
    Row(STRAY_END, (), ANYONE, None, _stray_end),
)

ROWS = {row.verb: row for row in TABLE}


def _vocabulary() -> Vocabulary:
    spellings: dict[tuple[str, ...], str] = {}
    for row in TABLE:
        for text in row.spellings:
            key = spelling(text)
            if key in spellings:
                raise ValueError(f"the spelling {text!r} is in two rows: {spellings[key]}, {row.verb}")
            spellings[key] = row.verb
    return Vocabulary(
        spellings=spellings,
        blocks=frozenset(r.verb for r in TABLE if r.block),
        signs_on=frozenset(r.verb for r in TABLE if r.signs_on),
        ends=frozenset(r.verb for r in TABLE if r.ends),
        ends_unsigned=frozenset(r.verb for r in TABLE if r.ends_unsigned),
        directs=frozenset(r.verb for r in TABLE if r.directs),
    )


VOCABULARY = _vocabulary()
