"""The asking commands anyone may send: HELP, GET, VERSION, LIST, LIST game, SUMMARY and
HISTORY (njudge ``data/index``, ``data/history``)."""

from __future__ import annotations

from .. import render
from ..game import history, listing
from ..game.deadlines import DeadlineError, zone
from ..game.view import GameView
from ..store.games import MASTER
from .outcome import Call, Outcome, said


def get(call: Call) -> Outcome:
    """``HELP`` (the index) or ``GET topic``: a help file."""
    topic = call.cmd.args[0] if call.cmd.args else None
    try:
        return said(render.help_text(topic))
    except render.HelpTopicError as exc:
        return call.error(str(exc))


def version(call: Call) -> Outcome:
    return said(render.help_text("version") if "version" in render.help_topics() else call.config.code)


def _about(call: Call, view: GameView) -> GameView | None:
    """The game a reply is about when the sender is not signed on to one."""
    return view if call.identity is None else None


def list_games(call: Call) -> Outcome:
    """``LIST``: every game; ``LIST game`` (or LIST after a sign-on): one game in detail. The
    game's master sees every power's orders too."""
    if not call.cmd.args and call.identity is None:
        return said(render.list_text(listing.game_lines(call.session)))
    found = call.game_or_signed_on(call.cmd.args)
    if isinstance(found, Outcome):
        return found
    master = call.identity is not None and call.identity.view is found and call.me.role == MASTER
    text = render.game_list_text(call.context(found), listing.listing(found, for_master=master))
    return Outcome(reply=(text,), about=_about(call, found))


def summary(call: Call) -> Outcome:
    found = call.game_or_signed_on(call.cmd.args)
    if isinstance(found, Outcome):
        return found
    rows, players = listing.summary(call.session, found)
    return Outcome(reply=(render.summary_text(call.context(found), rows, players),), about=_about(call, found))


def history_of(call: Call) -> Outcome:
    """``HISTORY [name] [FROM date] [TO date] [LINES n]``: the public archive of a game."""
    tz = call.zone() if call.identity is not None else zone(call.config.timezone)
    try:
        req = history.read_request(call.cmd.args, call.now, tz)
    except DeadlineError as exc:
        return call.error(str(exc))
    found = call.game_or_signed_on((req.game,) if req.game else ())
    if isinstance(found, Outcome):
        return found
    mails, left_out = history.fit(history.archived(call.session, found.name, req), req.lines)
    ctx = call.context(found)
    sections = [render.history_text(ctx, mails)] if mails else []
    if left_out or not mails:
        sections.append(render.section("player/history_note", game=found.name, shown=bool(mails),
                                       left_out=left_out, lines=req.lines, start=ctx.when(req.start),
                                       end=ctx.when(req.end) if req.end else "now",
                                       after=ctx.when(mails[-1][0]) if mails else ""))
    return Outcome(reply=tuple(sections), about=_about(call, found))
