"""What a session keeps from one statement to the next, all declared here: each thing, who
keeps it, and when it is forgotten.

The inbox reads a batch of mails in one session and one transaction, each mail in a savepoint
of its own (:mod:`judge.mail.inbox`). What a mail locked stays locked until the batch commits
(the row lock on PostgreSQL, the write lock on SQLite), so what it read of it may serve the
batch's next mails instead of being read again; a session with a transaction of its own keeps
the same things for that transaction. Everything kept lives in ``session.info`` under one of
these keys:

================  ==================================================  =========================
key               what                                                kept by
================  ==================================================  =========================
``GAME_VIEWS``    game name -> its view (``GameView``)                :mod:`judge.game.view`
``LOCKED_GAMES``  the names of the games whose row the transaction    :mod:`judge.game.view`
                  locked (their views may be taken without a query)
``RATE_BUCKETS``  rate-limit key -> (tokens, updated_at, told) as     :mod:`judge.store.ratelimit`
                  the transaction wrote them
``REPLY_KEY``     the key that signs reply addresses                  :mod:`judge.store.keys`
``AS_OF``         the arrival of the mail being read                  :mod:`judge.commands.mail`
``KEPT_ROWS``     the rows a batch's next mail may find in the        :func:`judge.game.view.keep_views`
                  session (those of the views kept)
================  ==================================================  =========================

Every key is forgotten at any rollback in the session (a savepoint rolled back gives back the
locks taken since and undoes what was written since) and when the session's transaction ends
(its locks are given back). Between two mails of a batch (:func:`next_mail`) ``AS_OF`` is
forgotten, and the session is left holding only ``KEPT_ROWS``: every other row the last mail
read is let go, so the next mail reads it again as it would in a transaction of its own. A
mail keeps the views of the games it locked whose rows are as a fresh read would give them
(:func:`judge.game.view.keep_views`, at its end); one that failed (rolled back) or stopped
before that end keeps nothing, and the next mail starts with an empty session.
The ORM rows a batch keeps are simply left in its session's identity map: SQLAlchemy gives
the next mail the same objects, and expires those a rolled-back savepoint had changed.

``mail_domain`` in ``session.info`` is the session factory's setting, not kept by anyone
(:func:`judge.store.base.make_sessionmaker`). The database keeps one thing for a batch too:
from its second mail on, PostgreSQL's ``lock_timeout`` (``SET LOCAL``, until the commit:
:data:`judge.mail.inbox.YIELD_LOCKS_AFTER`).
"""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

GAME_VIEWS = "judge.game_views"
LOCKED_GAMES = "judge.locked_games"
RATE_BUCKETS = "judge.rate_buckets"
REPLY_KEY = "judge.reply_key"
AS_OF = "judge.as_of"
KEPT_ROWS = "judge.kept_rows"

_ALL = (GAME_VIEWS, LOCKED_GAMES, RATE_BUCKETS, REPLY_KEY, AS_OF, KEPT_ROWS)


def forget(session: Session) -> None:
    """Forget everything ``session`` keeps (see the module docstring)."""
    for key in _ALL:
        session.info.pop(key, None)


def next_mail(session: Session) -> None:
    """Between two mails of an inbox batch: keep only the rows the last mail kept, and forget
    the rest (see the module docstring)."""
    session.info.pop(AS_OF, None)
    rows = session.info.pop(KEPT_ROWS, None)
    if rows is None:
        forget(session)
        session.expunge_all()
        return
    keep = {id(row) for row in rows}
    for row in list(session.identity_map.values()):
        if id(row) not in keep and row in session:  # an expunge cascades: a game takes its players
            session.expunge(row)


@event.listens_for(Session, "after_soft_rollback")
def _forget_at_rollback(session: Session, _previous: SessionTransaction) -> None:
    forget(session)


@event.listens_for(Session, "after_transaction_end")
def _forget_at_end(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:
        forget(session)
