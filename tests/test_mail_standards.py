"""Issue 12, items 1 to 3 and 5, over real SMTP on loopback: raw bodies (7bit/8bit, never
quoted-printable, lines under 998 octets, BODY=8BITMIME or a 7-bit fallback), international
addresses (SMTPUTF8 both ways, a clear refusal where the relay lacks it), the true sender of
an encoded-word From, and a reply to a mail whose MIME cannot be read."""

from __future__ import annotations

import smtplib
from datetime import datetime
from email import message_from_bytes, policy
from pathlib import Path

from conftest import CaptureSMTP
from sqlalchemy import select
from sqlalchemy.orm import Session
from test_server import make_config, run_server, send

from judge.commands import handle_mail
from judge.config import Config
from judge.mail.reader import IncomingMail
from judge.mail.sender import Sender
from judge.server import JudgeServer
from judge.store.base import make_engine, make_sessionmaker
from judge.store.mail import InboxMessage, OutboxMessage, queue_mail

LONG = "Austria: Fleet Ionian Sea -> Tyrrhenian Sea. " * 3  # 138 characters on one line


def describe(session: Session, config: Config, mail: IncomingMail, now: datetime) -> None:
    """A handler that answers with what the reader made of the mail."""
    body = f"name={mail.sender_name}\nsubject={mail.subject}\nreply_to={','.join(mail.reply_to)}\n{mail.text}\n"
    queue_mail(session, mail.sender, f"Re: {mail.subject}", body, in_reply_to=mail.message_id)


def queue_and_send(url: str, config: Config, body: str, to: str = "ann@example.org") -> OutboxMessage:
    engine = make_engine(url)
    factory = make_sessionmaker(engine, mail_domain="example.org")
    try:
        with factory() as session, session.begin():
            queue_mail(session, to, "Results", body, game="g1", kind="result")
        Sender(factory, config).send_due()
        with factory() as session:
            return session.scalars(select(OutboxMessage)).one()
    finally:
        engine.dispose()


def lines(data: bytes) -> list[bytes]:
    return data.split(b"\r\n")


