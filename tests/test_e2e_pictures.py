"""Map pictures by mail over real SMTP (issue 9, item 3): every result mail carries the PNG of
the new position with the phase's orders beside the unchanged text; SET NOPICTURES for a
reader or, by the master, for the game; GET MAP for any phase; the archive link."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
import test_e2e_harness as harness
from conftest import Captured, CaptureSMTP
from test_e2e_harness import LiveJudge, Mail, running_judge, start_game

live = harness.live
GM = "gm@players.test"
EVERYONE = 8
HOLDS = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "France": "A par - bur\nA mar h\nF bre - mao", "Germany": "A mun h\nA ber h\nF kie h",
    "Italy": "A ven h\nA rom h\nF nap h", "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h",
    "Turkey": "F ank h\nA con h\nA smy h",
}
PNG = b"\x89PNG\r\n\x1a\n"


def _play_spring(live: LiveJudge, game: str, powers: dict[str, str], *, before: int = 0) -> list[Captured]:
    """Every power orders; the results (one per reader) are returned as the relay got them."""
    for power, orders in list(HOLDS.items())[:-1]:
        live.reply(powers[power], f"signon {power[0]}{game} pw\n{orders}")
    live.mail(powers["Turkey"], f"signon T{game} pw\n{HOLDS['Turkey']}", expect=1 + EVERYONE)
    return [c for c in live.relay.messages if str(c.message["Subject"]) == f"E2E:{game} - S1901M Results"]


def _png(message: EmailMessage) -> bytes | None:
    for part in message.iter_attachments():
        if part.get_content_type() == "image/png":
            data = part.get_content()
            assert isinstance(data, bytes)
            return data
    return None


def _text(message: EmailMessage) -> EmailMessage:
    body = message.get_body(preferencelist=("plain",))
    assert isinstance(body, EmailMessage)
    return body


@pytest.fixture
def drawing(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    """A judge that makes its pictures in picture processes (judge/picture_process.py), as
    a judge on two cores or more does by default."""
    yield from running_judge(database_url, tmp_path, picture_processes=2, pictures=True)


def test_result_mails_carry_the_picture_beside_the_unchanged_text(drawing: LiveJudge) -> None:
    live = drawing
    powers = start_game(live, "pic")
    reply = live.reply(powers["Italy"], "signon Ipic pw\nset nopictures")
    assert "Your result mails of game 'pic' no longer carry the picture of the map." in reply.body
    results = _play_spring(live, "pic", powers)
    assert len(results) == EVERYONE
    with_picture = [c for c in results if _png(c.message) is not None]
    without = [c for c in results if _png(c.message) is None]
    assert [c.rcpt_tos for c in without] == [[powers["Italy"]]]
    assert len(with_picture) == EVERYONE - 1
    sample = with_picture[0].message
    picture = _png(sample)
    assert picture is not None and picture.startswith(PNG) and len(picture) > 20_000
    attachment = next(sample.iter_attachments())
    assert attachment.get_filename() == "pic-S1901M.png"
    text = _text(sample)
    assert str(text["Content-Transfer-Encoding"]) in ("7bit", "8bit"), "never quoted-printable"
    assert text.get_content() == _text(without[0].message).get_content(), "the text is the same with or without"
    assert "France: Army Paris -> Burgundy." in text.get_content()


def test_the_master_turns_pictures_off_for_the_game(live: LiveJudge) -> None:
    powers = start_game(live, "off")
    mails = live.mail(GM, "signon Moff gmpw\nset nopictures", expect=1 + EVERYONE)
    told = [m for m in mails if m.subject == "E2E:off - S1901M Settings Changed"]
    assert len(told) == EVERYONE and "no longer carry the picture of the map for anyone" in told[0].body
    results = _play_spring(live, "off", powers)
    assert len(results) == EVERYONE and all(_png(c.message) is None for c in results)


def test_get_map_mails_the_picture_of_any_phase(live: LiveJudge) -> None:
    powers = start_game(live, "gm")
    now = _map_reply(live, "someone@players.test", "get map gm")
    assert _png(now) is not None and next(now.iter_attachments()).get_filename() == "gm-S1901M.png"
    _play_spring(live, "gm", powers)
    past = _map_reply(live, "someone@players.test", "get map gm spring 1901 movement")
    current = _map_reply(live, "someone@players.test", "get map gm")
    assert next(past.iter_attachments()).get_filename() == "gm-S1901M.png"
    assert next(current.iter_attachments()).get_filename() == "gm-F1901M.png"
    assert _png(past) != _png(now), "the played phase is drawn with its orders"
    bad = live.reply("someone@players.test", "get map gm F1905M")
    assert bad.subject.endswith("[Error Flag]") and "has not played the phase F1905M" in bad.body
    assert "no game called" in live.reply("someone@players.test", "get map nosuch").body


def _map_reply(live: LiveJudge, sender: str, text: str) -> EmailMessage:
    live.send(sender, text)
    (got,) = live.relay.wait_for(live._seen + 1)[live._seen:live._seen + 1]
    live._seen += 1
    assert Mail.of(got).subject.startswith("Re: E2E:")
    return got.message


@pytest.fixture
def linked(database_url: str, tmp_path: Path) -> Iterator[LiveJudge]:
    relay = CaptureSMTP().start()
    judge = LiveJudge(database_url, relay, tmp_path, pictures=True, web_enabled=True, web_base_url="https://judge.example.org")
    try:
        yield judge
    finally:
        judge.stop()
        relay.stop()


def test_result_mails_link_the_phase_page_when_the_archive_is_on(linked: LiveJudge) -> None:
    powers = start_game(linked, "lnk")
    results = _play_spring(linked, "lnk", powers)
    text = _text(results[0].message).get_content()
    assert text.rstrip().endswith("The map and the archive of this phase: https://judge.example.org/games/lnk/S1901M")


def test_the_picture_is_made_after_the_phase_commits(tmp_path: Path) -> None:
    """Processing a phase queues its result mails with the picture's SVG, held; the PNG is
    made outside that transaction (the game's lock is not held for it), once, and the mails
    then go."""
    from sqlalchemy import select
    from test_game_helpers import Judge, start_standard

    from judge.game.pictures import make_waiting
    from judge.store.mail import Attachment, OutboxMessage

    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(judge)
    judge.mail("gm@example.org", "signon Mdt gmpw\nprocess")
    with judge.factory() as s:
        results = list(s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "result")))
        (picture,) = s.scalars(select(Attachment)).all()
    assert len(results) == EVERYONE and {r.status for r in results} == {"held"}
    assert not picture.ready and picture.source and picture.source.lstrip().startswith("<svg")
    assert make_waiting(judge.factory) == 1
    assert make_waiting(judge.factory) == 0, "made once"
    with judge.factory() as s:
        assert {r.status for r in s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "result"))} == {"pending"}
        made = s.scalars(select(Attachment)).one()
        assert made.ready and made.data.startswith(PNG) and made.source is None
