"""``handle_mail``: one incoming mail, start to finish, in the caller's transaction.

The mail's text is split into commands (:mod:`judge.mail.commands`) and applied in order
(:mod:`judge.game.service`). Then a forming game that got its last player starts, and an
active game whose orders are all in (and where nobody waits) is processed at once. Exactly
one reply goes back to the sender. A failed sign-on (unknown game, power or password) undoes
everything the mail did and the reply says ``Invalid password or power ID specified.``,
followed by the original message, as njudge does.
"""

from __future__ import annotations

import logging
from datetime import datetime
from email.utils import parseaddr
from typing import Any

from sqlalchemy.orm import Session

from ..mail.commands import parse_commands
from ..mail.reader import IncomingMail
from ..render.replies import reply_mail
from ..store.games import ACTIVE
from ..store.mail import queue_mail
from . import notices, processing, service
from .signon import start_if_full

log = logging.getLogger(__name__)


def handle_mail(session: Session, config: Any, mail: IncomingMail, now: datetime) -> None:
    """Apply the mail's commands and queue the one reply (see the module docstring)."""
    sender = parseaddr(mail.sender)[1].strip().lower() or mail.sender.strip().lower()
    commands = parse_commands(mail.text)
    state = service.MailState(session=session, config=config, now=now, sender=sender, text=mail.text)
    savepoint = session.begin_nested()
    service.run(state, commands)
    if state.bad_password:
        savepoint.rollback()
        _reply(session, config, mail, state, wrong_password=True)
        log.info("mail from %s: wrong game, power or password", sender)
        return
    savepoint.commit()
    if state.game is not None:
        game = state.game
        before = game.phase
        start_if_full(state)
        if game.status == ACTIVE and before is not None and before == game.phase and state.touched:
            done = game.phase
            if processing.process_ready(session, config, game, now):
                state.say(notices.processed_text(config, game, done or ""))
    if not commands:
        state.error_count += 1
        state.say(notices.error_text("Your mail holds no commands. Send HELP for the commands.", None))
    _reply(session, config, mail, state)


def _reply(session: Session, config: Any, mail: IncomingMail, state: service.MailState, *,
           wrong_password: bool = False) -> None:
    game = None if wrong_password else (state.game or state.about)
    ctx = notices.game_ctx(config, game) if game is not None else notices.judge_ctx(config)
    if wrong_password:
        sections = [notices.wrong_password_text(), *([state.failure] if state.failure else [])]
        rendered = reply_mail(ctx, "", sections, 0, original=mail.text)
    else:
        rendered = reply_mail(ctx, "", state.sections, state.error_count)
    queue_mail(session, mail.sender, rendered.subject, rendered.body, game=game.name if game else None,
               phase=game.phase if game else None, kind="reply", in_reply_to=mail.message_id)
