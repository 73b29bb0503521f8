"""Read a raw message the way the judge should: who truly sent it, and the text they typed.

Contract::

    from judge.mail.reader import IncomingMail, read_message
    mail = read_message(raw_bytes)

``read_message`` never raises. Addresses come from the ``From`` and ``Reply-To`` headers
parsed by RFC 5322's grammar *before* any encoded word is decoded (RFC 2047 section 6.2: an
address hidden in an encoded display name stays a name), and raw UTF-8 headers (RFC 6532)
are read as UTF-8, so ``jürgen@example.test`` and ``Grüße`` come through intact. The body:
a text/plain part is preferred, an HTML-only message is turned into text, any transfer
encoding and charset is decoded (bad bytes replaced), the quoted original of a reply, its
attribution and the signature are dropped (:mod:`.quoting`, as the common mail clients lay
them out), and attachments are skipped unread. A structure the parser cannot read (a multipart nested
deeper than ``MAX_DEPTH``, or anything that makes the parser fail) leaves ``text`` empty
and says why in ``unreadable``. A message without a Message-ID gets a stable one made from a
hash of its bytes.
"""

from __future__ import annotations

import email
import email.errors
import email.policy
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from email.header import decode_header, make_header
from email.headerregistry import Address
from email.message import Message
from email.parser import BytesHeaderParser
from functools import lru_cache

from .htmltext import html_to_text
from .quoting import own_text

MAX_MESSAGE_ID = 255
MAX_DEPTH = 30  # multipart levels; real mail programs nest three or four
MAX_PARTS = 1000


@dataclass
class IncomingMail:
    """A received message: who sent it, its subject, and its body text as the judge reads it.

    ``sender`` is the address of the ``From`` header (lower case, possibly non-ASCII),
    ``reply_to`` the addresses of ``Reply-To`` read the same way (the command layer decides
    when to honour them); ``unreadable`` is None when the body could be read, else the reason.
    ``over_limit`` is set by the inbox on the first mail over the sender's rate limit (the
    handler answers it, once, and reads no command of it). ``recipients`` are the envelope
    recipients the listener got (``RCPT TO``), set by the inbox. ``received_at`` (when the
    listener stored it) is set by the inbox too: the command layer applies a mail only to a
    game that has not changed since it arrived.
    """

    message_id: str
    sender: str
    sender_name: str
    subject: str
    text: str
    headers: Message
    raw: bytes
    reply_to: tuple[str, ...] = ()
    unreadable: str | None = None
    over_limit: bool = False
    recipients: tuple[str, ...] = ()
    received_at: datetime | None = None


def header_text(value: object) -> str:
    """A header value decoded from RFC 2047 encoded words, on one line; never raises."""
    if value is None:
        return ""
    try:
        text = str(make_header(decode_header(str(value))))
    except (ValueError, LookupError, UnicodeError, email.errors.HeaderParseError):
        text = str(value)
    return " ".join(text.split())


def raw_header(msg: Message, name: str) -> str | None:
    """The first ``name`` header exactly as received, raw 8-bit bytes read as UTF-8
    (Latin-1 when they are not UTF-8), or None when the message has none."""
    wanted = name.lower()
    for key, value in msg.raw_items():
        if key.lower() == wanted:
            data = str(value).encode("ascii", "surrogateescape")
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                return data.decode("latin-1")
    return None


def _is_address(addr: Address) -> bool:
    return bool(addr.username and addr.domain and not re.search(r"[\s<>()\[\],;:\\\"]", addr.addr_spec))


def addresses(value: str | None) -> list[tuple[str, str]]:
    """(display name, address) of each mailbox in an address header, parsed before its
    encoded words are decoded; malformed entries are left out. Addresses are lower-cased."""
    if not value:
        return []
    value = " ".join(value.split())
    return list(_kept_addresses(value) if len(value) <= KEPT_HEADER_CHARS else _addresses(value))


KEPT_HEADER_CHARS = 500  # address headers this long or shorter are parsed once and kept


@lru_cache(maxsize=4096)
def _kept_addresses(value: str) -> tuple[tuple[str, str], ...]:
    """:func:`_addresses`, kept: a player's From line is the same in every mail, and the
    standard library's header parser is about half the cost of reading an order mail."""
    return _addresses(value)