def test_long_ascii_lines_go_out_7bit_and_whole(migrated_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP().start()
    try:
        body = f"{LONG}\n{'x' * 2500}\n"
        queue_and_send(migrated_url, make_config(tmp_path, migrated_url, relay), body)
        (got,) = relay.wait_for(1)
    finally:
        relay.stop()
    assert b"Content-Transfer-Encoding: 7bit" in got.data
    assert b"quoted-printable" not in got.data.lower() and b"=\r\n" not in got.data
    assert LONG.encode() in lines(got.data)  # the mapping tool's line, unbroken
    assert max(len(line) for line in lines(got.data)) < 998
    assert got.message.get_content().replace("\r\n", "\n").replace("\n", "").count("x") == 2500
    assert not any(o.upper().startswith("BODY=") for o in got.mail_options or [])


def test_lines_that_start_with_a_dot_arrive_whole(migrated_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP().start()
    try:
        body = ".first line\nmiddle\n.\n..two dots\nend .\n"
        queue_and_send(migrated_url, make_config(tmp_path, migrated_url, relay), body)
        (got,) = relay.wait_for(1)
    finally:
        relay.stop()
    assert got.message.get_content().replace("\r\n", "\n") == body  # not ended at the lone dot, none lost


def test_eight_bit_body_uses_8bitmime_when_offered(migrated_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP().start()
    try:
        queue_and_send(migrated_url, make_config(tmp_path, migrated_url, relay), f"Grüße aus Köln\n{LONG}\n")
        (got,) = relay.wait_for(1)
    finally:
        relay.stop()
    assert "BODY=8BITMIME" in (got.mail_options or [])
    assert b"Content-Transfer-Encoding: 8bit" in got.data
    assert "Grüße aus Köln".encode() in got.data and LONG.encode() in lines(got.data)


def test_eight_bit_body_falls_back_to_seven_bit(migrated_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP(eightbit=False).start()
    try:
        queue_and_send(migrated_url, make_config(tmp_path, migrated_url, relay), "Grüße aus Köln\n")
        (got,) = relay.wait_for(1)
    finally:
        relay.stop()
    assert not got.mail_options
    assert all(byte < 128 for byte in got.data)
    assert got.message.get_content().replace("\r\n", "\n") == "Grüße aus Köln\n"


def test_utf8_sender_is_answered_at_that_address(migrated_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP(smtputf8=True).start()
    config = make_config(tmp_path, migrated_url, relay)
    raw = ("From: Jürgen Müller <jürgen@example.test>\r\nTo: judge@example.org\r\nSubject: Grüße\r\n"
           "Message-ID: <u1@example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nA par - bur\r\n").encode()

    def scenario(server: JudgeServer) -> None:
        with smtplib.SMTP("127.0.0.1", config.smtp_port, timeout=10) as smtp:
            smtp.ehlo()
            assert smtp.has_extn("smtputf8")
            smtp.sendmail("jürgen@example.test", ["judge@example.org"], raw, mail_options=["SMTPUTF8"])
        relay.wait_for(1)

    try:
        run_server(config, scenario, handler=describe)
    finally:
        relay.stop()
    (got,) = relay.messages
    assert got.rcpt_tos == ["jürgen@example.test"] and "SMTPUTF8" in (got.mail_options or [])
    msg = message_from_bytes(got.data, policy=policy.SMTPUTF8)
    assert str(msg["To"]) == "jürgen@example.test" and str(msg["Subject"]) == "Re: Grüße"
    text = msg.get_content()
    assert "name=Jürgen Müller" in text and "subject=Grüße" in text


def test_utf8_address_refused_clearly_without_smtputf8(migrated_url: str, tmp_path: Path) -> None:
    relay = CaptureSMTP(smtputf8=False).start()
    try:
        row = queue_and_send(migrated_url, make_config(tmp_path, migrated_url, relay), "hello\n",
                             to="jürgen@example.test")
    finally:
        relay.stop()
    assert relay.messages == []
    assert row.status == "failed" and row.attempts == 1
    assert "does not offer SMTPUTF8" in (row.last_error or "") and "jürgen@example.test" in (row.last_error or "")


def test_encoded_word_from_is_not_an_address(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp)
    raw = (b"From: =?utf-8?q?Friend_=3Cvictim=40victim.test=3E?= <me@example.test>\r\n"
           b"Reply-To: Other <other@example.test>\r\nTo: judge@example.org\r\nSubject: hi\r\n"
           b"Message-ID: <ew1@example.test>\r\n\r\nhelp\r\n")

    def scenario(server: JudgeServer) -> None:
        send(config.smtp_port, raw, mail_from="me@example.test")
        capture_smtp.wait_for(1)

    run_server(config, scenario, handler=describe)
    (got,) = capture_smtp.messages
    assert got.rcpt_tos == ["me@example.test"]
    text = got.message.get_content()
    assert "name=Friend <victim@victim.test>" in text and "reply_to=other@example.test" in text


def deep_mime(depth: int) -> bytes:
    head = (b"From: ann@example.org\r\nTo: judge@example.org\r\nSubject: deep\r\n"
            b"Message-ID: <deep@example.org>\r\nMIME-Version: 1.0\r\n")
    opens = b"".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'.encode() for i in range(depth))
    closes = b"".join(f"\r\n--b{i}--\r\n".encode() for i in reversed(range(depth)))
    return head + opens + b"Content-Type: text/plain\r\n\r\nA par - bur\r\n" + closes


def test_hostile_mime_gets_a_reply_that_says_so(migrated_url: str, tmp_path: Path, capture_smtp: CaptureSMTP) -> None:
    config = make_config(tmp_path, migrated_url, capture_smtp, max_message_bytes=200_000)

    def scenario(server: JudgeServer) -> None:
        send(config.smtp_port, deep_mime(1001))
        capture_smtp.wait_for(1)

    run_server(config, scenario, handler=handle_mail)
    (got,) = capture_smtp.messages
    assert got.rcpt_tos == ["ann@example.org"] and "[Error Flag]" in str(got.message["Subject"])
    assert "could not read your mail" in got.message.get_content()
    assert "None of it was acted on" in got.message.get_content()
    engine = make_engine(migrated_url)
    try:
        with make_sessionmaker(engine)() as session:
            row = session.scalars(select(InboxMessage)).one()
    finally:
        engine.dispose()
    assert row.status == "done" and (row.note or "").startswith("unreadable:")


def test_the_direct_wire_form_is_the_email_packages(tmp_path: Path) -> None:
    from judge.mail.outgoing import build_message, direct_wire, wire_bytes
    from judge.store.base import utcnow
    from judge.store.mail import Attachment

    config = make_config(tmp_path, "sqlite://", CaptureSMTP())
    picture = Attachment(digest="d" * 64, filename="game-S1901M.png", content_type="image/png",
                         data=bytes(range(256)) * 300, created_at=utcnow())
    for body in (f"{LONG}\nplain\n", "Grüße\n" + "x " * 600):
        for files in ([], [picture]):
            row = OutboxMessage(to_addr="Ann Player <ann@example.org>", kind="reply", message_id="<a@example.org>",
                                subject="Re: TEST:game - S1901M a subject long enough to be folded by both writers "
                                        "[Error Flag]", body=body, created_at=utcnow(),
                                headers={"In-Reply-To": "<x@y>"})
            row.files = files
            fast = direct_wire(row, config)
            assert fast is not None
            assert fast.data == wire_bytes(build_message(row, config))
            assert fast.eight_bit == (not body.isascii())
            again = direct_wire(row, config)  # the picture's part encoded once, kept: the same bytes
            assert again is not None and again.data == fast.data
    row.subject = "Grüße"
    assert direct_wire(row, config) is None
