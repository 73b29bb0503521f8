"""MIME reading: the text a player typed, whatever the mail program wrapped it in."""

from __future__ import annotations

from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

from judge.mail.quoting import own_text
from judge.mail.reader import read_message, stable_message_id


def raw_plain(body: str, **headers: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = headers.pop("From", "Ann Player <Ann@Example.ORG>")
    msg["To"] = "judge@localhost"
    msg["Subject"] = headers.pop("Subject", "orders")
    msg["Message-ID"] = headers.pop("Message_ID", "<1@example.org>")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg.as_bytes()


def test_plain_text() -> None:
    mail = read_message(raw_plain("signon fgame pw\nA par - bur\n"))
    assert mail.sender == "ann@example.org"
    assert mail.sender_name == "Ann Player"
    assert mail.subject == "orders"
    assert mail.message_id == "<1@example.org>"
    assert mail.text == "signon fgame pw\nA par - bur"
    assert mail.headers["To"] == "judge@localhost"


def test_quoted_printable_and_charset() -> None:
    part = MIMEText("Ordres : A par - bur\nPrésident\n", "plain", "iso-8859-1")
    part.replace_header("Content-Transfer-Encoding", "quoted-printable")
    part.set_payload("Ordres : A par - bur\nPr=E9sident\n")
    part["From"] = "=?utf-8?q?Andr=C3=A9?= <andre@example.org>"
    part["Subject"] = "=?iso-8859-1?q?=E9t=E9?="
    mail = read_message(part.as_bytes())
    assert mail.text == "Ordres : A par - bur\nPrésident"
    assert mail.sender_name == "André"
    assert mail.subject == "été"


def test_base64_utf8() -> None:
    msg = EmailMessage()
    msg["From"] = "b@example.org"
    msg.set_content("F nth - nwy ✓\n", cte="base64")
    assert read_message(msg.as_bytes()).text == "F nth - nwy ✓"


def test_bad_bytes_and_unknown_charset_never_raise() -> None:
    raw = (b"From: c@example.org\nContent-Type: text/plain; charset=x-nonsense\n"
           b"Content-Transfer-Encoding: base64\n\n!!!not base64\xff\n")
    mail = read_message(raw)
    assert mail.sender == "c@example.org"
    raw = b"From: c@example.org\nContent-Type: text/plain; charset=utf-8\n\nA par \xff\xfe hold\n"
    assert read_message(raw).text == "A par \ufffd\ufffd hold"
    assert read_message(b"").text == ""


def test_html_only() -> None:
    html = ("<html><head><style>p {color: red}</style></head><body><div>A par - bur</div>"
            "<div>F lon&nbsp;-&nbsp;nth</div><br><p>signoff &amp; bye</p>"
            "<blockquote>old quoted text</blockquote></body></html>")
    msg = MIMEText(html, "html", "utf-8")
    msg["From"] = "h@example.org"
    lines = [line for line in read_message(msg.as_bytes()).text.splitlines() if line]
    assert lines == ["A par - bur", "F lon - nth", "signoff & bye"]


def test_plain_preferred_and_attachment_ignored() -> None:
    msg = MIMEMultipart("mixed")
    msg["From"] = "m@example.org"
    alt = MIMEMultipart("alternative")
    alt.attach(MIMEText("<p>the html</p>", "html"))
    alt.attach(MIMEText("the plain text", "plain"))
    msg.attach(alt)
    attachment = MIMEApplication(b"\0" * 3_000_000, Name="map.ps")
    attachment["Content-Disposition"] = 'attachment; filename="map.ps"'
    msg.attach(attachment)
    msg.attach(MIMEText("a text attachment", "plain"))
    msg.get_payload()[-1]["Content-Disposition"] = 'attachment; filename="notes.txt"'
    assert read_message(msg.as_bytes()).text == "the plain text"


def test_quotes_and_signature_removed() -> None:
    body = ("A par - bur\n\nOn Mon, 1 Jan 2024, Judge wrote:\n> old result\n>> older\n"
            "F lon - nth\n-- \nAnn\nmy phone: 123\n")
    assert read_message(raw_plain(body)).text == "A par - bur\nF lon - nth"


def test_missing_message_id_is_stable() -> None:
    raw = b"From: n@example.org\nSubject: x\n\nhello\n"
    first, second = read_message(raw), read_message(raw)
    assert first.message_id == second.message_id == stable_message_id(raw)
    assert read_message(raw + b"more\n").message_id != first.message_id


def test_overlong_message_id_is_shortened() -> None:
    mail = read_message(raw_plain("x", Message_ID="<" + "a" * 400 + "@x>"))
    assert len(mail.message_id) <= 255


def test_own_text_keeps_what_the_sender_wrote() -> None:
    """What :mod:`judge.mail.quoting` must not take: a press message's indentation and its
    ``Thanks,``, an answer between quoted lines, a sentence that begins like a phone's
    signature, and a ``From:`` line with no mail header block under it."""
    body = ("PRESS TO F\n  Thanks, France.\n- a list\nSent from my capital, with a heavy heart and no fleet\n"
            "From: the Tsar\nENDPRESS\n> quoted\nA war - gal\n")
    assert own_text(body) == body.rstrip("\n").replace("\n> quoted", "")


def test_own_text_drops_a_wrapped_attribution_and_what_follows_a_signature() -> None:
    body = "A par - bur\n\nOn Thu, Dec 3, 2026 at 3:05 PM Judge\n<judge@judge.test>\nwrote:\n\n> old\n"
    assert own_text(body) == "A par - bur"
    assert own_text("A par - bur\n\nSent from my iPhone\n\nOn Dec 3 Judge wrote:\nold\n") == "A par - bur"
    assert own_text("A par - bur\nAm 3. Dez. 2026 um 15:05 schrieb Judge <j@x.test>:\n> alt\n") == "A par - bur"