def _addresses(value: str) -> tuple[tuple[str, str], ...]:
    try:
        header = email.policy.SMTPUTF8.header_factory("from", value)
        found = list(header.addresses)
    except (ValueError, LookupError, IndexError, TypeError, email.errors.HeaderParseError):
        return ()
    if any("invalid address" in str(defect) for defect in header.defects):
        return ()  # e.g. "a@x.org)<b@y.org>": no guessing which one was meant
    return tuple((" ".join(a.display_name.split()), a.addr_spec.lower()) for a in found if _is_address(a))


def decoded_header(msg: Message, name: str) -> str:
    """An unstructured header (Subject) with encoded words decoded and raw UTF-8 kept."""
    value = raw_header(msg, name)
    if value is None:
        return ""
    name = name.lower()
    return _kept_decoded(name, value) if len(value) <= KEPT_HEADER_CHARS else _decoded(name, value)


@lru_cache(maxsize=4096)
def _kept_decoded(name: str, value: str) -> str:
    """:func:`_decoded`, kept: subjects repeat (``orders``, ``Re: ...``), and the header
    parser costs as much as the rest of reading an order mail's headers."""
    return _decoded(name, value)


def _decoded(name: str, value: str) -> str:
    try:
        text = str(email.policy.SMTPUTF8.header_factory(name, " ".join(value.split())))
    except (ValueError, LookupError, IndexError, TypeError, email.errors.HeaderParseError):
        text = header_text(value)
    return " ".join(text.split())


NO_ID_DOMAIN = "@no-message-id.invalid>"


def stable_message_id(raw: bytes) -> str:
    """The Message-ID read for a message that has none: a hash of its bytes (the inbox
    stores such a message under a fresh id, see ``judge.mail.inbox.Arrival.of``)."""
    return f"<{hashlib.sha256(raw).hexdigest()[:40]}{NO_ID_DOMAIN}"


def _message_id(msg: Message, raw: bytes) -> str:
    value = " ".join((raw_header(msg, "Message-ID") or "").split())
    if not value:
        return stable_message_id(raw)
    if len(value) > MAX_MESSAGE_ID or not value.isascii():
        return f"<{hashlib.sha256(value.encode('utf-8', 'replace')).hexdigest()}@long-message-id.invalid>"
    return value


def _headers_only(raw: bytes) -> Message:
    return BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)


def message_id_of(raw: bytes) -> str:
    """The Message-ID :func:`read_message` would give ``raw``, reading the headers only."""
    return _message_id(_headers_only(raw), raw)


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


class Unreadable(ValueError):
    """The message's structure is beyond what the judge reads; the text says why."""


def parts(msg: Message) -> list[Message]:
    """Every part of ``msg`` in order, walked without recursion; :class:`Unreadable` when the
    structure is deeper than ``MAX_DEPTH`` or has more than ``MAX_PARTS`` parts."""
    found: list[Message] = []
    stack: list[tuple[Message, int]] = [(msg, 0)]
    while stack:
        part, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Unreadable(f"its MIME parts are nested more than {MAX_DEPTH} levels deep")
        found.append(part)
        if len(found) > MAX_PARTS:
            raise Unreadable(f"it has more than {MAX_PARTS} MIME parts")
        if part.is_multipart():
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend((child, depth + 1) for child in reversed(children) if isinstance(child, Message))
    return found


def body_text(msg: Message) -> str:
    """The body as text: the first text/plain part, else the first text/html part as text."""
    html: Message | None = None
    for part in parts(msg):
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


def read_message(raw: bytes) -> IncomingMail:
    """Parse ``raw`` into an :class:`IncomingMail`; bad input gives empty fields, not errors."""
    unreadable: str | None = None
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        text = own_text(body_text(msg))
    except RecursionError:
        msg, text = _headers_only(raw), ""
        unreadable = "its MIME parts are nested too deeply for the judge to read"
    except Unreadable as exc:
        msg, text = _headers_only(raw), ""
        unreadable = str(exc)
    except (ValueError, LookupError, UnicodeError, AssertionError, TypeError, IndexError, AttributeError) as exc:
        msg, text = _headers_only(raw), ""
        unreadable = f"its MIME structure cannot be read ({type(exc).__name__})"
    senders = addresses(raw_header(msg, "From"))
    name, sender = senders[0] if senders else ("", "")
    return IncomingMail(message_id=_message_id(msg, raw), sender=sender, sender_name=name,
                        subject=decoded_header(msg, "Subject"), text=text, headers=msg, raw=raw,
                        reply_to=tuple(addr for _, addr in addresses(raw_header(msg, "Reply-To"))),
                        unreadable=unreadable)
