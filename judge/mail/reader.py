"""Read a raw message the way the judge should: the text a person typed, nothing else.

Contract::

    from judge.mail.reader import IncomingMail, read_message
    mail = read_message(raw_bytes)

``read_message`` never raises. It prefers a text/plain part, turns an HTML-only message into
text, decodes quoted-printable, base64 and any charset (bad bytes replaced), drops quoted
reply lines (``>``) with the "On ... wrote:" line before them, and the signature (from a
``-- `` line on). Attachments are skipped unread. A message without a Message-ID gets a
stable one made from a hash of its bytes.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import parseaddr

from .htmltext import html_to_text

MAX_MESSAGE_ID = 255


@dataclass
class IncomingMail:
    """A received message: who sent it, its subject, and its body text as the judge reads it."""

    message_id: str
    sender: str
    sender_name: str
    subject: str
    text: str
    headers: Message
    raw: bytes


def header_text(value: object) -> str:
    """A header value decoded from RFC 2047 encoded words, on one line; never raises."""
    if value is None:
        return ""
    try:
        text = str(make_header(decode_header(str(value))))
    except (ValueError, LookupError, UnicodeError, email.errors.HeaderParseError):
        text = str(value)
    return " ".join(text.split())


def stable_message_id(raw: bytes) -> str:
    """The Message-ID given to a message that has none: a hash of its bytes."""
    return f"<{hashlib.sha256(raw).hexdigest()[:40]}@no-message-id.invalid>"


def _message_id(msg: Message, raw: bytes) -> str:
    value = " ".join(str(msg.get("Message-ID", "")).split())
    if not value:
        return stable_message_id(raw)
    if len(value) > MAX_MESSAGE_ID:
        return f"<{hashlib.sha256(value.encode('utf-8', 'replace')).hexdigest()}@long-message-id.invalid>"
    return value


def message_id_of(raw: bytes) -> str:
    """The Message-ID :func:`read_message` would give ``raw``, reading the headers only."""
    return _message_id(BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw), raw)


def _decode_part(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def _is_attachment(part: Message) -> bool:
    disposition = str(part.get("Content-Disposition", "")).split(";")[0].strip().lower()
    return disposition == "attachment" or bool(part.get_filename())


def body_text(msg: Message) -> str:
    """The body as text: the first text/plain part, else the first text/html part as text."""
    html: Message | None = None
    for part in msg.walk():
        if part.is_multipart() or _is_attachment(part):
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain":
            return _decode_part(part)
        if ctype == "text/html" and html is None:
            html = part
    if html is not None:
        return html_to_text(_decode_part(html))
    if not msg.is_multipart() and msg.get_content_maintype() == "text":
        return _decode_part(msg)
    return ""


_WROTE = re.compile(r"(wrote|schrieb|a écrit|escribió|ha scritto|schreef)\s*:\s*$", re.IGNORECASE)


def strip_quotes_and_signature(text: str) -> str:
    """Drop the signature (from a ``-- `` line on) and quoted lines with their attribution."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for line in lines:
        if line.rstrip() == "--":
            break
        if line.lstrip().startswith(">"):
            while kept and not kept[-1].strip():
                kept.pop()
            if kept and _WROTE.search(kept[-1]):
                kept.pop()
            continue
        kept.append(line.rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept)


def read_message(raw: bytes) -> IncomingMail:
    """Parse ``raw`` into an :class:`IncomingMail`; bad input gives empty fields, not errors."""
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    name, addr = parseaddr(header_text(msg.get("From")))
    try:
        text = strip_quotes_and_signature(body_text(msg))
    except (ValueError, LookupError, UnicodeError, AssertionError):
        text = ""
    return IncomingMail(message_id=_message_id(msg, raw), sender=addr.strip().lower(),
                        sender_name=name.strip(), subject=header_text(msg.get("Subject")),
                        text=text, headers=msg, raw=raw)
