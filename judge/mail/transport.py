"""Where outgoing mail goes: an SMTP relay, or a local Maildir when no relay is configured.

Contract::

    transport = transport_for(config)      # RelayTransport or MaildirTransport
    transport.deliver(row, config, ready)  # raises DeliveryError when it is not delivered
    transport.close(); transport.abort()   # abort: from another thread, drop the connection now

``ready()`` is called at the last moment before the mail becomes the other side's: before the
DATA's closing dot is sent (the body already is), or before the file goes into the Maildir.
The sender stages its "sent" update there, so after the relay's 250 only a commit is left
(no lock to wait for): the window in which a crash can send a mail twice is as small as SMTP
allows. If ``ready`` raises, the mail is not handed over (the relay connection is dropped
before the dot, so the relay discards the transaction) and the error propagates.

The relay transport keeps one SMTP connection open (smtplib) and, where the relay offers
PIPELINING (RFC 2920), sends ``MAIL``, ``RCPT`` and ``DATA`` in one write. It asks for
``BODY=8BITMIME`` for an 8-bit body where the relay offers it, else sends the 7-bit form
(RFC 6152), and ``SMTPUTF8`` for a non-ASCII address, refusing the mail for good where the
relay does not offer it (RFC 6531 section 3.4). A :class:`DeliveryError` says how bad it
is: ``permanent`` (a 5xx: do not try again) or not, and ``connection`` (the relay or the
link failed: the next mail would fail too) or only this mail.
"""

from __future__ import annotations

import mailbox
import smtplib
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ..config import Config
from ..store.mail import OutboxMessage
from .outgoing import bare_address, build_message, direct_wire, is_eight_bit, needs_smtputf8, wire_bytes


class DeliveryError(Exception):
    """A mail was not delivered: ``code`` (0 when no SMTP reply), ``stage``, and how bad."""

    def __init__(self, message: str, *, code: int = 0, stage: str = "", permanent: bool = False,
                 connection: bool = False) -> None:
        super().__init__(message)
        self.code, self.stage, self.permanent, self.connection = code, stage, permanent, connection


class Transport(Protocol):
    """Delivers one outbox row at a time; ``close`` ends a batch, ``abort`` breaks it off."""

    name: str
    accepted_at: float  # time.monotonic() of the last delivery's acceptance

    def deliver(self, row: OutboxMessage, config: Config, ready: Callable[[], None] = ...) -> None: ...

    def close(self) -> None: ...

    def abort(self) -> None: ...


def _nothing() -> None:
    """The default ``ready``: nothing to stage before the hand-over."""


def _reply_error(stage: str, code: int, reply: bytes) -> DeliveryError:
    text = reply.decode("utf-8", "replace")
    return DeliveryError(f"{stage}: {code} {text}", code=code, stage=stage, permanent=500 <= code < 600,
                         connection=code in (421, -1) or code < 200)


def dot_stuffed(data: bytes) -> bytes:
    """``data`` with a dot doubled at the start of every line (RFC 5321 4.5.2): a plain
    replace, where a multiline regex cost 1.5 ms on a mail with a picture."""
    data = data.replace(b"\n.", b"\n..")
    return b"." + data if data.startswith(b".") else data


