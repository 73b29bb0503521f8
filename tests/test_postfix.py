"""Issue 12, item 13: the deployment of docs/deploy.md on loopback. A private Postfix instance
(its own configuration, queue and ports under the test's temporary folder; the machine's own
mail system is not touched) sits in front of the judge (a transport map sends the judge's
domain to its listener) and behind it (the judge's relay, delivering to a capture relay).
A HELP mail and a UTF-8 sender go through both. Needs Debian's ``postfix`` package and root
(Postfix's master starts as root); skipped with a reason elsewhere."""

from __future__ import annotations

import os
import shutil
import smtplib
import subprocess
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import CaptureSMTP, free_port
from test_server import make_config, run_server

from judge.server import JudgeServer

POSTFIX = shutil.which("postfix") or "/usr/sbin/postfix"
DAEMONS = Path("/usr/lib/postfix/sbin")

pytestmark = pytest.mark.skipif(
    not (Path(POSTFIX).exists() and DAEMONS.is_dir()) or os.geteuid() != 0,
    reason="needs Debian's postfix package and root (CI installs it: see .ci/run)")

MASTER_CF = """\
{listen} inet n - n - - smtpd
pickup    unix n - n 60 1 pickup
cleanup   unix n - n - 0 cleanup
qmgr      unix n - n 300 1 qmgr
rewrite   unix - - n - - trivial-rewrite
bounce    unix - - n - 0 bounce
defer     unix - - n - 0 bounce
trace     unix - - n - 0 bounce
verify    unix - - n - 1 verify
flush     unix n - n 1000? 0 flush
proxymap  unix - - n - - proxymap
smtp      unix - - n - - smtp
relay     unix - - n - - smtp
showq     unix n - n - - showq
error     unix - - n - - error
retry     unix - - n - - error
discard   unix - - n - - discard
local     unix - n n - - local
anvil     unix - - n - 1 anvil
scache    unix - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
"""


class PrivatePostfix:
    """A Postfix instance of its own on 127.0.0.1:``port``, removed again by :meth:`stop`."""

    def __init__(self, root: Path, judge_port: int, relay_port: int) -> None:
        self.root, self.port = root, free_port()
        self.conf = root / "etc"
        for sub in ("etc", "queue", "data"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        (self.conf / "master.cf").write_text(MASTER_CF.format(listen=f"127.0.0.1:{self.port}"))
        (self.conf / "main.cf").write_text(f"""\
compatibility_level = 3.6
queue_directory = {root / 'queue'}
data_directory = {root / 'data'}
meta_directory = /etc/postfix
mail_owner = postfix
setgid_group = postdrop
syslog_name = postfix-judge-test
maillog_file_prefixes = {root}
maillog_file = {root / 'maillog'}
myhostname = mx.judge.test
mydomain = judge.test
myorigin = judge.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relay_domains = judge.test
transport_maps = inline:{{ judge.test=smtp:[127.0.0.1]:{judge_port} }}
relayhost = [127.0.0.1]:{relay_port}
smtputf8_enable = yes
alias_maps =
alias_database =
local_recipient_maps =
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtp_tls_security_level = none
smtpd_tls_security_level = none
smtp_dns_support_level = disabled
disable_dns_lookups = yes
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
""")

    def postfix(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([POSTFIX, "-c", str(self.conf), *args], capture_output=True, text=True, timeout=60)

    def start(self) -> None:
        subprocess.run(["chown", "-R", "postfix:postfix", str(self.root / "data")], check=True)
        done = self.postfix("start")
        assert done.returncode == 0, done.stderr + done.stdout + self.log()
        deadline = time.monotonic() + 20
        while True:
            try:
                with smtplib.SMTP("127.0.0.1", self.port, timeout=2) as smtp:
                    smtp.noop()
                return
            except OSError:
                assert time.monotonic() < deadline, self.log()
                time.sleep(0.1)

    def stop(self) -> None:
        if self.postfix("stop").returncode != 0:
            self.postfix("abort")

    def log(self) -> str:
        path = self.root / "maillog"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


@pytest.fixture
def relay() -> Iterator[CaptureSMTP]:
    capture = CaptureSMTP(smtputf8=True).start()
    yield capture
    capture.stop()


def test_postfix_in_front_and_behind(sqlite_db: str, tmp_path: Path, relay: CaptureSMTP) -> None:
    from judge.store.migrate import upgrade

    upgrade(sqlite_db)
    judge_port = free_port()
    mta = PrivatePostfix(Path(f"/tmp/judge-postfix-{os.getpid()}-{judge_port}"), judge_port, relay.port)
    config = make_config(tmp_path, sqlite_db, relay, address="judge@judge.test", max_message_bytes=1_000_000,
                         smtp_port=judge_port, relay_port=mta.port)

    def scenario(server: JudgeServer) -> None:
        for sender, mid in (("ann@players.test", "<pf1@players.test>"), ("jürgen@players.test", "<pf2@players.test>")):
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, "judge@judge.test", "help", mid
            msg.set_content("HELP\n")
            with smtplib.SMTP("127.0.0.1", mta.port, timeout=10) as smtp:
                smtp.send_message(msg, mail_options=["SMTPUTF8"] if not sender.isascii() else [])
        try:
            relay.wait_for(2, timeout=60)
        except AssertionError:
            raise AssertionError(mta.log()) from None

    try:
        mta.start()
        run_server(config, scenario)
    finally:
        mta.stop()
        shutil.rmtree(mta.root, ignore_errors=True)
    got = {c.rcpt_tos[0]: c for c in relay.messages}
    assert set(got) == {"ann@players.test", "jürgen@players.test"}
    for captured in got.values():
        assert "SIGNON" in captured.message.get_content()
        assert captured.mail_from == "judge@judge.test"
    assert str(got["ann@players.test"].message["In-Reply-To"]) == "<pf1@players.test>"
    assert "SMTPUTF8" in (got["jürgen@players.test"].mail_options or [])
