"""Press settings and press by mail: white, grey, partial, no press; and LIST's press line
and missed-deadline counts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_game_helpers import Judge, password_of, start_standard

from judge.game.press_rules import (
    FAKE_ALWAYS,
    FAKE_BY_DEFAULT,
    GREY,
    GREY_WHITE,
    MAY_FAKE,
    NONE,
    OBSERVER_NONE,
    OBSERVER_PARTIAL,
    OBSERVER_WHITE,
    WHITE,
    WHITE_GREY,
    Addressees,
    PressRequest,
    PressRules,
    PressSettingError,
    apply_settings,
    describe,
    read_options,
)
from judge.store.mail import OutboxMessage

GM = "gm@example.org"
EVERYONE = 8


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    j = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(j)
    return j


def _as(judge: Judge, power: str) -> tuple[str, str]:
    """(address, signon line) of a power's player."""
    letter = power[0]
    address = f"p{'AEFGIRT'.index(letter)}@example.org"
    return address, f"signon {letter}dt {password_of(judge, 'dt', power)}\n"


def _press(judge: Judge, power: str, head: str, text: str = "Meet me in Burgundy.") -> list[OutboxMessage]:
    address, signon = _as(judge, power)
    return judge.mail(address, f"{signon}{head}\n{text}\nendpress")


def _master(judge: Judge, text: str) -> OutboxMessage:
    return judge.reply(GM, f"signon mdt gmpw\n{text}")


def _reply(rows: list[OutboxMessage]) -> OutboxMessage:
    return next(r for r in rows if r.kind == "reply")


def _press_rows(rows: list[OutboxMessage]) -> list[OutboxMessage]:
    return [r for r in rows if r.kind in ("press", "partial")]


# -- reading settings and options -------------------------------------------------------------


@pytest.mark.parametrize(("text", "before", "after"), [
    ("WHITE", (GREY, False), (WHITE, False)),
    ("GREY", (WHITE, True), (GREY, True)),
    ("GRAY PRESS", (GREY_WHITE, True), (GREY, True)),
    ("WHITE/GREY", (WHITE, True), (WHITE_GREY, True)),
    ("NO WHITE", (WHITE_GREY, True), (GREY, True)),
    ("NO GREY", (GREY_WHITE, True), (WHITE, True)),
    ("GREY/WHITE", (WHITE, True), (GREY_WHITE, True)),
    ("DEFAULT GREY", (WHITE, True), (GREY_WHITE, True)),
    ("DEFAULT WHITE", (GREY, True), (WHITE_GREY, True)),
    ("NO PRESS", (WHITE, True), (NONE, True)),
    ("PRESS NONE", (WHITE, True), (NONE, True)),
    ("NO PARTIAL", (WHITE, True), (WHITE, False)),
    ("PARTIAL PRESS", (WHITE, False), (WHITE, True)),
    ("GREY, NO WHITE, NO PARTIAL", (WHITE, True), (GREY, False)),
])
def test_settings_follow_njudge_words(text: str, before: tuple[str, bool], after: tuple[str, bool]) -> None:
    rules = apply_settings(text, PressRules(*before))
    assert (rules.kind, rules.partial) == after


@pytest.mark.parametrize(("text", "field", "value"), [
    ("FAKE", "fake", MAY_FAKE), ("PARTIAL MAY BE FAKED", "fake", MAY_FAKE), ("PARTIAL MAY", "fake", MAY_FAKE),
    ("PARTIAL FAKES BROADCAST BY DEFAULT", "fake", FAKE_BY_DEFAULT), ("PARTIAL FAKES BY DEFAULT", "fake", FAKE_BY_DEFAULT),
    ("PARTIAL FAKES BROADCAST", "fake", FAKE_ALWAYS), ("POSTAL PRESS", "postal", True),
    ("OBSERVER WHITE PRESS", "observer", OBSERVER_WHITE), ("OBSERVERS NO PRESS", "observer", OBSERVER_NONE),
    ("OBSERVER PARTIAL", "observer", OBSERVER_PARTIAL), ("MUST ORDER", "must_order", True),
    ("NO MINOR PRESS", "minor", False), ("NO LATE PRESS", "late", False), ("NOGRACE PRESS", "grace", False),
    ("BLANK PRESS", "blank", True), ("NORMAL PRESS", "all_press", False),
])
def test_the_other_njudge_press_settings(text: str, field: str, value: object) -> None:
    assert getattr(apply_settings(text, PressRules()), field) == value
    assert apply_settings(text, PressRules()) == replace(PressRules(), **{field: value})


def test_settings_undo_each_other() -> None:
    rules = apply_settings("FAKE, POSTAL, OBSERVER NO, MUST ORDER, NO LATE PRESS, NORMAL PRESS", PressRules())
    assert apply_settings("NO FAKE BROADCAST, NO POSTAL PRESS, OBSERVER ANY, NO MUST ORDER, LATE PRESS, ALL PRESS",
                          rules) == PressRules()


