"""Applying one incoming mail: its commands in order, then what they set going, then one reply.

:func:`handle_mail` is the mail handler the inbox calls, inside the message's transaction.
The mail's text is read into commands (:mod:`.reading`, with the table's words); for each
command the table (:mod:`.table`) says whether this sender may use it in this game state
(a refusal is reported on the command's line and the next command is read), and its handler
returns an :class:`~.outcome.Outcome`. The first sign-on decides who the sender is for the
rest of the mail. A failed sign-on (unknown game, power or password) undoes everything the
mail did, and the reply says ``Invalid password or power ID specified.`` followed by the
original message with the password masked (njudge, Bug91-10).

After the commands: a forming game that got its last player starts, and a game whose orders
are all in is processed (at once, or after its clock's delay). The settings changes of the
whole mail go to everyone in one notice. Exactly one reply goes back to the sender.

The sender is the mail's reply address, as njudge reads it: the last ``Reply-To`` address,
else the ``From`` address (bare addresses, never one inside a display name). A sign-on from
an address other than the member's own (njudge: "If the SIGN ON command does not come from
the player of record") sends a copy of the reply to the member's address too. The reply's
dates are in the sender's zone.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime

from sqlalchemy.orm import Session

from .. import render
from ..config import Config
from ..game import joining, notices, processing
from ..game.mails import Mail, context, judge_context, queue
from ..game.view import GameView, forget_views
from ..mail.reader import IncomingMail
from ..store.games import ACTIVE, MASTER, OBSERVER
from .command import Command
from .master import processed_text
from .outcome import Call, Identity, Outcome
from .reading import read_commands
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
        if row.roles == frozenset({MASTER}):
            reason = "master"
        elif me.role == OBSERVER:
            reason = "observer"
        else:
            reason = "not_master"
        return render.refusal_text(reason, row.phrase, cmd.line, game=game.name)
    if row.power and me.role not in (MASTER, OBSERVER) and (me.power is None or not me.active):
        return render.refusal_text("power", row.phrase, cmd.line, game=game.name)
    if row.states is not None and game.status not in row.states:
        allowed = [STATE_WORDS[s] for s in STATE_WORDS if s in row.states]
        return render.refusal_text("state", row.phrase, cmd.line, game=game.name,
                                   status=STATE_WORDS.get(game.status, game.status), allowed=allowed)
    return None


class _Reply:
    """The reply and the mails gathered while a mail's commands run."""

    def __init__(self) -> None:
        self.sections: list[str] = []
        self.errors = 0
        self.mails: list[Mail] = []
        self.settings: list[str] = []
        self.changed = False
        self.about: GameView | None = None

    def add(self, out: Outcome) -> None:
        self.sections.extend(out.reply)
        self.errors += out.errors
        self.mails.extend(out.mails)
        self.settings.extend(out.settings)
        self.changed = self.changed or out.changed or bool(out.settings)
        self.about = self.about or out.about


def handle_mail(session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
    """Apply the mail's commands and queue the one reply (see the module docstring)."""
    sender = reply_address(mail)
    if mail.over_limit or mail.unreadable:
        _refuse_unread(session, config, mail)
        return
    commands = read_commands(VOCABULARY, mail.text)
    reply = _Reply()
    identity: Identity | None = None
    savepoint = session.begin_nested()
    for cmd in commands:
        row = ROWS[cmd.verb]
        refused = refusal(row, identity, cmd)
        if refused is not None:
            reply.add(Outcome(reply=(refused,), errors=1))
            continue
        out = row.handler(Call(session, config, now, sender, cmd, identity))
        if out.failed_signon:
            savepoint.rollback()
            forget_views(session)
            _wrong_password(session, config, mail, out.failure)
            log.info("mail from %s: wrong game, power or password", sender)
            return
        reply.add(out)
        if out.signed_on is not None:
            identity = out.signed_on
    savepoint.commit()
    view = identity.view if identity is not None else None
    if view is not None:
        _after(config, view, identity, reply, now)
    if not commands:
        reply.add(Outcome(reply=(render.error_text("Your mail holds no commands. Send HELP for the commands."),),
                          errors=1))
    queue(session, reply.mails)
    about = view or reply.about
    reader = identity.me if identity is not None else None
    ctx = context(config, about, reader if view is not None else None) if about is not None else judge_context(config)
    rendered = render.reply_mail(ctx, "", reply.sections, reply.errors)
    to = [sender] + ([reader.email] if reader is not None and reader.email != sender else [])
    queue(session, [Mail.of(to, rendered, "reply", about)], in_reply_to=mail.message_id)


def reply_address(mail: IncomingMail) -> str:
    """Where the judge answers, and who the sender is: the last ``Reply-To`` address, else
    the ``From`` address (njudge: "the judge only pays attention to the last Reply-To: line
    that it finds in the mail, or if there isn't a Reply-To, then to the last From:")."""
    return (mail.reply_to[-1] if mail.reply_to else mail.sender).strip().lower()


def _after(config: Config, view: GameView, identity: Identity | None, reply: _Reply, now: datetime) -> None:
    """What the mail's commands set going in the sender's game: the start, processing, the
    settings notice."""
    game = view.game
    if reply.settings:
        reply.mails.extend(notices.settings_changed(view, config, reply.settings))
    started = joining.start_if_full(view, config, now)
    reply.mails.extend(started)
    if started or not reply.changed or game.status != ACTIVE:
        return
    done = game.phase or ""
    processed = processing.when_ready(view, config, now)
    if processed:
        reply.mails.extend(processed)
        reply.sections.append(processed_text(config, view, done, identity.me if identity is not None else None))


_SIGNON_LINE = re.compile(r"^(\s*(?:sign\s*on|create|observe|watch)\s+\S+\s+)(\S+)", re.IGNORECASE | re.MULTILINE)


def masked(text: str) -> str:
    """The mail's text with the password of each sign-on line replaced by ``****``."""
    return _SIGNON_LINE.sub(lambda m: m.group(1) + "****", text)


def _refuse_unread(session: Session, config: Config, mail: IncomingMail) -> None:
    """The one reply to a mail the judge does not read: its structure could not be read, or
    its sender went over the rate limit (the mail path flags both)."""
    if mail.over_limit:
        section = render.section("player/rate_limited", limit=config.sender_mails_per_minute, keeper=config.keeper)
    else:
        section = render.section("player/unreadable", reason=mail.unreadable or "", keeper=config.keeper)
    rendered = render.reply_mail(judge_context(config), "", [section], 1)
    queue(session, [Mail.of(mail.sender, rendered, "reply")], in_reply_to=mail.message_id)


def _wrong_password(session: Session, config: Config, mail: IncomingMail, failure: str | None) -> None:
    sections = [render.wrong_password_text(), *([failure] if failure else [])]
    rendered = render.reply_mail(judge_context(config), "", sections, 1, original=masked(mail.text))
    queue(session, [Mail.of(reply_address(mail), rendered, "reply")], in_reply_to=mail.message_id)
