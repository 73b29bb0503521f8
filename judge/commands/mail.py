"""Applying one incoming mail: its commands in order, then what they set going, then one reply.

:func:`handle_mail` is the mail handler the inbox calls, inside the message's transaction.
The mail's text is read into commands (:mod:`.reading`, with the table's words); for each
command the table (:mod:`.table`) says whether this sender may use it in this game state
(a refusal is reported on the command's line and the next command is read), and its handler
returns an :class:`~.outcome.Outcome`. The first sign-on decides who the sender is for the
rest of the mail (a master's BECOME changes it again: the rest acts as that power); a mail
sent to a member's reply address and holding no sign-on is that member's from its first line
(reply to play, :mod:`.replyplay`). A failed sign-on (unknown game, power or password) undoes
everything the mail did, and the reply says ``Invalid password or power ID specified.``
followed by the original message with the password masked (njudge, Bug91-10).

After the commands: a forming game that got its last player starts, and a game whose orders
are all in is processed (at once, or after its clock's delay). The settings changes of the
whole mail go to everyone in one notice, and each reader gets every notice of the mail in
one mail (none after a CREATE: the creator alone reads them, in the reply). Exactly one reply
goes back to the sender; a copy of it (BECOME's, to the power's player) holds only the
sections written for a reader the copy's reader may stand in for
(:func:`judge.game.disclosure.may_share`: not the master's view of every power's orders,
written before BECOME). In a
batch of the inbox, the views of the games the mail signed on to are then kept for the
batch's next mails (:func:`judge.game.view.keep_views`).

Identity before limits: a mail over its From address's rate limit (the inbox flags it
``over_limit``) is read only when it proves who sent it (a correct sign-on, a reply address,
a good CONFIRM token), as anyone can forge a From header; else it is undone and answered
once, then not. A signed-on mail is counted in its signer's own bucket (a player's or
master's ``member:<id>``; observers and strangers share the game's ``game:<name>``), so no
one else's mails can use it up. A mail sent to a confirmation address (``judge+c...@``) is
read as ``CONFIRM <token>`` alone.

The sender is the mail's reply address, as njudge reads it: the last ``Reply-To`` address,
else the ``From`` address (bare addresses, never one inside a display name). A sign-on from
an address other than the member's own (njudge: "If the SIGN ON command does not come from
the player of record") sends a copy of the reply to the member's address too. The reply's
dates are in the sender's zone.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from datetime import datetime

from sqlalchemy.orm import Session, SessionTransaction

from .. import render
from ..config import Config
from ..engine import Phase
from ..game import disclosure, joining, notices, processing, tokens
from ..game.mails import Mail, context, judge_context, queue
from ..game.view import GameView, forget_views, keep_views
from ..mail.reader import IncomingMail
from ..render import Context
from ..store import ratelimit
from ..store.games import ACTIVE, MASTER, OBSERVER, Player
from ..store.kept import AS_OF
from ..store.mail import File
from .command import ORDERS, Command
from .master import processed_text
from .outcome import REFUSALS, Call, Copy, Identity, Outcome
from .reading import read_commands
from .replyplay import recipients_of, signed_by_reply
from .table import ROWS, STATE_WORDS, VOCABULARY, Row

log = logging.getLogger(__name__)


def refusal(row: Row, identity: Identity | None, cmd: Command) -> str | None:
    """Why the table does not let this sender use ``row`` now (a reply section), or None."""
    if row.signs_on and identity is not None:
        return render.refusal_text("twice", row.phrase, cmd.line)
    if row.roles is None:
        return None
    if identity is None:
        return render.refusal_text("signon", row.phrase, cmd.line)
    me, game = identity.me, identity.view.game
    if me.role not in row.roles:
        if identity.became is not None:
            reason = "became"
        elif row.roles == frozenset({MASTER}):
            reason = "master"
        elif me.role == OBSERVER:
            reason = "observer"
        else:
            reason = "not_master"
        return render.refusal_text(reason, row.phrase, cmd.line, game=game.name, power=me.power or "")
    if row.power and me.role not in (MASTER, OBSERVER) and (me.power is None or not me.active):
        return render.refusal_text("power", row.phrase, cmd.line, game=game.name)
    if row.states is not None and game.status not in row.states:
        allowed = [STATE_WORDS[s] for s in STATE_WORDS if s in row.states]
        return render.refusal_text("state", row.phrase, cmd.line, game=game.name,
                                   status=STATE_WORDS.get(game.status, game.status), allowed=allowed)
    return None


class _Reply:
    """The reply and the mails gathered while a mail's commands run. The reply keeps its
    sections while they fit in ``limit`` bytes; the ones after are counted, not kept (a mail
    of 10,000 GET lines must not build a reply of megabytes). Each section is kept with the
    reader it was written for (the sender as they were then: None before a sign-on), and
    the errors with theirs, so that a copy to another reader holds only what that reader
    may read."""

    def __init__(self, limit: int) -> None:
        self.sections: list[str] = []
        self.writers: list[Player | None] = []
        self.error_writers: list[tuple[int, Player | None]] = []
        self.size = 0
        self.limit = limit
        self.left_out = 0
        self.errors = 0
        self.kept = 0
        self.acted = False
        self.mails: list[Mail] = []
        self.notices: list[Mail] = []
        self.settings: list[str] = []
        self.deadline_moved = False
        self.created = False
        self.changed = False
        self.about: GameView | None = None
        self.files: list[File] = []
        self.copies: list[Copy] = []
        self.reply_to: str | None = None
        self.proved = False

    def add(self, out: Outcome, written_for: Player | None = None) -> None:
        for section in out.reply:
            self.note(section, written_for)
        self.errors += out.errors
        if out.errors:
            self.error_writers.append((out.errors, written_for))
        self.kept += out.errors if out.errors_kept else 0
        self.files.extend(out.files)
        self.mails.extend(out.mails)
        self.notices.extend(out.notices)
        self.settings.extend(out.settings)
        self.deadline_moved = self.deadline_moved or out.deadline_moved
        self.changed = self.changed or out.changed or bool(out.settings) or out.deadline_moved
        self.about = self.about or out.about
        self.copies.extend(out.copies)
        self.reply_to = out.reply_to or self.reply_to
        self.proved = self.proved or out.proved

    def note(self, section: str, written_for: Player | None) -> None:
        """Add one section written for ``written_for``, if it fits."""
        size = len(section.encode("utf-8")) + 2
        if self.left_out or self.size + size > self.limit:
            self.left_out += 1
            return
        self.sections.append(section)
        self.writers.append(written_for)
        self.size += size

    def shared(self, view: GameView | None, reader: Player) -> tuple[list[str], int]:
        """The sections and the error count of the reply that ``reader`` may read."""
        if view is None:
            return list(self.sections), self.errors
        game = view.game
        sections = [s for s, w in zip(self.sections, self.writers, strict=True)
                    if disclosure.may_share(game, w, reader)]
        return sections, sum(n for n, w in self.error_writers if disclosure.may_share(game, w, reader))


def handle_mail(session: Session, config: Config, mail: IncomingMail, now: datetime) -> bool:
    """Apply the mail's commands and queue the one reply (see the module docstring); whether
    the mail was read. A mail over its address's limit (``over_limit``) is read only when it
    proves who sent it: a correct sign-on, a reply address, a good CONFIRM token."""
    sender = reply_address(mail)
    if mail.unreadable:
        _refuse_unread(session, config, mail)
        return False
    if mail.received_at is not None:
        session.info[AS_OF] = mail.received_at
    token = tokens.confirmation_token(config, recipients_of(mail))
    if token is not None:
        commands, unread = [Command("CONFIRM", (token,), token, f"CONFIRM {token}", 1)], None
    else:
        commands, unread = capped(read_commands(VOCABULARY, mail.text), config.commands_per_mail)
    reply = _Reply(config.reply_max_bytes - REPLY_RESERVE)
    identity: Identity | None = None
    by_reply = signed_by_reply(session, config, mail, commands, VOCABULARY.signs_on) if token is None else None
    if by_reply is not None:
        reply.add(by_reply.outcome, by_reply.identity.me if by_reply.identity is not None else None)
        if by_reply.identity is not None:
            if not _within_own_limit(session, config, mail, by_reply.identity, now):
                return False
            identity = by_reply.identity
            commands = read_commands(VOCABULARY, mail.text, signed_on=True)
    if identity is not None and _late(mail, identity):
        _answer_late(session, config, mail, identity.view)
        return True
    savepoint = session.begin_nested()
    for cmd in commands:
        row = ROWS[cmd.verb]
        refused = refusal(row, identity, cmd)
        writer = identity.me if identity is not None else None
        if refused is not None:
            reply.add(Outcome(reply=(refused,), errors=1), writer)
            continue
        call = Call(session, config, now, sender, cmd, identity)
        try:
            out = row.handler(call)
        except REFUSALS as exc:  # a game refusal: the command's error reply, the mail goes on
            out = call.error(str(exc))
        if out.failed_signon:
            savepoint.rollback()
            log.info("mail from %s: wrong game, power or password", sender)
            if mail.over_limit:
                _refuse_unread(session, config, mail)
                return False
            if out.asked_of is not None and not _within_game_limit(session, config, mail, out.asked_of.name, now):
                return False
            _wrong_password(session, config, mail, out.failure)
            return True
        if out.signed_on is not None and _late(mail, out.signed_on):
            savepoint.rollback()
            _answer_late(session, config, mail, out.signed_on.view)
            return True
        if out.signed_on is not None and not _within_own_limit(session, config, mail, out.signed_on, now,
                                                               savepoint=savepoint):
            return False
        if out.asked_of is not None and not _within_game_limit(session, config, mail, out.asked_of.name, now,
                                                               savepoint=savepoint):
            return False
        reply.add(out, writer if writer is not None or out.signed_on is None else out.signed_on.me)
        reply.acted = reply.acted or acted_on(row, cmd, out)
        if out.signed_on is not None:
            identity = out.signed_on
            reply.created = reply.created or cmd.verb == "CREATE"
    if mail.over_limit and identity is None and not reply.proved:
        savepoint.rollback()
        _refuse_unread(session, config, mail)
        return False
    savepoint.commit()
    view = identity.view if identity is not None else None
    if view is not None and mail.received_at is not None:
        view.mark_changed(mail.received_at)
    if view is not None:
        _after(config, view, identity, reply, now)
    else:
        reply.mails.extend(reply.notices)
    if not commands:
        reply.add(Outcome(reply=(render.error_text(render.refusal("no_commands")),),
                          errors=1))
    sections = list(reply.sections)
    if unread is not None:
        sections.append(render.section("player/unread", limit=config.commands_per_mail, line=unread))
        reply.errors += 1
        reply.error_writers.append((1, None))
    if reply.left_out:
        sections.append(render.section("player/reply_cut", limit=config.reply_max_bytes, left_out=reply.left_out))
    about = view or reply.about
    reader = (identity.became or identity.me) if identity is not None else None
    ctx = context(config, about, reader if view is not None else None) if about is not None else judge_context(config)
    rendered = render.reply_mail(ctx, "", sections, reply.errors, acted=reply.acted,
                                 refused=reply.errors - reply.kept)
    to = [sender] + ([reader.email] if reader is not None and reader.email and reader.email != sender else [])
    answer = Mail.of(to, rendered, "reply", about, files=reply.files, reply_to=reply.reply_to)
    queue(session, [answer, *reply.mails], in_reply_to=mail.message_id, config=config)
    queue(session, _copies(config, ctx, reply, sections[len(reply.sections):], about))
    keep_views(session)
    return True


def _within_own_limit(session: Session, config: Config, mail: IncomingMail, identity: Identity, now: datetime, *,
                      savepoint: SessionTransaction | None = None) -> bool:
    """Count a signed-on mail in its signer's own bucket: a player's or master's is theirs
    alone (``member:<id>``, at the per-address rate: nobody else's mail drains it), observers
    share the game's bucket with strangers (``game:<name>``). Over it, the mail is undone
    and answered once (False)."""
    me = identity.became or identity.me
    if me.role == OBSERVER:
        return _within_game_limit(session, config, mail, identity.view.name, now, savepoint=savepoint)
    key, limit = f"member:{me.id}", config.sender_mails_per_minute
    verdict = _take(session, key, limit, now, savepoint)
    if verdict == ratelimit.ALLOW:
        return True
    log.info("mail from %s as member %s: over %d mails a minute (%s)", mail.sender, me.id, limit, verdict)
    if verdict == ratelimit.TELL:
        _refuse_unread(session, config, replace(mail, over_limit=verdict))
    return False


def _within_game_limit(session: Session, config: Config, mail: IncomingMail, game: str, now: datetime, *,
                       savepoint: SessionTransaction | None = None) -> bool:
    """Count an observer's or a stranger's mail to ``game`` in the game's bucket (the
    members have their own); over it, the mail is undone and only the first such mail is
    answered, the next ones not: no reply storm (False)."""
    limit = config.game_mails_per_minute
    verdict = _take(session, f"game:{game}", limit, now, savepoint)
    if verdict == ratelimit.ALLOW:
        return True
    log.info("mail from %s to game %s: over %d mails a minute (%s)", mail.sender, game, limit, verdict)
    if verdict == ratelimit.TELL:
        section = render.section("player/game_rate_limited", game=game, limit=limit)
        rendered = render.reply_mail(judge_context(config), "", [section], 1)
        queue(session, [Mail.of(reply_address(mail), rendered, "reply")], in_reply_to=mail.message_id)
    return False


def _take(session: Session, key: str, limit: int, now: datetime, savepoint: SessionTransaction | None) -> ratelimit.Verdict:
    """Count the mail in bucket ``key``. Over the limit, what the mail did so far in
    ``savepoint`` is undone, and the count taken again so that it stays."""
    verdict = ratelimit.take(session, key, limit, 60, now)
    if verdict != ratelimit.ALLOW and savepoint is not None:
        savepoint.rollback()
        verdict = ratelimit.take(session, key, limit, 60, now)
    return verdict


def _copies(config: Config, ctx: Context, reply: _Reply, notes: list[str], about: GameView | None) -> list[Mail]:
    """The copies of the reply the mail's commands asked for (BECOME: to the power's player),
    each with the sections its reader may read (and the notes at the reply's end), in its
    reader's zone."""
    out = []
    for copy in reply.copies:
        sections, errors = reply.shared(about, copy.reader)
        own = context(config, about, copy.reader) if about is not None else ctx
        text = render.reply_mail(own, "", [copy.note, *sections, *notes], errors, acted=reply.acted,
                                 refused=max(errors - reply.kept, 0))
        out.append(Mail.of(copy.address, text, "private", about))
    return out


def acted_on(row: Row, cmd: Command, out: Outcome) -> bool:
    """Whether the judge did something of ``cmd``: some of its lines were taken (an order
    line each; any other command is one), or, for a sign-on, it changed something (a place
    taken; orders for a later phase are kept with their errors). The reply's error count
    says "not acted on" only when no command was."""
    lines = len(cmd.body) if cmd.verb == ORDERS else 1
    if row.signs_on:
        return out.changed
    return out.errors_kept or out.errors < lines


def reply_address(mail: IncomingMail) -> str:
    """Where the judge answers, and who the sender is: the last ``Reply-To`` address, else
    the ``From`` address (njudge: "the judge only pays attention to the last Reply-To: line
    that it finds in the mail, or if there isn't a Reply-To, then to the last From:")."""
    return (mail.reply_to[-1] if mail.reply_to else mail.sender).strip().lower()


def _after(config: Config, view: GameView, identity: Identity | None, reply: _Reply, now: datetime) -> None:
    """What the mail's commands set going in the sender's game: the settings notice, then
    every notice of the mail gathered into one mail per reader (:func:`.notices.one_per_reader`),
    the start, processing."""
    game = view.game
    told = list(reply.notices)
    if reply.settings or reply.deadline_moved:
        told.extend(notices.settings_changed(view, config, reply.settings, deadline=reply.deadline_moved))
    if not reply.created:  # else its creator is the game's only reader, and the reply says it all
        reply.mails.extend(notices.one_per_reader(view, config, told))
    started = joining.start_if_full(view, config, now)
    reply.mails.extend(started)
    if started or not reply.changed or game.status != ACTIVE:
        return
    done = game.phase or ""
    processed = processing.when_ready(view, config, now)
    if processed:
        reply.mails.extend(processed)
        me = identity.me if identity is not None else None
        reply.sections.append(processed_text(config, view, done, me))
        reply.writers.append(me)


_SIGNON_LINE = re.compile(r"^(\s*(?:sign\s*on|create|practice|observe|watch)\s+\S+\s+)(\S+)", re.IGNORECASE | re.MULTILINE)


def masked(text: str) -> str:
    """The mail's text with the password of each sign-on line replaced by ``****``."""
    return _SIGNON_LINE.sub(lambda m: m.group(1) + "****", text)


#: Bytes of a reply's limit kept for its header, the error count and the notes above.
REPLY_RESERVE = 2_000


def capped(commands: list[Command], limit: int) -> tuple[list[Command], int | None]:
    """The commands a mail may hold (each order line counts as one command), and the number
    of the first line left unread (None when the whole mail is read)."""
    kept: list[Command] = []
    count = 0
    for cmd in commands:
        weight = len(cmd.body) if cmd.verb == ORDERS else 1
        if count + weight <= limit:
            kept.append(cmd)
            count += weight
            continue
        room = limit - count
        if cmd.verb == ORDERS and room > 0:
            kept.append(replace(cmd, body=cmd.body[:room]))
            return kept, cmd.body[room].number
        return kept, cmd.body[0].number if cmd.verb == ORDERS else cmd.lineno
    return kept, None


def _refuse_unread(session: Session, config: Config, mail: IncomingMail) -> None:
    """The one reply to a mail the judge does not read: its structure could not be read, or
    its sender went over the rate limit and it proved no identity (the first such mail is
    answered, the next ones not: ``over_limit`` is ``tell``, then ``quiet``)."""
    if mail.over_limit == ratelimit.QUIET:
        return
    if mail.over_limit:
        section = render.section("player/rate_limited", limit=config.sender_mails_per_minute, keeper=config.keeper)
    else:
        section = render.section("player/unreadable", reason=mail.unreadable or "", keeper=config.keeper)
    rendered = render.reply_mail(judge_context(config), "", [section], 1)
    queue(session, [Mail.of(reply_address(mail), rendered, "reply")], in_reply_to=mail.message_id)


def _late(mail: IncomingMail, identity: Identity) -> bool:
    """Whether the game ``mail`` signed on to changed after the mail arrived (a later mail
    was read for it, or its phase turned: the mail waited on a lock, or is read again)."""
    return mail.received_at is not None and identity.view.changed_since(mail.received_at)


def _answer_late(session: Session, config: Config, mail: IncomingMail, view: GameView) -> None:
    """The reply to a mail read after its game changed: none of it is applied to a game it
    was not written for (the caller has undone what it did), and the sender is asked to send
    it again."""
    log.info("mail %s from %s: game %s changed since it arrived at %s; not acted on", mail.message_id,
             mail.sender, view.name, mail.received_at)
    session.refresh(view.game)
    forget_views(session)
    phase = view.board.rules.calendar.long_name(Phase.parse(view.game.phase)) if view.game.phase else ""
    section = render.section("player/game_changed", game=view.name, phase=phase)
    rendered = render.reply_mail(context(config, view, None), "", [section], 1)
    queue(session, [Mail.of(reply_address(mail), rendered, "reply")], in_reply_to=mail.message_id)


def answer_failure(session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
    """The reply to a mail the judge failed on (the inbox's ``on_failure``: the handler
    raised, and everything it did was undone): none of it was acted on."""
    section = render.section("player/not_acted_on", keeper=config.keeper)
    rendered = render.reply_mail(judge_context(config), "", [section], 1)
    queue(session, [Mail.of(reply_address(mail), rendered, "reply")], in_reply_to=mail.message_id)


def _wrong_password(session: Session, config: Config, mail: IncomingMail, failure: str | None) -> None:
    sections = [render.wrong_password_text(), *([failure] if failure else [])]
    rendered = render.reply_mail(judge_context(config), "", sections, 1, original=masked(mail.text))
    queue(session, [Mail.of(reply_address(mail), rendered, "reply")], in_reply_to=mail.message_id)