def test_unsupported_settings_are_refused() -> None:
    for text in ("PARTIAL NONSENSE", "", "WHITE, TOUCH", "OBSERVER GREY"):
        with pytest.raises(PressSettingError):
            apply_settings(text, PressRules())


def test_press_options() -> None:
    assert read_options([]) == PressRequest()
    assert read_options(["to", "ALL"]) == PressRequest()
    assert read_options(["grey", "to", "fg"]) == PressRequest(True, "FG")
    assert read_options(["TO", "ALL", "BUT", "g"]) == PressRequest(None, "G", True)
    assert read_options(["-go", "white"]) == PressRequest(False, "GO", True)
    assert read_options(["+R"]) == PressRequest(None, "R")
    assert read_options(["anonymously"]).grey is True
    for bad in (["to"], ["to", "f", "to", "g"], ["turkey"], ["to", "all", "but"], ["fake", "partial"],
                ["fake", "fake"], ["to", "f", "fake", "nofake"]):
        with pytest.raises(PressSettingError):
            read_options(bad)


@pytest.mark.parametrize(("words", "readers", "fake"), [
    ("fake to frg", Addressees(), Addressees("FRG")),
    ("to frg fake", Addressees("FRG"), Addressees()),
    ("fake broadcast to frg", Addressees("FRG"), Addressees()),
    ("to all but g fake broadcast", Addressees("G", True), Addressees()),
    ("to a fake to at", Addressees("A"), Addressees("AT")),
    ("fake partial to all but r", Addressees(), Addressees("R", True)),
    ("+e fake -e", Addressees("E"), Addressees("E", True)),
])
def test_fake_options_name_the_real_readers_first(words: str, readers: Addressees, fake: Addressees) -> None:
    request = read_options(words.split())
    assert (request.readers, request.fake) == (readers, fake)
    assert read_options(["to", "r", "nofake", "broadcast"]) == PressRequest(None, "R", no_fake=True)


def test_describe_is_the_list_line() -> None:
    assert describe(PressRules()) == "White, Partial Allowed, No Fake"
    assert describe(PressRules(GREY_WHITE, False)) == "Grey/White, No Partial, No Fake"
    assert describe(PressRules(NONE)).startswith("None")
    assert describe(PressRules(fake=FAKE_BY_DEFAULT, postal=True, observer=OBSERVER_WHITE, must_order=True)) == (
        "White, Partial Allowed, Partial Fakes Broadcast by default, Postal Press, Observer White, Must Order")


# -- press by mail ----------------------------------------------------------------------------


def test_white_press_is_the_default_and_partial_reaches_the_named_and_the_master(judge: Judge) -> None:
    rows = _press(judge, "France", "press to eg")
    sent = _press_rows(rows)
    assert sorted(r.to_addr for r in sent) == ["gm@example.org", "p1@example.org", "p3@example.org"]
    assert all(r.kind == "partial" and r.subject == "TEST:dt - S1901M Press from F" for r in sent)
    assert "Message from p2@example.org as France in 'dt' to England, Germany:" in sent[0].body
    reply = _reply(rows).body
    assert "Message sent:" in reply and "It went to England and Germany, with a copy to the Master." in reply


def test_press_to_all_but_and_to_the_observers(judge: Judge) -> None:
    judge.observe("obs@example.org", "dt", "obspw")
    rows = _press(judge, "France", "press to all but gom")
    assert sorted(r.to_addr for r in _press_rows(rows)) == [
        "gm@example.org", "p0@example.org", "p1@example.org", "p2@example.org", "p4@example.org",
        "p5@example.org", "p6@example.org"]
    rows = _press(judge, "France", "press to o")
    assert sorted(r.to_addr for r in _press_rows(rows)) == ["gm@example.org", "obs@example.org"]
    assert "It went to Observers, with a copy to the Master." in _reply(rows).body


def test_grey_press_only_when_the_master_allows_it(judge: Judge) -> None:
    rows = _press(judge, "France", "press grey to g")
    assert _press_rows(rows) == []
    assert "allows white press only" in _reply(rows).body and "[Error Flag]" in _reply(rows).subject
    reply = _master(judge, "set white/grey")
    assert "The press settings of game 'dt' are now: White/Grey, Partial Allowed, No Fake." in reply.body
    rows = _press(judge, "France", "press grey to g")
    sent = _press_rows(rows)
    assert sorted(r.to_addr for r in sent) == ["gm@example.org", "p3@example.org"]
    assert sent[0].subject == "TEST:dt - S1901M Press"
    assert "Message in 'dt' to Germany:" in sent[0].body
    assert "France" not in sent[0].body and "p2@" not in sent[0].body
    assert "sent as grey press" in _reply(rows).body
    white = _press_rows(_press(judge, "France", "broadcast"))
    assert len(white) == EVERYONE and "from p2@example.org as France" in white[0].body