class RelayTransport:
    """Hands mail to the configured SMTP relay over one kept-open connection."""

    def __init__(self, config: Config) -> None:
        assert config.relay_host, "RelayTransport needs relay_host"
        self.config = config
        self.name = f"relay {config.relay_host}:{config.relay_port}"
        self.accepted_at = 0.0
        self._conn: smtplib.SMTP | None = None

    def _open(self) -> smtplib.SMTP:
        if self._conn is not None:
            return self._conn
        cfg = self.config
        try:
            conn = smtplib.SMTP(cfg.relay_host or "", cfg.relay_port, local_hostname=cfg.domain,
                                timeout=cfg.relay_timeout)
            # The body and the closing dot go in two writes (``ready`` between them): without
            # this, Nagle's algorithm holds the dot back until the body's ACK comes.
            if conn.sock is not None:
                conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (OSError, smtplib.SMTPException) as exc:
            raise DeliveryError(f"connect: {type(exc).__name__}: {exc}", stage="connect", connection=True) from exc
        try:
            conn.ehlo_or_helo_if_needed()
            if cfg.relay_starttls:
                conn.starttls()
                conn.ehlo()
            if cfg.relay_user:
                conn.login(cfg.relay_user, cfg.relay_password or "")
        except (OSError, smtplib.SMTPException) as exc:
            conn.close()
            code = getattr(exc, "smtp_code", 0)
            raise DeliveryError(f"session: {type(exc).__name__}: {exc}", code=code, stage="session",
                                connection=True) from exc
        self._conn = conn
        return conn

    def deliver(self, row: OutboxMessage, config: Config, ready: Callable[[], None] = _nothing) -> None:
        conn = self._open()
        to_addr = bare_address(row.to_addr)
        options: list[str] = []
        if needs_smtputf8(row.to_addr):
            if not conn.has_extn("smtputf8"):
                raise DeliveryError(f"the relay does not offer SMTPUTF8, which the address {to_addr} needs",
                                    stage="mail", permanent=True)
            options.append("SMTPUTF8")
        wire = direct_wire(row, config)
        if wire is not None and (not wire.eight_bit or conn.has_extn("8bitmime")):
            data = wire.data
            if wire.eight_bit:
                options.append("BODY=8BITMIME")
        else:
            msg = build_message(row, config)
            if is_eight_bit(msg) and conn.has_extn("8bitmime"):
                options.append("BODY=8BITMIME")
            elif is_eight_bit(msg):
                msg = build_message(row, config, seven_bit=True)
            data = wire_bytes(msg)
        try:
            self._transaction(conn, config.address, to_addr, options, data, ready)
        except DeliveryError as exc:
            if exc.connection:
                self.abort()
            else:
                self._reset(conn)
            raise
        except (OSError, smtplib.SMTPException) as exc:
            self.abort()
            raise DeliveryError(f"{type(exc).__name__}: {exc}", stage="data", connection=True) from exc
        except BaseException:
            self.abort()  # ``ready`` failed: the dot was not sent, the relay drops the mail
            raise

    def _transaction(self, conn: smtplib.SMTP, from_addr: str, to_addr: str, options: list[str],
                     data: bytes, ready: Callable[[], None]) -> None:
        params = "".join(f" {o}" for o in options)
        commands = [f"MAIL FROM:<{from_addr}>{params}", f"RCPT TO:<{to_addr}>", "DATA"]
        replies: list[tuple[int, bytes]] = []
        if conn.has_extn("pipelining"):
            conn.send("".join(f"{c}\r\n" for c in commands).encode("utf-8"))
            replies = [conn.getreply() for _ in commands]
        else:
            for command in commands:
                conn.send(f"{command}\r\n".encode())
                replies.append(conn.getreply())
                if replies[-1][0] >= 400:
                    break
        for stage, (code, reply), wanted in zip(("mail", "rcpt", "data"), replies, (250, 250, 354), strict=False):
            if code // 100 != wanted // 100:
                if len(replies) == 3 and replies[2][0] == 354:
                    self.abort()  # the relay wants data for a failed transaction: never send it
                    raise _reply_error(stage, code, reply)
                raise _reply_error(stage, code, reply)
        if not data.endswith(b"\r\n"):
            data += b"\r\n"
        conn.send(dot_stuffed(data))
        ready()
        conn.send(b".\r\n")
        code, reply = conn.getreply()
        self.accepted_at = time.monotonic()
        if code != 250:
            raise _reply_error("data", code, reply)

    def _reset(self, conn: smtplib.SMTP) -> None:
        try:
            conn.rset()
        except (OSError, smtplib.SMTPException):
            self.abort()

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.quit()
        except (OSError, smtplib.SMTPException):
            conn.close()

    def abort(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and conn.sock is not None:
            try:
                conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()


class MaildirTransport:
    """Writes mail into a Maildir (``new/``) that any mail reader can open."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.name = f"maildir {self.path}"
        self.accepted_at = 0.0
        self._box: mailbox.Maildir | None = None

    def deliver(self, row: OutboxMessage, config: Config, ready: Callable[[], None] = _nothing) -> None:
        if self._box is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._box = mailbox.Maildir(self.path, create=True)
        data = wire_bytes(build_message(row, config), linesep="\n")
        ready()
        try:
            self._box.add(data)
        except OSError as exc:
            raise DeliveryError(f"maildir: {exc}", stage="data", connection=True) from exc
        self.accepted_at = time.monotonic()

    def close(self) -> None:
        self._box = None

    def abort(self) -> None:
        self._box = None


def transport_for(config: Config) -> Transport:
    """The relay when one is configured, else the Maildir at ``config.maildir``."""
    if config.relay_host:
        return RelayTransport(config)
    return MaildirTransport(config.maildir)
