"""Reply to play: every mail of a game to one of its members carries a Reply-To of their own
(an HMAC with the judge's secret), a reply to it is that member's signed-on mail, and it stops
working when the password changes or the master turns it off; the judge's tagged address is
its own (no loops)."""

from __future__ import annotations

from email.message import Message
from itertools import count
from pathlib import Path

import pytest
from sqlalchemy import select
from test_game_helpers import Judge, password_of, start_standard

from judge.commands import handle_mail
from judge.config import Config, load_config
from judge.mail.loops import refusal_reason
from judge.mail.reader import IncomingMail
from judge.store.games import Player
from judge.store.mail import OutboxMessage
from judge.store.passwords import hash_password

GM = "gm@example.org"
FRANCE = "p2@example.org"
_ids = count(1)


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    j = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(j)
    return j


def _reply_to(judge: Judge, address: str) -> str:
    """The Reply-To of the last mail queued to ``address``."""
    with judge.factory() as s:
        row = s.scalars(select(OutboxMessage).where(OutboxMessage.to_addr == address)
                        .order_by(OutboxMessage.id.desc()).limit(1)).one()
        return row.headers.get("Reply-To", "")


def _send(judge: Judge, sender: str, to: str, text: str, *, header_only: bool = False) -> list[OutboxMessage]:
    """A mail to ``to`` (in the envelope, or only in its To header)."""
    headers = Message()
    headers["To"] = to
    mail = IncomingMail(f"<r{next(_ids)}@test>", sender, "", "Re: results", text, headers, text.encode(),
                        recipients=() if header_only else (to,))
    with judge.factory() as s, s.begin():
        last = s.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id.desc()).limit(1)) or 0
        handle_mail(s, judge.config, mail, judge.now)
    return judge.since(last)


def _reply(rows: list[OutboxMessage]) -> OutboxMessage:
    return next(r for r in rows if r.kind == "reply")


def test_every_member_gets_a_reply_address_of_their_own(judge: Judge) -> None:
    rows = judge.mail(GM, "signon mdt gmpw\nbroadcast\nWelcome.\nendpress")
    press = [r for r in rows if r.kind == "press"]
    addresses = {r.to_addr: r.headers.get("Reply-To") for r in press}
    assert len(addresses) == 8 and len(set(addresses.values())) == 8
    for to, reply in addresses.items():
        assert reply is not None and reply.startswith("judge+") and reply.endswith("@example.org"), (to, reply)
        assert len(reply.split("@")[0]) <= 64
    assert _reply(rows).headers["Reply-To"] == addresses[GM]
    stranger = judge.reply("someone@example.org", "list dt")
    assert "Reply-To" not in stranger.headers


def test_a_reply_plays_without_signon(judge: Judge) -> None:
    judge.mail(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}\nA par - bur")
    address = _reply_to(judge, FRANCE)
    rows = _send(judge, FRANCE, address, "A mar - spa\nF bre - mao\nset wait")
    reply = _reply(rows)
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Signed on as France in game 'dt' by your reply address" in reply.body
    assert "France: Army Paris -> Burgundy." in reply.body and "France: Army Marseilles -> Spain." in reply.body
    assert reply.headers["Reply-To"] == address
    france = next(p for p in judge.game("dt").players if p.power == "France")
    assert france.wait is True
    # in the To header only (a relay that rewrote the envelope): the same
    rows = _send(judge, FRANCE, address, "set nowait", header_only=True)
    assert "Signed on as France" in _reply(rows).body


def test_a_mail_with_its_own_signon_is_read_as_written(judge: Judge) -> None:
    judge.mail(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}")
    address = _reply_to(judge, FRANCE)
    rows = _send(judge, FRANCE, address, "signon Mdt wrong\nlist dt")
    reply = _reply(rows)
    assert "Signed on as" not in reply.body
    assert "Invalid password or power ID specified." in reply.body


def test_only_from_the_members_own_address(judge: Judge) -> None:
    judge.mail(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}")
    address = _reply_to(judge, FRANCE)
    rows = _send(judge, "friend@example.org", address, "A par - bur")
    reply = _reply(rows)
    assert "[Error Flag]" in reply.subject and "belongs to a member of game 'dt'" in reply.body
    assert "Army Paris -> Burgundy" not in reply.body
    assert not any(p.power == "France" for p in judge.game("dt").players if p.email == "friend@example.org")


@pytest.mark.parametrize("tag", ["4-aaaaaaaaaaaaaaaaaaaa", "999-aaaaaaaaaaaaaaaaaaaa", "x-y", "4", "4-",
                                 "99999999999999999999-aaaa", "4-\u00e9t\u00e9"])
