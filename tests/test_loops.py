"""Loop and junk detection: what the judge must never answer."""

from __future__ import annotations

import pytest

from judge.config import Config
from judge.mail.loops import refusal_reason
from judge.mail.reader import read_message

CONFIG = Config(address="judge@example.org")


def mail(sender: str = "ann@example.org", headers: str = "", ctype: str = "text/plain") -> bytes:
    return (f"From: {sender}\nTo: judge@example.org\nSubject: s\nMessage-ID: <m@x>\n"
            f"Content-Type: {ctype}\n{headers}\nbody\n").encode()


def reason(raw: bytes, envelope: str = "ann@example.org") -> str | None:
    return refusal_reason(read_message(raw), envelope, CONFIG)


def test_ordinary_mail_is_answered() -> None:
    assert reason(mail()) is None
    assert reason(mail(headers="Auto-Submitted: no\nPrecedence: first-class\n")) is None
    assert reason(mail(headers="X-Loop: other-judge@example.net\n")) is None


@pytest.mark.parametrize(("raw", "envelope", "words"), [
    (mail(), "", "empty return path"),
    (mail(), "<>", "empty return path"),
    (mail("Judge <JUDGE@example.org>"), "ann@example.org", "own address"),
    (mail(), "judge@example.org", "own address"),
    (mail("MAILER-DAEMON@mx.example.org"), "ann@example.org", "daemon"),
    (mail(), "postmaster@example.org", "daemon"),
    (mail(headers="Auto-Submitted: auto-replied\n"), "ann@example.org", "Auto-Submitted"),
    (mail(headers="Auto-Submitted: auto-generated; owner-email=x\n"), "ann@example.org", "Auto-Submitted"),
    (mail(headers="Precedence: bulk\n"), "ann@example.org", "Precedence"),
    (mail(headers="Precedence: Junk\n"), "ann@example.org", "Precedence"),
    (mail(headers="Precedence: list\n"), "ann@example.org", "Precedence"),
    (mail(headers="X-Autoreply: yes\n"), "ann@example.org", "auto-reply"),
    (mail(headers="X-Loop: judge@example.org\n"), "ann@example.org", "X-Loop"),
    (mail(ctype="multipart/report; report-type=delivery-status; boundary=b"), "ann@example.org", "report"),
    (b"Subject: no from\n\nx\n", "ann@example.org", "no From"),
])
def test_refused(raw: bytes, envelope: str, words: str) -> None:
    why = reason(raw, envelope)
    assert why is not None and words.lower() in why.lower()


def test_long_made_up_addresses_are_not_kept() -> None:
    """The loop checks keep the parses of short addresses (a player's come back with every
    mail), not of long ones a stream of hostile mail could fill memory with."""
    from judge.mail import loops

    loops._kept_bare.cache_clear()
    loops._bare("Ann <ann@example.org>")
    long = "x" * 10_000 + "@example.org"
    assert loops._bare(long) == long
    assert loops._kept_bare.cache_info().currsize == 1