def test_grey_broadcast_and_all_grey(judge: Judge) -> None:
    _master(judge, "set grey")
    sent = _press_rows(_press(judge, "Italy", "broadcast"))
    assert len(sent) == EVERYONE
    assert sent[0].subject == "TEST:dt - S1901M Broadcast"
    assert "Broadcast message in 'dt':" in sent[0].body and "Italy" not in sent[0].body
    rows = _press(judge, "Italy", "broadcast white")
    assert _press_rows(rows) == [] and "allows grey press only" in _reply(rows).body
    to_master = _press_rows(_press(judge, "Italy", "press to m"))
    assert [r.to_addr for r in to_master] == [GM] and "as Italy" in to_master[0].body


def test_no_press_leaves_the_master_and_press_to_the_master(judge: Judge) -> None:
    reply = _master(judge, "set no press")
    assert "now: None" in reply.body and "to the master only" in reply.body
    for head in ("broadcast", "press to g"):
        rows = _press(judge, "France", head)
        assert _press_rows(rows) == []
        assert "allows no press between players" in _reply(rows).body
    assert [r.to_addr for r in _press_rows(_press(judge, "France", "press to m"))] == [GM]
    rows = judge.mail(GM, "signon mdt gmpw\nbroadcast\nGame on hold for a day.\nendpress")
    assert len(_press_rows(rows)) == EVERYONE and "[Error Flag]" not in _reply(rows).subject
    _master(judge, "set white")
    assert len(_press_rows(_press(judge, "France", "broadcast"))) == EVERYONE


def test_no_partial(judge: Judge) -> None:
    _master(judge, "set no partial")
    rows = _press(judge, "France", "press to g")
    assert _press_rows(rows) == [] and "No Partial" in _reply(rows).body
    assert len(_press_rows(_press(judge, "France", "press to all"))) == EVERYONE
    assert [r.to_addr for r in _press_rows(_press(judge, "France", "press to m"))] == [GM]
    rows = judge.mail(GM, "signon mdt gmpw\npress to f\nA word.\nendpress")
    assert [r.to_addr for r in _press_rows(rows)] == ["p2@example.org"]
    _master(judge, "set partial")
    assert len(_press_rows(_press(judge, "France", "press to g"))) == 2


def test_settings_are_the_masters_and_everyone_is_told(judge: Judge) -> None:
    address, signon = _as(judge, "France")
    reply = judge.reply(address, f"{signon}set grey")
    assert "Only the master" in reply.body
    assert judge.game("dt").press == WHITE
    rows = judge.mail(GM, "signon mdt gmpw\nset grey/white, no partial")
    told = [r for r in rows if r.kind == "notice"]
    assert len(told) == EVERYONE and told[0].subject.endswith("Settings Changed")
    assert "Grey/White, No Partial, No Fake" in told[0].body
    game = judge.game("dt")
    assert (game.press, game.partial_press) == (GREY_WHITE, False)
    rows = judge.mail(GM, "signon mdt gmpw\nset grey/white press")
    assert [r.kind for r in rows] == ["reply"] and "stay: Grey/White" in rows[0].body
    reply = _master(judge, "set partial nonsense")
    assert "[Error Flag]" in reply.subject and "does not read the press setting" in reply.body


def test_settings_before_the_start_and_partial_press_while_forming(tmp_path: Path) -> None:
    judge = Judge(f"sqlite:///{tmp_path / 'forming.db'}")
    judge.mail(GM, "create ?new gmpw standard")
    reply = judge.reply(GM, "signon mnew gmpw\nset no partial\nset grey")
    assert "[Error Flag]" not in reply.subject
    assert (judge.game("new").press, judge.game("new").partial_press) == (GREY, False)
    judge.mail("p@example.org", "signon ?new pw")
    reply = judge.reply(GM, "signon mnew gmpw\npress to f\nhello\nendpress")
    assert "Press to some powers needs the powers assigned" in reply.body


def test_list_shows_press_and_missed_deadlines(judge: Judge) -> None:
    reply = judge.reply("someone@example.org", "list dt")
    assert "      Press:  White, Partial Allowed, No Fake" in reply.body
    assert "   France     move      0      0  p2@example.org" in reply.body
    assert "   Master                         gm@example.org" in reply.body
    judge.tick("dt", 300)
    _master(judge, "set grey/white, no partial")
    body = judge.reply("someone@example.org", "list dt").body
    lines = body.splitlines()
    assert "      Press:  Grey/White, No Partial, No Fake" in body
    assert "\n   France     move      1   -100  p2@example.org" in body, "a missed phase: -100 (GET dedsystems)"
    assert "The numbers after each power: how many deadlines its player has missed in this" in lines