def test_a_made_up_address_signs_nobody_on(judge: Judge, tag: str) -> None:
    rows = _send(judge, FRANCE, f"judge+{tag}@example.org", "A par - bur")
    reply = _reply(rows)
    assert "[Error Flag]" in reply.subject and "no longer signs anybody on" in reply.body


def test_a_new_password_makes_a_new_address(judge: Judge) -> None:
    judge.mail(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}")
    old = _reply_to(judge, FRANCE)
    with judge.factory() as s, s.begin():  # what SET PASSWORD stores
        player = s.scalars(select(Player).where(Player.email == FRANCE, Player.power == "France")).one()
        player.password_hash = hash_password("newpw")
    assert "no longer signs anybody on" in _reply(_send(judge, FRANCE, old, "A par - bur")).body
    judge.mail(FRANCE, "signon Fdt newpw")
    new = _reply_to(judge, FRANCE)
    assert new != old
    assert "Signed on as France" in _reply(_send(judge, FRANCE, new, "A par - bur")).body


def test_the_master_turns_it_off(judge: Judge) -> None:
    judge.mail(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}")
    old = _reply_to(judge, FRANCE)
    rows = judge.mail(GM, "signon mdt gmpw\nset no reply to play")
    notices = [r for r in rows if r.kind == "notice"]
    assert len(notices) == 8 and "Reply to play is now off in game 'dt'" in notices[0].body
    assert all("Reply-To" not in r.headers for r in rows)
    assert "no longer signs anybody on" in _reply(_send(judge, FRANCE, old, "A par - bur")).body
    assert not judge.game("dt").reply_play
    reply = judge.reply(FRANCE, f"signon Fdt {password_of(judge, 'dt', 'France')}\nset reply to play")
    assert "Only the master" in reply.body
    rows = judge.mail(GM, "signon mdt gmpw\nset noreply to play\nset reply to play")
    assert judge.game("dt").reply_play
    assert _reply_to(judge, FRANCE) == old  # the same password: the same address again


def test_the_key_is_kept_in_the_database_and_never_shown(tmp_path: Path) -> None:
    """Issue 27, item 2: the key lives in the database (a restored backup keeps the reply
    addresses); an older judge's ``<data_dir>/secret`` seeds it, and is taken by the migration."""
    from judge.store.base import make_engine, make_sessionmaker
    from judge.store.keys import reply_key
    from judge.store.migrate import upgrade

    fresh = make_sessionmaker(make_engine(f"sqlite:///{tmp_path / 'fresh.db'}"))
    upgrade(f"sqlite:///{tmp_path / 'fresh.db'}")
    config = Config(data_dir=tmp_path / "none")
    with fresh() as s, s.begin():
        made = reply_key(s, config.secret)
    with fresh() as s:
        assert reply_key(s, config.secret) == made and len(made) >= 64
    assert not (tmp_path / "none").exists(), "no file is made: the database holds the key"
    with fresh() as s:
        assert reply_key(s, "", lambda: "a seed") == made, "a stored key is never replaced"

    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "secret").write_text("an older judges key\n")
    upgrade(f"sqlite:///{tmp_path / 'old.db'}", data_dir=tmp_path / "old")
    (tmp_path / "old" / "secret").unlink()
    with make_sessionmaker(make_engine(f"sqlite:///{tmp_path / 'old.db'}"))() as s:
        assert reply_key(s) == b"an older judges key"

    (tmp_path / "judge.toml").write_text('[judge]\nsecret = "s3cr3t-value"\n')
    configured = load_config(tmp_path / "judge.toml")
    with fresh() as s:
        assert reply_key(s, configured.secret) == b"s3cr3t-value"
    assert "s3cr3t" not in repr(configured)


def test_the_tagged_address_is_the_judges_own() -> None:
    config = Config(address="judge@example.org")
    assert config.is_own("judge@example.org") and config.is_own("Judge+4-abc@Example.org")
    assert not config.is_own("judgement@example.org") and not config.is_own("judge+4@other.org")
    looped = Message()
    looped["X-Loop"] = "judge+4-abc@example.org"
    mail = IncomingMail("<x@y>", "p@example.org", "", "s", "t", looped, b"")
    assert refusal_reason(mail, "p@example.org", config) == "X-Loop: judge@example.org (the judge's own mail came back)"
    own = IncomingMail("<x@y>", "judge+4-abc@example.org", "", "s", "t", Message(), b"")
    assert refusal_reason(own, "judge+4-abc@example.org", config) == "mail from the judge's own address"
