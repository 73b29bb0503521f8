"""Issue 12, item 9: a per-sender limit on mails a minute, over real SMTP: one clear reply
when it is reached, then silence; loops still ignored; the count is in the database, so two
judge processes count together; the per-game call the command layer uses."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from conftest import CaptureSMTP
from sqlalchemy import select
from test_server import echo, mail, make_config, run_server, send

from judge.commands import handle_mail
from judge.mail.inbox import InboxProcessor, store_incoming
from judge.server import JudgeServer
from judge.store import ratelimit
from judge.store.base import make_engine, make_sessionmaker
from judge.store.mail import InboxMessage


def test_over_the_limit_one_reply_then_silence(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp, sender_mails_per_minute=3)

    def scenario(server: JudgeServer) -> None:
        for n in range(8):
            send(config.smtp_port, mail(n))
        send(config.smtp_port, mail(20, extra="Precedence: bulk\r\n"))
        send(config.smtp_port, mail(30, sender="bob@example.org"), mail_from="bob@example.org")
        capture_smtp.wait_for(5)
        time.sleep(1.0)  # nothing more comes

    run_server(config, scenario, handler=handle_mail)
    to = [c.rcpt_tos[0] for c in capture_smtp.messages]
    assert sorted(to) == ["ann@example.org"] * 4 + ["bob@example.org"]
    told = [c for c in capture_smtp.messages if "more than 3 mails in a minute" in c.message.get_content()]
    assert len(told) == 1 and told[0].rcpt_tos == ["ann@example.org"]
    assert str(told[0].message["In-Reply-To"]) == "<m3@example.org>"
    engine = make_engine(migrated_url)
    try:
        with make_sessionmaker(engine)() as session:
            notes = {r.message_id: (r.status, r.note or "") for r in session.scalars(select(InboxMessage))}
    finally:
        engine.dispose()
    assert notes["<m3@example.org>"] == ("ignored", "over 3 mails a minute (told once)")
    assert all(notes[f"<m{n}@example.org>"] == ("ignored", "over 3 mails a minute (already told)") for n in range(4, 8))
    assert notes["<m20@example.org>"][1].startswith("Precedence")


def raw(n: int) -> bytes:
    return (f"From: ann@example.org\r\nTo: judge@example.org\r\nSubject: s{n}\r\n"
            f"Message-ID: <r{n}@example.org>\r\n\r\nline {n}\r\n").encode()


def test_two_processes_count_together(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp, sender_mails_per_minute=4)
    engines = [make_engine(migrated_url) for _ in range(2)]
    try:
        factories = [make_sessionmaker(e, mail_domain="example.org") for e in engines]
        readers = [InboxProcessor(f, config, handler=echo) for f in factories]
        for n in range(6):
            store_incoming(factories[n % 2], raw(n), "ann@example.org", [])
            assert readers[n % 2].process_one()
        with factories[0]() as session:
            statuses = [r.status for r in session.scalars(select(InboxMessage).order_by(InboxMessage.id))]
    finally:
        for e in engines:
            e.dispose()
    assert statuses == ["done"] * 4 + ["ignored"] * 2


def test_bucket_refills_and_tells_again_after_a_pause(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        factory = make_sessionmaker(engine)
        verdicts = []
        for step in [0, 0, 0, 0, 1, 30, 30, 31, 200]:
            with factory() as session, session.begin():
                verdicts.append(ratelimit.take(session, "game:dt", 2, 60, now + timedelta(seconds=step)))
    finally:
        engine.dispose()
    assert verdicts == ["allow", "allow", "tell", "quiet", "quiet", "allow", "tell", "quiet", "allow"]


def test_a_bucket_made_first_elsewhere_is_read_not_taken_for_new(migrated_url: str) -> None:
    """``take`` skips reading back a bucket it made itself; one that another transaction made
    between its read and its insert must still be read (and counted as it stands)."""
    engine = make_engine(migrated_url)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        factory = make_sessionmaker(engine)
        with factory() as session, session.begin():
            made = ratelimit._insert_missing(session.connection(), "game:race", 1, now)
            again = ratelimit._insert_missing(session.connection(), "game:race", 1, now)
        with factory() as session, session.begin():
            verdicts = [ratelimit.take(session, "game:race", 1, 60, now) for _ in range(2)]
    finally:
        engine.dispose()
    assert (made, again) == (True, False)
    assert verdicts == ["allow", "tell"]
