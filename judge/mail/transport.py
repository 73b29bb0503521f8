"""Where outgoing mail goes: an SMTP relay, or a local Maildir when no relay is configured."""

from __future__ import annotations

import mailbox
import smtplib
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path
from typing import Protocol

from ..config import Config


class Transport(Protocol):
    """Delivers finished messages; ``open``/``close`` bracket a batch."""

    name: str

    def open(self) -> None: ...

    def deliver(self, message: EmailMessage, to_addr: str) -> None: ...

    def close(self) -> None: ...


class RelayTransport:
    """Hands mail to the configured SMTP relay, one connection per batch (smtplib)."""

    def __init__(self, config: Config) -> None:
        assert config.relay_host, "RelayTransport needs relay_host"
        self.config = config
        self.name = f"relay {config.relay_host}:{config.relay_port}"
        self._conn: smtplib.SMTP | None = None

    def open(self) -> None:
        if self._conn is not None:
            return
        cfg = self.config
        conn = smtplib.SMTP(cfg.relay_host or "", cfg.relay_port, local_hostname=cfg.domain,
                            timeout=cfg.relay_timeout)
        try:
            if cfg.relay_starttls:
                conn.starttls()
                conn.ehlo()
            if cfg.relay_user:
                conn.login(cfg.relay_user, cfg.relay_password or "")
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def deliver(self, message: EmailMessage, to_addr: str) -> None:
        self.open()
        assert self._conn is not None
        self._conn.send_message(message, from_addr=self.config.address, to_addrs=[parseaddr(to_addr)[1]])

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.quit()
        except (smtplib.SMTPException, OSError):
            conn.close()


class MaildirTransport:
    """Writes mail into a Maildir (``new/``) that any mail reader can open."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.name = f"maildir {self.path}"
        self._box: mailbox.Maildir | None = None

    def open(self) -> None:
        if self._box is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._box = mailbox.Maildir(self.path, create=True)

    def deliver(self, message: EmailMessage, to_addr: str) -> None:
        self.open()
        assert self._box is not None
        self._box.add(message.as_bytes())

    def close(self) -> None:
        self._box = None


def transport_for(config: Config) -> Transport:
    """The relay when one is configured, else the Maildir at ``config.maildir``."""
    if config.relay_host:
        return RelayTransport(config)
    return MaildirTransport(config.maildir)


def is_permanent(exc: BaseException) -> bool:
    """Whether the relay refused for good (5xx for the recipient or the content)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPSenderRefused | smtplib.SMTPAuthenticationError):
        return False
    if isinstance(exc, smtplib.SMTPResponseException):
        return exc.smtp_code >= 500
    return False
