"""The catalogue of every text the judge writes: each template, its audience and its form.

Every template under ``templates/`` is an entry here and nothing is rendered that is not
(:func:`judge.render.environment.render` refuses a name outside the catalogue), so this
table is the list of every mail the judge sends and every part of a reply. Audiences are
the folders: ``all`` (everyone in a game), ``player`` (one player or the sender of a mail),
``master`` (a game's master). Forms:

- ``mail``: a whole mail the judge sends; ``kind`` is its outbox kind (``result``,
  ``start``, ``notice``, ``ending``, ``press``, ``partial``, ``late``, ``selected``,
  ``private``, ``reply``);
- ``section``: one part of a reply to an incoming mail (its text between blank lines);
- ``part``: a piece other templates include, or (``player/refusals``) the macros
  :func:`judge.render.environment.refusal` calls;
- ``picture`` and ``page``: the map pictures (SVG) and the web archive's pages (HTML),
  rendered with escaping by :mod:`judge.render.markup`.

Help files (``templates/help/*.txt``, plain text sent by ``HELP`` and ``GET``) are listed by
:func:`judge.render.listing.help_topics`, not here.
"""

from __future__ import annotations

from dataclasses import dataclass

MAIL, SECTION, PART, PICTURE, PAGE = "mail", "section", "part", "picture", "page"


@dataclass(frozen=True, slots=True)
class Entry:
    """One template: ``name`` is its path under ``templates/`` without ``.txt.j2``."""

    name: str
    form: str
    about: str
    kind: str | None = None
    ext: str = "txt"

    @property
    def audience(self) -> str:
        return self.name.split("/", 1)[0]

    @property
    def template(self) -> str:
        return f"{self.name}.{self.ext}.j2"


