"""Issue 12, item 6 over real SMTP: failing inbox rows are retried then quarantined; a 5xx
for one recipient or at MAIL FROM fails that mail for good; a 4xx for one recipient holds
back nobody else; ``judge mail list|show|retry|drop`` and ``judge status`` act on them."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

from conftest import CaptureSMTP
from sqlalchemy import select
from sqlalchemy.orm import Session
from test_server import ROOT, mail, make_config, run_server, send

from judge.config import Config
from judge.mail.reader import IncomingMail
from judge.mail.sender import Sender
from judge.server import JudgeServer
from judge.store.base import make_engine, make_sessionmaker
from judge.store.mail import InboxMessage, OutboxMessage, queue_mail


def rows(url: str, model: type[InboxMessage] | type[OutboxMessage]) -> list[InboxMessage | OutboxMessage]:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            return list(session.scalars(select(model).order_by(model.id)))
    finally:
        engine.dispose()


def queue(url: str, *recipients: str) -> None:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine, mail_domain="example.org")() as session, session.begin():
            for n, to in enumerate(recipients):
                queue_mail(session, to, f"Subject {n}", f"Body {n}\n", kind="result")
    finally:
        engine.dispose()


def test_a_failing_message_is_quarantined_at_once_and_its_sender_told(migrated_url: str, tmp_path: Path,
                                                                     capture_smtp: CaptureSMTP) -> None:
    """Issue 23, rule 1: a handler's failure is no transient database failure: the mail is
    not read again (it would be read against a game that has moved on), and the sender is
    told it was not acted on."""
    config = make_config(tmp_path, migrated_url, capture_smtp, inbox_max_attempts=3, inbox_retry_seconds=0.05,
                         inbox_poll_seconds=0.05)
    calls: list[str] = []

    def handler(session: Session, config: Config, incoming: IncomingMail, now: datetime) -> None:
        calls.append(incoming.text)
        queue_mail(session, incoming.sender, "Re", "ok", in_reply_to=incoming.message_id)
        if "boom" in incoming.text:
            raise RuntimeError("the handler broke")

    def scenario(server: JudgeServer) -> None:
        send(config.smtp_port, mail(1, "boom"))
        capture_smtp.wait_for(1)
        send(config.smtp_port, mail(2, "fine"))
        send(config.smtp_port, mail(3, "fine again"))
        capture_smtp.wait_for(3)

    run_server(config, scenario, handler=handler)
    assert calls == ["boom", "fine", "fine again"]
    told, *fine = capture_smtp.messages
    assert "none of your mail was acted on" in told.message.get_content()
    assert [m.message.get_content().strip() for m in fine] == ["ok", "ok"]
    first, second, third = rows(migrated_url, InboxMessage)
    assert (first.status, first.attempts) == ("quarantined", 1)
    assert "RuntimeError: the handler broke" in (first.note or "")
    assert second.status == third.status == "done"


def test_refusals_fail_only_their_mail_and_deferrals_hold_back_nobody(migrated_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP(refuse=("gone@example.org",), defer=("later@example.org",), pipelining=True).start()
    config = make_config(tmp_path, migrated_url, relay, sender_retry_base_seconds=30)
    others = [f"p{n}@example.org" for n in range(20)]
    queue(migrated_url, "later@example.org", "gone@example.org", *others)
    engine = make_engine(migrated_url)
    try:
        started = time.monotonic()
        Sender(make_sessionmaker(engine), config).send_due()
        relay.wait_for(20)
        elapsed = time.monotonic() - started
    finally:
        engine.dispose()
        relay.stop()
    assert sorted(r for c in relay.messages for r in c.rcpt_tos) == sorted(others)
    assert elapsed < 5
    later, gone, *sent = rows(migrated_url, OutboxMessage)
    assert (later.status, later.attempts) == ("pending", 1) and "451" in (later.last_error or "")
    assert (gone.status, gone.attempts) == ("failed", 1) and "550" in (gone.last_error or "")
    assert all(r.status == "sent" and r.claimed_by is None for r in sent)
    assert later.claimed_by is None and gone.claimed_by is None


def test_a_5xx_at_mail_from_is_permanent(migrated_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP(refuse_sender="550 5.7.1 Sender rejected").start()
    queue(migrated_url, "ann@example.org")
    engine = make_engine(migrated_url)
    try:
        Sender(make_sessionmaker(engine), make_config(tmp_path, migrated_url, relay)).send_due()
    finally:
        engine.dispose()
        relay.stop()
    (row,) = rows(migrated_url, OutboxMessage)
    assert (row.status, row.attempts) == ("failed", 1) and "mail: 550" in (row.last_error or "")


def judge_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args, "--config", str(tmp_path / "judge.toml")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_operator_lists_shows_retries_and_drops(migrated_url: str, tmp_path: Path) -> None:
    (tmp_path / "judge.toml").write_text(f'[judge]\naddress = "judge@example.org"\n[database]\nurl = "{migrated_url}"\n')
    relay = CaptureSMTP(refuse=("gone@example.org", "nope@example.org")).start()
    config = make_config(tmp_path, migrated_url, relay)
    queue(migrated_url, "gone@example.org", "nope@example.org")
    engine = make_engine(migrated_url)
    try:
        Sender(make_sessionmaker(engine), config).send_due()
        gone, nope = rows(migrated_url, OutboxMessage)
        status = judge_cli(tmp_path, "status")
        assert status.returncode == 1, status.stderr  # failed mail: unhealthy (issue 27)
        assert "PROBLEM: outbox: 2 mail(s) failed" in status.stdout
        assert "outbox: 0 pending, 2 failed, 0 sent" in status.stdout
        assert f"outbox {gone.id} (failed): rcpt: 550" in status.stdout
        listed = judge_cli(tmp_path, "mail", "list", "outbox")
        assert "gone@example.org" in listed.stdout and "nope@example.org" in listed.stdout
        shown = judge_cli(tmp_path, "mail", "show", "outbox", str(gone.id))
        assert "To: gone@example.org" in shown.stdout and "Body 0" in shown.stdout
        relay.refuse.clear()
        assert judge_cli(tmp_path, "mail", "retry", "outbox", str(gone.id)).returncode == 0
        assert judge_cli(tmp_path, "mail", "drop", "outbox", str(nope.id)).returncode == 0
        assert judge_cli(tmp_path, "mail", "drop", "outbox", "999").returncode == 1
        Sender(make_sessionmaker(engine), config).send_due()
        relay.wait_for(1)
    finally:
        engine.dispose()
        relay.stop()
    assert [c.rcpt_tos for c in relay.messages] == [["gone@example.org"]]
    gone, nope = rows(migrated_url, OutboxMessage)
    assert (gone.status, gone.attempts) == ("sent", 1) and nope.status == "dropped"
