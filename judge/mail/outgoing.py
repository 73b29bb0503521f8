"""The form an outgoing mail takes on the wire: plain text that every client reads raw.

Contract::

    from judge.mail.outgoing import build_message, wire_bytes, direct_wire, needs_smtputf8, is_eight_bit
    wire = direct_wire(row, config)               # nearly every mail: Wire(data, eight_bit), or None
    msg = build_message(row, config)              # headers and a 7bit or 8bit text body
    data = wire_bytes(msg)                        # the bytes for DATA (CRLF lines)

:func:`direct_wire` writes the same bytes as the email package (a test compares them) where
the mail is plain (ASCII headers, short attachment names), at a fraction of the cost: a
picture's base64 is made once per picture, not once per reader (a result burst sends a
phase's picture to every player of every game).

The body goes out as ``Content-Transfer-Encoding: 7bit`` (ASCII) or ``8bit`` (UTF-8), never
quoted-printable, so a saved raw mail parses in mapping tools (jDip rejects ``Tyrrh=``);
every line is kept under RFC 5322's 998 octets (a longer line is broken at a space, or at
the limit). An 8-bit body is sent with ``BODY=8BITMIME`` where the relay offers it (RFC
6152); where it does not, the one 7-bit form text has, quoted-printable, is the fallback.
A recipient with a non-ASCII address needs ``SMTPUTF8`` (RFC 6531): its headers are then
written in raw UTF-8; otherwise non-ASCII header text is encoded (RFC 2047).
"""

from __future__ import annotations

import base64
import email.policy
import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, parseaddr

from ..config import Config
from ..store.mail import Attachment, OutboxMessage

MAX_LINE_OCTETS = 990  # RFC 5322 allows 998; room left for dot-stuffing
KEPT_PARTS = 64  # attachments kept encoded (a picture's base64 is some 80 KB: 5 MB in all)
RESERVED = frozenset({"from", "to", "subject", "date", "message-id", "x-loop", "auto-submitted",
                      "mime-version", "content-type", "content-transfer-encoding"})


def _split_line(line: str, limit: int) -> list[str]:
    """``line`` in pieces of at most ``limit`` UTF-8 octets, broken at spaces where possible."""
    pieces: list[str] = []
    while len(line.encode("utf-8")) > limit:
        cut = len(line.encode("utf-8")[:limit].decode("utf-8", "ignore"))
        space = line.rfind(" ", 0, cut)
        if space > 0:
            pieces.append(line[:space])
            line = line[space + 1:]
        else:
            pieces.append(line[:cut])
            line = line[cut:]
    pieces.append(line)
    return pieces


def limit_lines(text: str, limit: int = MAX_LINE_OCTETS) -> str:
    """``text`` with every line under ``limit`` octets and a final newline."""
    lines: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        lines.extend(_split_line(line, limit))
    if lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def bare_address(to_addr: str) -> str:
    """The address alone (``ann@x.org`` of ``Ann <ann@x.org>``)."""
    return parseaddr(to_addr)[1] or to_addr.strip()


def needs_smtputf8(to_addr: str) -> bool:
    """Whether mail to ``to_addr`` needs SMTPUTF8 (a non-ASCII address)."""
    return not bare_address(to_addr).isascii()


def _body(msg: EmailMessage, text: str, seven_bit: bool) -> None:
    if text.isascii():
        msg.set_content(text, cte="7bit")
    else:
        msg.set_content(text, charset="utf-8", cte="quoted-printable" if seven_bit else "8bit")


def build_message(row: OutboxMessage, config: Config, *, seven_bit: bool = False) -> EmailMessage:
    """The mail for an outbox row: the judge's From, Message-ID and loop headers, a plain
    text body (``seven_bit``: quoted-printable for a non-ASCII body, the no-8BITMIME form),
    and the row's files as attachments (base64; the text part stays raw 7bit/8bit, so mapping
    tools still read a saved mail)."""
    msg = EmailMessage()
    msg["From"] = formataddr((config.code, config.address))
    msg["To"] = row.to_addr
    msg["Subject"] = row.subject
    msg["Date"] = format_datetime(row.created_at)
    msg["Message-ID"] = row.message_id
    msg["X-Loop"] = config.address
    msg["Auto-Submitted"] = "auto-replied" if row.kind == "reply" else "auto-generated"
    for name, value in (row.headers or {}).items():
        if name.lower() not in RESERVED:
            msg[name] = value
    _body(msg, limit_lines(row.body), seven_bit)
    for file in row.files:
        maintype, _, subtype = file.content_type.partition("/")
        msg.add_attachment(file.data, maintype=maintype, subtype=subtype or "octet-stream", filename=file.filename)
    if row.files:
        msg.set_boundary(boundary_of(row))
    return msg


def is_eight_bit(msg: EmailMessage) -> bool:
    """Whether a part of the body is sent as 8bit (needs BODY=8BITMIME)."""
    return any(str(part.get("Content-Transfer-Encoding", "")).lower() == "8bit" for part in msg.walk())


def _fold(name: str, value: str) -> str:
    """``Name: value`` folded at spaces before 78 characters where it can be (RFC 5322 2.2.3)."""
    line, out = f"{name}: ", []
    for word in value.split(" "):
        if len(line) + len(word) > 77 and line.strip() and not line.endswith(": "):
            out.append(line.rstrip(" "))
            line = " "
        line += word + " "
    out.append(line.rstrip(" "))
    return "\r\n".join(out)


