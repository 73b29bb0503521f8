"""Mails held for their pictures (judge/store/mail.py): a mail waits until every file it
carries is made, each file is made once, and the mails that carry it are let go together."""

from __future__ import annotations

from sqlalchemy import select

from judge.store.base import make_engine, make_sessionmaker
from judge.store.mail import (
    File,
    OutboxMessage,
    complete_attachment,
    queue_mail,
    store_files,
    waiting_attachments,
)


def test_a_mail_goes_only_when_all_its_files_are_made(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    factory = make_sessionmaker(engine, mail_domain="judge.test")
    try:
        first, second = (File(f"g-{p}.png", "image/png", source=f"<svg>{p}</svg>") for p in ("S1901M", "F1901M"))
        with factory() as session, session.begin():
            both = store_files(session, [first, second])
            queue_mail(session, ["ann@example.org", "bob@example.org"], "Results", "text", game="g", kind="result",
                       files=both)
            queue_mail(session, "cy@example.org", "Results", "text", game="g", kind="result", files=[first])
        with factory() as session:
            waiting = waiting_attachments(session)
        assert [svg for _, svg in waiting] == ["<svg>S1901M</svg>", "<svg>F1901M</svg>"]
        (first_id, _), (second_id, _) = waiting
        with factory() as session, session.begin():
            assert complete_attachment(session, first_id, b"png one") == 1, "cy's mail carries only the first"
        with factory() as session, session.begin():
            assert complete_attachment(session, first_id, b"made again") == 0, "made once"
        with factory() as session:
            assert {r.to_addr: r.status for r in session.scalars(select(OutboxMessage))} == {
                "ann@example.org": "held", "bob@example.org": "held", "cy@example.org": "pending"}
        with factory() as session, session.begin():
            assert complete_attachment(session, second_id, b"png two") == 2
        with factory() as session:
            rows = list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
            assert [r.status for r in rows] == ["pending"] * 3
            assert [sorted(a.data for a in r.files) for r in rows] == [[b"png one", b"png two"]] * 2 + [[b"png one"]]
            assert waiting_attachments(session) == []
    finally:
        engine.dispose()
