"""The asking commands anyone may send: HELP, GET, VERSION, LIST, LIST FULL, LIST game,
SUMMARY, WHOGAME and HISTORY (njudge ``data/index``, ``data/history``).

What a reader sees of a game is :mod:`judge.game.disclosure`'s rule: the reader is the sender
as signed on to that game (else someone outside it); in a gunboat game that is not over only
its master sees the players' addresses, and only the master sees every power's orders."""

from __future__ import annotations

from .. import render
from ..game import disclosure, history, listing
from ..game import summary as game_summary
from ..game.deadlines import zone
from ..game.ending import ending_text
from ..game.mails import Mail
from ..game.view import GameView
from ..store.games import Player
from .outcome import Call, Outcome, said


def get(call: Call) -> Outcome:
    """``HELP`` (the index) or ``GET topic``: a help file."""
    topic = call.cmd.args[0] if call.cmd.args else None
    return said(render.help_text(topic))


def version(call: Call) -> Outcome:
    return said(render.help_text("version") if "version" in render.help_topics() else call.config.code)


def _about(call: Call, view: GameView) -> GameView | None:
    """The game a reply is about when the sender is not signed on to one."""
    return view if call.identity is None else None


def _reader(call: Call, view: GameView) -> Player | None:
    """The sender as a member of ``view`` (None if signed on to no game or another one)."""
    return call.me if call.identity is not None and call.identity.view is view else None


def list_games(call: Call) -> Outcome:
    """``LIST``: every listed game; ``LIST FULL``: with their players; ``LIST game`` (or LIST
    after a sign-on): one game in detail. The game's master sees every power's orders too."""
    args = call.cmd.args
    if args and args[0].upper() == "FULL" and len(args) == 1:
        return said(render.list_text(listing.game_lines(call.session, full=True), full=True))
    if not args and call.identity is None:
        return said(render.list_text(listing.game_lines(call.session)))
    found = call.game_or_signed_on(args)
    if isinstance(found, Outcome):
        return found
    reader = _reader(call, found)
    master = disclosure.sees_every_order(found.game, reader)
    text = render.game_list_text(call.context(found), listing.listing(found, for_master=master, reader=reader))
    return Outcome(reply=(text,), about=_about(call, found))


def summary(call: Call) -> Outcome:
    """``SUMMARY [name]``: who played each power and when, and the centres by year."""
    found = call.game_or_signed_on(call.cmd.args)
    if isinstance(found, Outcome):
        return found
    data = game_summary.summary(call.session, found, reveal=disclosure.sees_addresses(found.game, _reader(call, found)),
                                ended=ending_text(found))
    return Outcome(reply=(render.summary_text(call.context(found), data),), about=_about(call, found))


def who_game(call: Call) -> Outcome:
    """``WHOGAME [name] [FULL]``: the game's masters and players (FULL: and observers)."""
    words = [w for w in call.cmd.args if w.upper() != "FULL"]
    full = len(words) < len(call.cmd.args)
    found = call.game_or_signed_on(tuple(words))
    if isinstance(found, Outcome):
        return found
    members = listing.who_game(found, _reader(call, found), full=full)
    return Outcome(reply=(render.who_game_text(call.context(found), members, full=full),),
                   about=_about(call, found))


def history_of(call: Call) -> Outcome:
    """``HISTORY [name] [FROM date] [TO date] [LINES n]`` or ``HISTORY [name] EXCLSTART turn
    [EXCLEND turn] [BROAD]``: the public archive of a game."""
    tz = call.zone() if call.identity is not None else zone(call.config.timezone)
    req = history.read_request(call.cmd.args, call.now, tz)
    found = call.game_or_signed_on((req.game,) if req.game else ())
    if isinstance(found, Outcome):
        return found
    mails, left_out = history.fit(history.archived(call.session, found.name, req), req.lines)
    ctx = call.context(found)
    note = None
    if left_out or not mails:
        note = render.section("player/history_note", game=found.name, shown=bool(mails), left_out=left_out,
                              lines=req.lines or 0, start=ctx.when(req.start) if req.start else "",
                              end=ctx.when(req.end) if req.end else "now",
                              after=ctx.when(mails[-1][0]) if mails else "", turns=req.start is None)
    parts = history.parts(mails, call.config.reply_max_bytes - PART_RESERVE)
    if len(parts) <= 1:
        sections = [render.history_text(ctx, mails)] if mails else []
        return Outcome(reply=tuple(s for s in (*sections, note) if s), about=_about(call, found))
    total = len(parts)
    first = render.section("player/history_part", number=1, total=total, game=found.name)
    extra = []
    for number, part in enumerate(parts[1:], start=2):
        head = render.section("player/history_part", number=number, total=total, game=found.name)
        sections = [head, render.history_text(ctx, part), *([note] if note and number == total else [])]
        extra.append(Mail.of(call.sender, render.reply_mail(ctx, f"HISTORY part {number} of {total}", sections, 0),
                             "reply", found))
    return Outcome(reply=(first, render.history_text(ctx, parts[0])), mails=tuple(extra), about=_about(call, found))


#: Bytes of the reply limit kept for a HISTORY part's header and notes.
PART_RESERVE = 4_000