@dataclass(frozen=True, slots=True)
class Wire:
    """The DATA bytes of a mail written directly, and whether a part of it is 8bit."""

    data: bytes
    eight_bit: bool


def boundary_of(row: OutboxMessage) -> str:
    """The multipart boundary of ``row``'s mail: made from its Message-ID, so the mail is the
    same bytes however often it is written; ``=_`` cannot occur in base64 (RFC 2045 6.8)."""
    return "=_" + hashlib.sha256(row.message_id.encode("utf-8")).hexdigest()[:24]


def _base64_lines(data: bytes) -> bytes:
    """``data`` in base64, 76 characters a CRLF line (RFC 2045 6.8), as the email package
    writes it."""
    text = base64.b64encode(data)
    return b"".join(text[i:i + 76] + b"\r\n" for i in range(0, len(text), 76))


_ENCODED: OrderedDict[str, bytes] = OrderedDict()
_ENCODED_LOCK = threading.Lock()


def _encoded(file: Attachment) -> bytes:
    """An attachment's base64 lines, kept by its digest (the :data:`KEPT_PARTS` latest): a
    phase's picture goes to every reader of the phase, so it is encoded once, not once a
    reader. An attachment's bytes never change once ready (only a waiting one is filled in,
    :func:`judge.store.mail.complete_attachment`), so its digest names them."""
    with _ENCODED_LOCK:
        found = _ENCODED.get(file.digest)
        if found is not None:
            _ENCODED.move_to_end(file.digest)
            return found
    lines = _base64_lines(file.data)
    with _ENCODED_LOCK:
        _ENCODED[file.digest] = lines
        while len(_ENCODED) > KEPT_PARTS:
            _ENCODED.popitem(last=False)
    return lines


def direct_wire(row: OutboxMessage, config: Config) -> Wire | None:
    """The DATA bytes for ``row`` written directly, the same mail :func:`build_message` makes
    (byte for byte, ``tests/test_mail_standards.py``), when every header is plain ASCII and
    the body is ASCII or UTF-8 text: nearly every mail (results with their picture, replies,
    notices); None otherwise (then the email package writes it). Attachments go as base64
    parts of a multipart/mixed mail, each encoded once however many readers it goes to."""
    extra = [(n, v) for n, v in (row.headers or {}).items() if n.lower() not in RESERVED]
    files = list(row.files)
    values = [row.to_addr, row.subject, config.code, config.address, row.message_id, *(v for _, v in extra),
              *(n for n, _ in extra), *(f.filename for f in files), *(f.content_type for f in files)]
    if not all(v.isascii() and "\n" not in v and "\r" not in v and len(v) < 900 for v in values):
        return None
    if any(c in config.code for c in '()<>@,;:\\".[]'):
        return None
    if any('"' in f.filename or "\\" in f.filename or "/" not in f.content_type or not f.digest
           or len(f.filename) > 30 for f in files):
        return None  # the email package quotes or folds these; it writes them
    text = limit_lines(row.body)
    eight_bit = not text.isascii()
    boundary = boundary_of(row)
    if files and boundary in text:
        return None
    headers = [("From", f"{config.code} <{config.address}>"), ("To", row.to_addr), ("Subject", row.subject),
               ("Date", format_datetime(row.created_at)), ("Message-ID", row.message_id),
               ("X-Loop", config.address),
               ("Auto-Submitted", "auto-replied" if row.kind == "reply" else "auto-generated"), *extra]
    text_head = ('Content-Type: text/plain; charset="utf-8"\r\n'
                 f"Content-Transfer-Encoding: {'8bit' if eight_bit else '7bit'}\r\n")
    body = text.replace("\n", "\r\n").encode("utf-8")
    if not files:
        head = "".join(_fold(name, value) + "\r\n" for name, value in headers)
        return Wire((head + text_head + "MIME-Version: 1.0\r\n\r\n").encode("utf-8") + body, eight_bit)
    headers += [("MIME-Version", "1.0"), ("Content-Type", f'multipart/mixed; boundary="{boundary}"')]
    head = "".join(_fold(name, value) + "\r\n" for name, value in headers)
    parts = [(head + f"\r\n--{boundary}\r\n" + text_head + "\r\n").encode("utf-8"), body]
    for file in files:
        parts.append((f"\r\n--{boundary}\r\nContent-Type: {file.content_type}\r\n"
                      "Content-Transfer-Encoding: base64\r\n"
                      f'Content-Disposition: attachment; filename="{file.filename}"\r\n'
                      "MIME-Version: 1.0\r\n\r\n").encode("ascii"))
        parts.append(_encoded(file))
    parts.append(f"\r\n--{boundary}--\r\n".encode("ascii"))
    return Wire(b"".join(parts), eight_bit)


def wire_bytes(msg: EmailMessage, linesep: str = "\r\n") -> bytes:
    """The message as sent (CRLF lines, or ``linesep`` for a file); raw UTF-8 headers only
    where an address needs it."""
    utf8 = needs_smtputf8(str(msg["To"]))
    policy = email.policy.SMTPUTF8 if utf8 else email.policy.SMTP
    return msg.as_bytes(policy=policy.clone(linesep=linesep))
