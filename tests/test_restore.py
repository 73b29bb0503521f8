"""Issue 27, item 2: the backup holds everything a restore needs. A live game on PostgreSQL is
dumped with ``pg_dump`` (as deploy.md's cron line does), restored into an empty database on a
machine without the old data folder, and a player's reply to a result mail sent before the
backup still plays: the key that signs the ``Reply-To: judge+...`` addresses is in the
database, not only in ``<data_dir>/secret``."""

from __future__ import annotations

import secrets
import shutil
import smtplib
import subprocess
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from conftest import PG_URL, CaptureSMTP
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from test_e2e_harness import LiveJudge, reply_among, start_game


def libpq(url: str) -> str:
    """The URL as PostgreSQL's own tools take it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def reply_to_of(relay: CaptureSMTP, address: str) -> str:
    last = [c for c in relay.messages if c.rcpt_tos == [address]][-1]
    return str(last.message["Reply-To"])


def send_to(live: LiveJudge, sender: str, to: str, body: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "Re: E2E:rs - S1901M"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", live.config.smtp_port, timeout=10) as smtp:
        smtp.send_message(msg, from_addr=sender, to_addrs=[to])


def test_a_restored_database_keeps_the_reply_addresses(pg_database: str, tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed")
    relay = CaptureSMTP().start()
    restored = f"judge_restore_{secrets.token_hex(6)}"
    admin = create_engine(make_url(PG_URL), isolation_level="AUTOCOMMIT")
    try:
        live = LiveJudge(pg_database, relay, tmp_path / "old")
        try:
            powers = start_game(live, "rs")
            france = powers["France"]
            address = reply_to_of(relay, france)
            assert address.startswith("judge+")
        finally:
            live.stop()
        dump = tmp_path / "judge.dump"
        subprocess.run(["pg_dump", "--format=custom", "--file", str(dump), libpq(pg_database)], check=True,
                       timeout=120)
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{restored}"'))
        target = make_url(pg_database).set(database=restored).render_as_string(hide_password=False)
        subprocess.run(["pg_restore", "--no-owner", "--dbname", libpq(target), str(dump)], check=True, timeout=120)

        live = LiveJudge(target, relay, tmp_path / "new")  # a new machine: no old data folder
        try:
            live._seen = len(relay.messages)
            send_to(live, france, address, "A par - bur")
            reply = reply_among(live.collect(1), france)
        finally:
            live.stop()
        assert "no longer signs anybody on" not in reply.body, reply.body
        assert "France: Army Paris -> Burgundy." in reply.body, reply.body
    finally:
        relay.stop()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{restored}" WITH (FORCE)'))
        admin.dispose()
