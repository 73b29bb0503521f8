"""The replies the mail path itself sends: for a mail it cannot read, and for a sender over
the rate limit. The texts are templates (``templates/player/``) rendered by
:mod:`judge.render`; the subject is a judge reply's (``Re: PYJD [Error Flag]``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from ..config import Config
from ..render.context import JudgeContext
from ..render.environment import render
from ..render.replies import reply_mail
from ..store.mail import queue_mail
from .reader import IncomingMail


def _answer(session: Session, config: Config, mail: IncomingMail, section: str) -> None:
    ctx = JudgeContext(judge_code=config.code, judge_address=config.address)
    rendered = reply_mail(ctx, "", [section], 1)
    queue_mail(session, mail.sender, rendered.subject, rendered.body, kind="reply", in_reply_to=mail.message_id)


def answer_unreadable(session: Session, config: Config, mail: IncomingMail) -> None:
    """Tell the sender their mail could not be read, and why (``mail.unreadable``)."""
    _answer(session, config, mail, render("player/unreadable.txt.j2", reason=mail.unreadable or "",
                                          keeper=config.keeper))


def answer_rate_limited(session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
    """Tell the sender, once, that their mails are over the limit and are not being read."""
    _answer(session, config, mail, render("player/rate_limited.txt.j2", limit=config.sender_mails_per_minute,
                                          keeper=config.keeper))
