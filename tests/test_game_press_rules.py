"""njudge's other press settings by mail (data/press, data/index): fake press, postal press,
the observers' press, MUST ORDER, MINOR/LATE/GRACE/BLANK PRESS, NORMAL PRESS, and gunboat
games; the master always sees the truth."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from test_game_helpers import HOLDS, Judge, signon_of, start_standard

from judge.game.press_rules import MAY_FAKE, OBSERVER_WHITE
from judge.store.games import Game, find_game
from judge.store.held import PostalPress
from judge.store.mail import OutboxMessage, archive_for

GM = "gm@example.org"
OBSERVER = "obs@example.org"
EVERYONE = 8


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    j = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(j)
    return j


def _address(power: str) -> str:
    return f"p{'AEFGIRT'.index(power[0])}@example.org"


def _mail(judge: Judge, power: str, text: str) -> list[OutboxMessage]:
    address, signon = signon_of(judge, power)
    return judge.mail(address, signon + text)


def _press(judge: Judge, power: str, head: str, text: str = "Meet me in Burgundy.") -> list[OutboxMessage]:
    return _mail(judge, power, f"{head}\n{text}\nendpress")


def _master(judge: Judge, text: str) -> OutboxMessage:
    reply = judge.reply(GM, f"signon mdt gmpw\n{text}")
    assert "[Error Flag]" not in reply.subject, reply.body
    return reply


def _reply(rows: list[OutboxMessage]) -> OutboxMessage:
    return next(r for r in rows if r.kind == "reply")


def _sent(rows: list[OutboxMessage]) -> list[OutboxMessage]:
    return [r for r in rows if r.kind in ("press", "partial")]


def _to(rows: list[OutboxMessage], address: str) -> OutboxMessage:
    found = [r for r in rows if r.to_addr == address]
    assert len(found) == 1, [(r.to_addr, r.subject) for r in rows]
    return found[0]


def _refused(rows: list[OutboxMessage], words: str) -> None:
    assert _sent(rows) == []
    reply = _reply(rows)
    assert "[Error Flag]" in reply.subject and words in reply.body, reply.body


def _all_hold(judge: Judge, skip: tuple[str, ...] = ()) -> list[OutboxMessage]:
    rows: list[OutboxMessage] = []
    for power, orders in HOLDS.items():
        if power not in skip:
            rows.extend(_mail(judge, power, orders))
    return rows


# -- fake press -----------------------------------------------------------------------------------


def test_fake_press_needs_the_game_to_allow_it(judge: Judge) -> None:
    _refused(_press(judge, "Italy", "press to r fake broadcast"), "allows no fake press (No Fake)")
    reply = _master(judge, "set partial may be faked")
    assert "now: White, Partial Allowed, Partial may be Faked." in reply.body
    assert judge.game("dt").fake_press == MAY_FAKE
    _refused(_press(judge, "Italy", "press to m fake"), "Press to the master alone is never faked")


def test_press_to_some_shown_as_a_broadcast_and_the_master_sees_the_truth(judge: Judge) -> None:
    _master(judge, "set grey, fake")
    rows = _press(judge, "Italy", "press to all but go fake broadcast", "This is Germany. You are all wimps.")
    sent = _sent(rows)
    readers = [_address(p) for p in ("Austria", "England", "France", "Italy", "Russia", "Turkey")]
    assert sorted(r.to_addr for r in sent) == sorted([*readers, GM])
    assert all(r.kind == "partial" for r in sent)
    for address in readers:
        mail = _to(sent, address)
        assert mail.subject == "TEST:dt - S1901M Broadcast"
        assert "Broadcast message in 'dt':" in mail.body and "Italy" not in mail.body and "p4@" not in mail.body
    truth = _to(sent, GM)
    assert truth.subject == "TEST:dt - S1901M Press from I"
    assert ("Message from p4@example.org as Italy in 'dt' to Austria, England, France, Italy, Russia, Turkey, "
            "Master:") in truth.body
    assert "readers got it headed \"Broadcast message in 'dt':\"" in truth.body
    reply = _reply(rows).body
    assert "It was faked: its readers were shown a broadcast to everyone." in reply
    assert "sent as grey press" in reply
    assert archive_for_press(judge) == []  # not a real broadcast: not in the history


def archive_for_press(judge: Judge) -> list[str]:
    with judge.factory() as s:
        return [r.body for r in archive_for(s, "dt", "press")]


def test_a_broadcast_shown_as_sent_to_some(judge: Judge) -> None:
    _master(judge, "set fake")
    rows = _press(judge, "Austria", "press fake to frg", "Only you three know this.")
    sent = _sent(rows)
    assert len(sent) == EVERYONE and all(r.kind == "press" for r in sent)
    shown = _to(sent, _address("England"))
    assert "Message from p0@example.org as Austria in 'dt' to France, Germany, Russia:" in shown.body
    assert shown.subject == "TEST:dt - S1901M Press from A"
    truth = _to(sent, GM)
    assert "Broadcast message from p0@example.org as Austria in 'dt':" in truth.body
    assert "It was faked: its readers were shown a message to France, Germany, Russia." in _reply(rows).body
    history = archive_for_press(judge)
    assert len(history) == 1 and "to France, Germany, Russia:" in history[0]  # what everyone read


def test_partial_fakes_broadcast_by_default_and_always(judge: Judge) -> None:
    _master(judge, "set partial fakes broadcast by default")
    shown = _sent(_press(judge, "France", "press to e"))
    assert "Broadcast message from p2@example.org as France in 'dt':" in _to(shown, _address("England")).body
    plain = _sent(_press(judge, "France", "press to e nofake"))
    assert "Message from p2@example.org as France in 'dt' to England:" in _to(plain, _address("England")).body
    to_master = _sent(_press(judge, "France", "press to m"))
    assert [r.to_addr for r in to_master] == [GM] and "to Master:" in to_master[0].body
    _master(judge, "set partial fakes broadcast")
    _refused(_press(judge, "France", "press to e nofake"), "all press is shown as a broadcast")
    _refused(_press(judge, "France", "press fake to e"), "all press is shown as a broadcast")
    shown = _sent(_press(judge, "France", "press to e"))
    assert "Broadcast message from p2@example.org" in _to(shown, _address("England")).body


# -- postal press ---------------------------------------------------------------------------------


def test_postal_press_waits_for_the_results(judge: Judge) -> None:
    _refused(_mail(judge, "France", "postal press\nHeld back.\nendpress"), "allows no postal press")
    _master(judge, "set postal press")
    rows = _mail(judge, "France", "postal press\nLong live the Republic.\nendpress")
    assert [r.kind for r in rows] == ["reply"]
    assert "Postal press message kept for the results of the Movement for Spring of 1901" in rows[0].body
    _refused(_mail(judge, "France", "postal press to e\nNo.\nendpress"), "POSTAL PRESS takes no options")
    judge.mail(GM, "signon mdt gmpw\npostal press\nFrom the master.\nendpress")
    rows = _all_hold(judge)
    results = [r for r in rows if r.kind == "result"]
    postal = [r for r in rows if r.subject == "TEST:dt - S1901M Postal Press"]
    assert len(results) == EVERYONE and len(postal) == EVERYONE
    assert rows.index(postal[0]) > rows.index(results[-1])
    body = postal[0].body
    assert "Postal press message from p2@example.org as France in 'dt':" in body
    assert "Long live the Republic." in body and "From the master." in body
    assert body.index("Long live") < body.index("From the master.")
    assert len(archive_for_press(judge)) == 1
    with judge.factory() as s:
        assert all(p.delivered for p in s.scalars(select(PostalPress)))
    more = _all_hold(judge)  # the next phase has none: nothing more is sent
    assert not [r for r in more if "Postal Press" in r.subject]


def test_postal_press_in_a_game_without_other_press(judge: Judge) -> None:
    _master(judge, "set no press, postal press")
    _refused(_press(judge, "France", "broadcast"), "allows no press between players")
    rows = _mail(judge, "France", "postal press\nStill here.\nendpress")
    assert "[Error Flag]" not in _reply(rows).subject


# -- who may press, and when ----------------------------------------------------------------------


def test_observer_press_settings(judge: Judge) -> None:
    judge.observe(OBSERVER, "dt", "obspw")

    def observer(head: str) -> list[OutboxMessage]:
        return judge.mail(OBSERVER, f"signon odt obspw\n{head}\nWatching.\nendpress")

    _master(judge, "set observer no press")
    _refused(observer("broadcast"), "may send press to the master only")
    assert [r.to_addr for r in _sent(observer("press to m"))] == [GM]
    _master(judge, "set observer white, grey")
    assert judge.game("dt").observer_press == OBSERVER_WHITE
    _refused(observer("broadcast grey"), "may send white press only")
    sent = _sent(observer("broadcast"))
    assert "Broadcast message from obs@example.org as Observer in 'dt':" in sent[0].body
    _master(judge, "set white, no partial, observer partial")
    _refused(_press(judge, "France", "press to g"), "No Partial")
    assert sorted(r.to_addr for r in _sent(observer("press to g"))) == sorted([GM, _address("Germany")])


def test_must_order(judge: Judge) -> None:
    _master(judge, "set must order")
    _refused(_press(judge, "France", "broadcast"), "Must Order")
    assert [r.to_addr for r in _sent(_press(judge, "France", "press to m"))] == [GM]
    _mail(judge, "France", "A par h\nA mar h")
    _refused(_press(judge, "France", "broadcast"), "Must Order")
    _mail(judge, "France", "F bre h")
    assert len(_sent(_press(judge, "France", "broadcast"))) == EVERYONE
    _master(judge, "set no must order")
    assert len(_sent(_press(judge, "Italy", "broadcast"))) == EVERYONE


def test_no_late_press_and_no_grace_press(judge: Judge) -> None:
    _master(judge, "set no late press")
    _all_hold(judge, skip=("France",))
    assert len(_sent(_press(judge, "France", "broadcast"))) == EVERYONE  # not late before the deadline
    judge.tick("dt", 90)  # past the deadline, in grace
    assert judge.game("dt").phase == "S1901M"
    _refused(_press(judge, "France", "broadcast"), "No Late Press")
    assert len(_sent(_press(judge, "Italy", "broadcast"))) == EVERYONE
    _master(judge, "set late press, no grace press")
    _refused(_press(judge, "Italy", "broadcast"), "No Grace Press")
    assert [r.to_addr for r in _sent(_press(judge, "Italy", "press to m"))] == [GM]
    rows = judge.mail(GM, "signon mdt gmpw\nbroadcast\nHurry up, France.\nendpress")
    assert len(_sent(rows)) == EVERYONE


def test_minor_press_is_set_before_the_start(tmp_path: Path) -> None:
    judge = Judge(f"sqlite:///{tmp_path / 'minor.db'}")
    judge.mail(GM, "create ?dt gmpw standard")
    _master(judge, "set no minor press")
    for i, letter in enumerate("AEFGIRT"):
        judge.mail(f"p{i}@example.org", f"signon ?dt pw{i}\nset preference {letter}")
    assert len(_sent(_press(judge, "France", "broadcast"))) == EVERYONE  # a movement phase
    reply = judge.reply(GM, "signon mdt gmpw\nset minor press")
    assert "[Error Flag]" in reply.subject and "MINOR PRESS can be set only before the start" in reply.body
    with judge.factory() as s, s.begin():
        game = find_game(s, "dt")
        assert game is not None
        game.phase = "F1901B"  # as if the game were in its adjustment phase
        game.position = {**game.position, "phase": "F1901B"} if game.position else None
    _refused(_press(judge, "France", "broadcast"), "No Minor Press")
    assert [r.to_addr for r in _sent(_press(judge, "France", "press to m"))] == [GM]


def test_blank_press_and_normal_press(judge: Judge) -> None:
    _refused(_mail(judge, "France", "broadcast\nendpress"), "The press message is empty")
    _master(judge, "set blank press, normal press")
    assert len(_sent(_mail(judge, "France", "broadcast\nendpress"))) == EVERYONE
    rows = _press(judge, "France", "press to e")
    assert [r.to_addr for r in _sent(rows)] == [_address("England")]
    assert "with a copy to the Master" not in _reply(rows).body
    assert "Normal Press" in judge.reply("someone@example.org", "list dt").body


# -- gunboat games --------------------------------------------------------------------------------


def _gunboat(judge: Judge) -> None:
    with judge.factory() as s, s.begin():
        game = s.scalars(select(Game).where(Game.name == "dt")).one()
        game.gunboat = True


def test_gunboat_press_shows_no_address_and_the_master_sees_it(judge: Judge) -> None:
    _gunboat(judge)
    rows = _press(judge, "France", "press to e")
    to_england = _to(_sent(rows), _address("England"))
    assert "Message from France in 'dt' to England:" in to_england.body and "p2@" not in to_england.body
    assert to_england.subject == "TEST:dt - S1901M Press from F"
    assert "Message from p2@example.org as France in 'dt' to England:" in _to(_sent(rows), GM).body
    assert "the readers are told your power, not your address" in _reply(rows).body
    broadcast = _sent(judge.mail(GM, "signon mdt gmpw\nbroadcast\nWelcome.\nendpress"))
    assert all("from gm@example.org as Master" in r.body for r in broadcast)
    _master(judge, "set postal press")
    _mail(judge, "France", "postal press\nVive la France.\nendpress")
    postal = [r for r in _all_hold(judge) if "Postal Press" in r.subject]
    assert "Postal press message from France in 'dt':" in postal[0].body and "p2@" not in postal[0].body
