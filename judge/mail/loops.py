"""Mail the judge must never answer: bounces, auto-replies, bulk mail, its own mail.

Contract::

    from judge.mail.loops import refusal_reason
    reason = refusal_reason(mail, envelope_sender, config)   # None: answer it

Such mail is still stored in the inbox (status "ignored", the reason in ``note``) and logged.
"""

from __future__ import annotations

from email.utils import getaddresses, parseaddr
from functools import lru_cache

from ..config import Config
from .reader import KEPT_HEADER_CHARS, IncomingMail

DAEMONS = frozenset({"mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon", "noreply",
                     "no-reply", "do-not-reply", "donotreply"})
BULK_PRECEDENCE = frozenset({"bulk", "junk", "list"})
AUTOREPLY_HEADERS = ("X-Autoreply", "X-Autorespond")


def _bare(address: str) -> str:
    """The address of ``address`` (``parseaddr``), lower case; kept when short (as the
    reader keeps address headers), as a player's addresses come back with every mail and
    the parser is a good part of reading one: a stream of long made-up ones is not kept."""
    return _kept_bare(address) if len(address) <= KEPT_HEADER_CHARS else parseaddr(address)[1].lower()


@lru_cache(maxsize=4096)
def _kept_bare(address: str) -> str:
    return parseaddr(address)[1].lower()


def _local_part(address: str) -> str:
    return _bare(address).rpartition("@")[0]


def _header(mail: IncomingMail, name: str) -> str:
    return " ".join(str(mail.headers.get(name, "")).split()).lower()


def refusal_reason(mail: IncomingMail, envelope_sender: str, config: Config) -> str | None:
    """Why the judge must not answer ``mail``, or None when it may.

    Refused: an empty return path (a bounce), mail from the judge's own address (also in
    its tagged form ``judge+tag@domain``, the players' reply addresses) or from a
    mailer daemon / postmaster / no-reply address, ``Auto-Submitted`` other than ``no``,
    ``Precedence: bulk|junk|list``, vacation-responder headers, a delivery report, and
    ``X-Loop`` naming the judge (its own mail come back).
    """
    envelope = _bare(envelope_sender.strip())
    own = config.address.lower()
    if not envelope:
        return "empty return path (a bounce)"
    if config.is_own(envelope) or config.is_own(mail.sender):
        return "mail from the judge's own address"
    for who in (envelope, mail.sender):
        if _local_part(who) in DAEMONS:
            return f"mail from a mailer daemon or unattended address ({who})"
    if not mail.sender:
        return "no From address"
    auto = _header(mail, "Auto-Submitted")
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(mail, "Precedence")
    if precedence in BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    for name in AUTOREPLY_HEADERS:
        if mail.headers.get(name) is not None:
            return f"auto-reply header {name}"
    if mail.headers.get_content_type() == "multipart/report":
        return "a delivery or read report"
    loops = [addr.lower() for _, addr in getaddresses(mail.headers.get_all("X-Loop", []))]
    if any(config.is_own(addr) for addr in loops):
        return f"X-Loop: {own} (the judge's own mail came back)"
    return None