CATALOGUE: tuple[Entry, ...] = (
    # -- mails to everyone in a game ----------------------------------------------------------
    Entry("all/results", MAIL, "the results of a processed phase, in the classic layout", "result"),
    Entry("all/game_start", MAIL, "the game has its players: the player list, the position, the deadline",
          "start"),
    Entry("all/press", MAIL, "press or a broadcast as each reader gets it", "press"),
    Entry("all/resign", MAIL, "a player resigned their powers (Bug91-13)", "notice"),
    Entry("all/eject", MAIL, "the master ejected a player or an observer", "notice"),
    Entry("all/game_state", MAIL, "the game was paused, resumed or terminated", "notice"),
    Entry("all/deadline_changed", SECTION, "the current phase's deadline or grace moved (in the settings notice)"),
    Entry("all/settings_changed", MAIL, "every setting and deadline the master changed in one mail", "notice"),
    Entry("all/notices", MAIL, "every notice one mail caused a reader, gathered in one mail", "notice"),
    Entry("all/takeover", MAIL, "an abandoned power was taken over, or its player returned", "notice"),
    Entry("all/reply", MAIL, "the reply to an incoming mail: header, sections, error count, original",
          "reply"),
    # -- mails to one player or to the master ----------------------------------------------------
    Entry("player/selected", MAIL, "a power given to a player after the start", "selected"),
    # -- game life A: lateness, absences, settings, records (issue 11) -------------------------------
    Entry("player/reminder", MAIL, "before the deadline, to a player without complete orders", "reminder"),
    Entry("all/late", MAIL, "at the deadline and each day of grace: the late and abandoned powers", "notice"),
    Entry("all/waiting", MAIL, "end of grace (NoNMR) and every two days: abandoned powers wait for a takeover",
          "notice"),
    Entry("master/absence", MAIL, "to the master: a player's absence declared, cancelled or over the limit",
          "private"),
    Entry("master/member_changed", MAIL, "to the master: a member's mail goes to a new address", "private"),
    Entry("player/absence", SECTION, "SET ABSENCE / SET NOABSENCE acknowledged, the pending absences"),
    Entry("player/absences", SECTION, "the pending absences shown at sign-on (the master sees all)"),
    Entry("player/setting", SECTION, "SET PASSWORD, SET ADDRESS, SET ZONE acknowledged"),
    Entry("player/whois", SECTION, "WHOIS / GET DEDICATION: a record and its games"),
    Entry("player/rating", SECTION, "RATING [address], and in WHOIS: a player's skill ratings"),
    Entry("player/ratings", SECTION, "RATINGS [map]: the top of the skill ratings"),
    Entry("all/start_set", SECTION, "SET START (also in the settings notice)"),
    Entry("all/zone_set", SECTION, "the game's time zone set (also in the settings notice)"),
    Entry("all/policy_set", SECTION, "NMR, reminder, absence and membership settings (also in the notice)"),
    # -- reply sections ---------------------------------------------------------------------------
    Entry("player/error", SECTION, "a refused command: its line and why"),
    Entry("player/refused", SECTION, "a command the table does not allow this sender or game state"),
    Entry("player/wrong_password", SECTION, "Invalid password or power ID specified."),
    Entry("player/unreadable", SECTION, "a mail whose structure the judge cannot read"),
    Entry("player/rate_limited", SECTION, "the one reply to a sender over the rate limit"),
    Entry("player/game_rate_limited", SECTION, "the one reply to a mail over a game's rate limit"),
    Entry("player/not_acted_on", SECTION, "a mail the judge failed on: all it did was undone"),
    Entry("player/game_changed", SECTION, "a mail read after its game changed: not acted on, send it again"),
    Entry("player/unread", SECTION, "a mail with more commands than the judge reads: where it stopped"),
    Entry("player/reply_cut", SECTION, "a reply over the size limit: how many parts were left out"),
    Entry("player/signon", SECTION, "signed on as a power or the master"),
    Entry("player/observe", SECTION, "now observing a game"),
    Entry("player/joined", SECTION, "a place in a forming game (or the place the sender has)"),
    Entry("player/preference", SECTION, "a preference list set"),
    Entry("player/diary_recorded", SECTION, "DIARY RECORD: the entry's number"),
    Entry("player/diary_list", SECTION, "DIARY LIST: the entries' numbers and dates"),
    Entry("player/diary_entry", SECTION, "DIARY READ: one entry"),
    Entry("player/diary_deleted", SECTION, "DIARY DELETE: the entries taken away"),
    Entry("player/wait", SECTION, "SET WAIT / SET NOWAIT acknowledged"),
    Entry("player/order_lines", SECTION, "each order line of a mail, with its errors and warnings"),
    Entry("player/adjustments", SECTION, "adjustment orders kept and dropped over the allowance"),
    Entry("player/orders", SECTION, "a power's order set, whether it is complete, the deadline"),
    Entry("player/processed", SECTION, "the phase was processed because of this mail"),
    Entry("player/resigned", SECTION, "the sender resigned"),
    Entry("player/draw_vote", SECTION, "a draw vote recorded or taken back"),
    Entry("player/press_sent", SECTION, "the press as it went out"),
    Entry("player/press_delivered", SECTION, "who got the press"),
    Entry("player/press_refused", SECTION, "why press was not sent"),
    Entry("player/takeover", SECTION, "the sender took over an abandoned power"),
    Entry("player/list", SECTION, "LIST: every game on the judge"),
    Entry("player/game_list", SECTION, "LIST game: deadlines, parameters, players, position (Bug91-11)"),
    Entry("player/summary", SECTION, "SUMMARY: who played each power and when, supply centres by year"),
    Entry("player/history", SECTION, "HISTORY: archived mails for mapping tools"),
    Entry("player/history_note", SECTION, "HISTORY: what was left out, or that nothing matched"),
    Entry("player/history_part", SECTION, "HISTORY too long for one mail: which part this is"),
    Entry("master/created", SECTION, "a game created, with the sender as master"),
    Entry("master/deadline_set", SECTION, "the deadline or grace set by the master"),
    Entry("master/state_changed", SECTION, "the game paused, resumed or terminated"),
    Entry("master/ejected", SECTION, "a member ejected"),
    Entry("master/power_orders", SECTION, "every power's orders and their state, for the master (Bug91-08)"),
    Entry("all/lengths_set", SECTION, "the clock of a phase kind changed (also in the settings notice)"),
    Entry("all/option_set", SECTION, "a game option set (also in the settings notice)"),
    Entry("all/press_set", SECTION, "the press settings changed (also in the settings notice)"),
    Entry("all/ending", SECTION, "how a finished game ended"),
    Entry("all/pictures_set", SECTION, "SET PICTURES / SET NOPICTURES, for a reader or the whole game"),
    Entry("player/map_sent", SECTION, "GET MAP: the picture is attached"),
    Entry("all/game_over", SECTION, "the victory or draw line of a result mail"),
    # -- postal press, orders entered in advance, reply to play (game life, part C) ------------------
    Entry("all/postal_press", MAIL, "the postal press of a phase, after its results", "press"),
    Entry("player/future_applied", MAIL, "orders entered in advance, as they read when their phase starts",
          "private"),
    Entry("player/postal_held", SECTION, "postal press kept for the results"),
    Entry("player/future_entered", SECTION, "PHASE: the orders after it are for a later phase"),
    Entry("player/future_pending", SECTION, "the orders a player has entered in advance"),
    Entry("player/future_kept", SECTION, "orders kept for a later phase: how many lines in all"),
    Entry("player/future_cleared", SECTION, "CLEAR: orders entered in advance dropped"),
    Entry("player/future_wait", SECTION, "SET WAIT or SET NOWAIT kept for a later phase"),
    Entry("player/future_none", SECTION, "orders entered in advance held only a wait"),
    Entry("player/reply_play", SECTION, "a mail to a reply address: signed on, or why not"),
    Entry("all/reply_play_set", SECTION, "reply to play turned on or off (also in the settings notice)"),
    # -- game life part B: master tools, draws and concessions, the end of a game, information -----
    Entry("all/game_end", MAIL, "the game is over (victory, draw, concession, termination), with its summary",
          "ending"),
    Entry("all/diaries", MAIL, "the players' diaries (DIARY), to everyone after the game's final mail", "ending"),
    Entry("all/rolled_back", MAIL, "the master rolled the game back: withdrawn results, position, deadline",
          "notice"),
    Entry("all/unstarted", MAIL, "the master returned a started game to forming", "notice"),
    Entry("master/promoted", MAIL, "an observer was promoted to master", "private"),
    Entry("all/game_setting", SECTION, "a master's on/off setting (DIAS, gunboat, list...), also in the notice"),
    Entry("master/done", SECTION, "what one of the master's tools did (PREDICT, ROLLBACK, BECOME...)"),
    Entry("player/become_copy", SECTION, "heads a player's copy of a master's mail that used BECOME"),
    Entry("player/whogame", SECTION, "WHOGAME: the masters, players (and observers) of a game"),
    Entry("all/_summary", PART, "a game's summary: who played each power and when, centres by year"),
    # -- parts ------------------------------------------------------------------------------------
    Entry("all/_dislodged", PART, "the dislodged units and where they may retreat"),
    Entry("all/_ownership", PART, "supply centre ownership and the count table"),
    Entry("all/_players", PART, "the player list"),
    Entry("all/_position", PART, "each power's units"),
    Entry("all/_press_line", PART, "the line that heads a press message"),
    Entry("player/refusals", PART, "why a command was refused: one macro per message (render.refusal), "
          "raised by the game layer or given by a command handler"),
    # -- pictures and the web archive --------------------------------------------------------------
    Entry("pictures/board", PICTURE, "a phase's map: owners, units, orders as arrows, the legend", ext="svg"),
    Entry("web/base", PAGE, "the frame of every archive page", ext="html"),
    Entry("web/index", PAGE, "the archive's list of games", ext="html"),
    Entry("web/game", PAGE, "a game's phases and its centres by year", ext="html"),
    Entry("web/phase", PAGE, "a phase: results, picture, public press", ext="html"),
    Entry("web/summary", PAGE, "centres by year (a part of the game and phase pages)", ext="html"),
    Entry("web/not_found", PAGE, "the archive's 404 page", ext="html"),
    Entry("web/ratings", PAGE, "the skill ratings' table, overall or of a map (no addresses)", ext="html"),
)

_BY_NAME = {e.name: e for e in CATALOGUE}


def entry(name: str) -> Entry:
    """The catalogue entry ``name`` (``player/wait``, ``player/wait.txt.j2``,
    ``web/game.html.j2``); KeyError if there is none."""
    base = name.removesuffix(".j2")
    for ext in (".txt", ".html", ".svg"):
        base = base.removesuffix(ext)
    return _BY_NAME[base]
