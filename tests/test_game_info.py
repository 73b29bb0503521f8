"""What people can learn of a game, and what a gunboat game hides: LIST, LIST FULL, SET
NOLIST, WHOGAME, SUMMARY (who played each power and when), HISTORY EXCLSTART, the help
files; and the master acting for others: BECOME, PROMOTE, SET OPTION in play."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_game_helpers import STANDARD_LETTERS, Judge, as_power, password_of, start_standard

from judge.render import help_text, help_topics
from judge.store.mail import OutboxMessage

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
GM = "gm@example.org"
ADDRESS = re.compile(r"p\d@example\.org")


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}", now=datetime.now(UTC).replace(microsecond=0))


def _gunboat(judge: Judge) -> list[OutboxMessage]:
    judge.mail(GM, "create ?dt gmpw\nset gunboat")
    rows: list[OutboxMessage] = []
    for i, letter in enumerate(STANDARD_LETTERS):
        rows = judge.mail(f"p{i}@example.org", f"signon ?dt pw{i}\nset preference {letter}")
    return rows


def test_list_full_and_nolist(judge: Judge) -> None:
    start_standard(judge)
    judge.mail(GM, "create ?quiet gmpw\nset nolist")
    short = judge.reply("any@example.org", "list").body
    assert "  dt        Standard" in short and "quiet" not in short
    assert "'LIST FULL' for every game's players" in short
    full = judge.reply("any@example.org", "list full").body
    assert "France:       p2@example.org" in full and "quiet" not in full
    assert "Game 'quiet' is forming" in judge.reply("any@example.org", "list quiet").body, "LIST name still answers"
    rows = judge.mail(GM, "signon Mquiet gmpw\nset list")
    assert "Game 'quiet' is listed: LIST shows it." in rows[-1].body
    assert "quiet" in judge.reply("any@example.org", "list").body
    reply = judge.reply("p0@example.org", f"signon Adt {password_of(judge, 'dt', 'Austria')}\nset nolist")
    assert "Only the master of game 'dt' may use SET NOLIST." in reply.body


def test_whogame(judge: Judge) -> None:
    start_standard(judge)
    judge.observe("obs@example.org", "dt", "opw")
    body = judge.reply("any@example.org", "whogame dt").body
    assert re.search(r"Master:\s+gm@example\.org\n\s+joined ", body)
    assert re.search(r"France:\s+p2@example\.org\n\s+joined .*; 0 deadlines missed", body)
    assert "obs@example.org" not in body and "WHOGAME dt FULL for the observers" in body
    full = judge.reply("any@example.org", "who game dt full").body
    assert re.search(r"Observer:\s+obs@example\.org", full)
    reply = judge.reply("any@example.org", "whogame nosuch")
    assert "There is no game called 'nosuch'." in reply.body


def test_gunboat_hides_the_players_from_each_other(judge: Judge) -> None:
    starts = [r for r in _gunboat(judge) if r.kind == "start"]
    assert len(starts) == 8
    assert "Variant: Standard Gunboat" in starts[0].body
    for row in starts:
        if row.to_addr == GM:
            assert "p2@example.org" in row.body, "the master sees every address"
        else:
            assert not ADDRESS.search(row.body) and "someone@somewhere" in row.body, row.to_addr
    with judge.factory() as s:
        from sqlalchemy import select

        archived = s.scalars(select(OutboxMessage).where(OutboxMessage.archived.is_(True),
                                                         OutboxMessage.kind == "start")).one()
    assert archived.to_addr != GM and not ADDRESS.search(archived.body)
    for text in ("list dt", "list full", "whogame dt full", "summary dt"):
        body = judge.reply("any@example.org", text).body
        assert not ADDRESS.search(body), text
    body = as_power(judge, "France", "list")[0].body
    assert not ADDRESS.search(body), "a player does not see the others either"
    master = judge.reply(GM, "signon Mdt gmpw\nwhogame\nsummary\nlist").body
    assert master.count("p2@example.org") == 3, "the master sees them all"
    rows = as_power(judge, "France", "resign")
    notices = [r for r in rows if r.kind == "notice"]
    assert all(not ADDRESS.search(r.body) for r in notices if r.to_addr != GM)
    assert any("p2@example.org" in r.body for r in notices if r.to_addr == GM)
    reply = judge.reply(GM, "signon Mdt gmpw\nset gunboat")
    assert "you can use SET GUNBOAT only while it is forming" in reply.body


def test_summary_shows_who_played_each_power_and_when(judge: Judge) -> None:
    start_standard(judge)
    judge.mail(GM, "signon Mdt gmpw\nprocess")
    judge.now += timedelta(hours=1)
    as_power(judge, "France", "resign")
    judge.now += timedelta(hours=1)
    judge.mail("new@example.org", "signon Fdt newpw")
    judge.now += timedelta(hours=1)
    judge.mail(GM, "signon Mdt gmpw\nprocess")
    body = judge.reply("any@example.org", "summary dt").body
    assert "Summary of game 'dt' (Standard) through Spring 1902 Movement." in body
    assert re.search(r"France:\s+p2@example\.org\s+S1901M to F1901M\s+0 missed, resigned", body), body
    assert re.search(r"\n\s+new@example\.org\s+F1901M to now\s+0 missed", body), body
    assert re.search(r"Master:\s+gm@example\.org", body)
    assert "S1901M      3    3    3    3    3    4    3" in body
    assert "S1902M      3    3    3    3    3    4    3" in body
    judge.mail(GM, "signon Mdt gmpw\nterminate")
    ended = judge.reply("any@example.org", "summary dt").body
    assert "Game 'dt' is over: it was terminated by its master." in ended
    assert re.search(r"new@example\.org\s+F1901M to S1902M", ended)


def test_history_exclstart(judge: Judge) -> None:
    start_standard(judge)
    for _ in range(3):
        judge.now += timedelta(minutes=1)
        judge.mail(GM, "signon Mdt gmpw\nprocess")
    judge.mail(GM, "signon Mdt gmpw\nbroadcast\nHello all.\nendpress")

    def subjects(text: str) -> list[str]:
        return re.findall(r"^Subject: TEST:dt - (.*)$", judge.reply("any@example.org", text).body, re.M)

    assert subjects("history dt exclstart S2999M") == ["S1901M Game Starting", "S1901M Results",
                                                       "F1901M Results", "S1902M Results"]
    assert subjects("history dt exclstart F1901M") == ["S1901M Game Starting", "S1901M Results"]
    assert subjects("history dt exclstart S1899M exclend F1901B") == ["S1902M Results"]
    assert subjects("history dt exclstart someday") == subjects("history dt exclstart S2999M")
    assert subjects("history dt exclstart F1901M exclend F1901M broad") == [
        "S1901M Game Starting", "S1901M Results", "S1902M Results", "F1902M Broadcast from M"], "BROAD adds broadcasts"
    reply = judge.reply("any@example.org", "history dt exclstart S1901M from Jan 1 1990")
    assert "EXCLSTART does not go with FROM or TO" in reply.body and "[Error Flag]" in reply.subject
    reply = judge.reply("any@example.org", "history dt broad")
    assert "EXCLEND and BROAD go with EXCLSTART" in reply.body


def test_every_help_file_is_listed_and_sent(judge: Judge) -> None:
    flist = help_text("flist")
    for topic in help_topics():
        assert re.search(rf"^    {re.escape(topic)}\b", flist, re.M), f"flist must name {topic}"
        reply = judge.reply("any@example.org", f"get {topic}")
        assert reply.body.split("\n\n", 1)[1].startswith(f"{topic}."), topic
    for njudge, ours in (("info.colonial", "variants"), ("info.oceania", "variants"), ("help", "index"),
                         ("set", "index")):
        assert help_text(njudge) == help_text(ours)
    master = help_text("master")
    for word in ("PREDICT", "ROLLBACK", "UNSTART", "FORCE BEGIN", "BECOME", "PROMOTE", "SET DIAS", "SET GUNBOAT",
                 "SET NOLIST", "SET MANUALSTART", "SET CONCESSIONS"):
        assert word in master, word
    for word in ("SET NODIAS", "SET DRAW AEF", "SET CONCEDE", "SET NO CONCEDE"):
        assert word in help_text("draws"), word
    assert "EXCLSTART" in help_text("history") and "BROAD" in help_text("history")


def test_become_acts_as_the_power_and_copies_its_player(judge: Judge) -> None:
    start_standard(judge)
    rows = judge.mail(GM, "signon Mdt gmpw\nset dias\nbecome france\nA par - bur\nset wait\nprocess\nbecome italy")
    reply = next(r for r in rows if r.kind == "reply" and r.to_addr == GM)
    assert "The rest of this mail acts as France in game 'dt'" in reply.body
    assert "Army Paris -> Burgundy." in reply.body
    assert ("After BECOME the rest of the mail acts as France, who cannot use PROCESS: put\nmaster commands "
            "before BECOME.") in reply.body
    assert "who cannot use BECOME" in reply.body, "one BECOME per mail"
    copy = next(r for r in rows if r.kind == "private")
    assert copy.to_addr == "p2@example.org"
    assert copy.body.split("\n\n")[1].startswith("The master of game 'dt' (gm@example.org) used BECOME France")
    assert "Army Paris -> Burgundy." in copy.body and "who cannot use PROCESS" in copy.body
    assert "Game 'dt' was already set so" not in copy.body, "the master's own commands are the master's"
    assert "2 errors found in your mail" in copy.body, "the errors of the commands given as France"
    game = judge.game("dt")
    france = next(p for p in game.players if p.power == "France")
    assert france.wait and game.phase == "S1901M"
    reply = judge.reply(GM, "signon Mdt gmpw\nbecome nobody")
    assert "Write BECOME and a power of game 'dt'" in reply.body
    as_power(judge, "Turkey", "resign")
    reply = judge.reply(GM, "signon Mdt gmpw\nbecome T")
    assert "Turkey has no player in game 'dt'" in reply.body
    assert "this judge makes the creator" in judge.reply(GM, "signon Mdt gmpw\nbecome master").body


def test_promote_an_observer_to_master(judge: Judge) -> None:
    start_standard(judge)
    reply = judge.reply(GM, "signon Mdt gmpw\npromote obs@example.org")
    assert "is not an observer of game 'dt'" in reply.body and "[Error Flag]" in reply.subject
    judge.observe("obs@example.org", "dt", "opw")
    rows = judge.mail(GM, "signon Mdt gmpw\npromote obs@example.org")
    mails = [r for r in rows if r.kind == "private"]
    assert sorted(r.to_addr for r in mails) == [GM, "obs@example.org"]
    assert "obs@example.org has been promoted to master of game 'dt'" in mails[0].body
    reply = judge.reply("obs@example.org", "signon Mdt opw\nprocess")
    assert "[Error Flag]" not in reply.subject and "Phase S1901M of game 'dt' has been processed" in reply.body
    assert "[Error Flag]" not in judge.reply(GM, "signon Mdt gmpw\nlist").subject, "both masters sign on"
    reply = judge.reply(GM, "signon Mdt gmpw\npromote obs@example.org")
    assert "is a master of game 'dt' already" in reply.body


def test_set_option_in_play_on_colonial(judge: Judge) -> None:
    judge.mail(GM, "create ?col gmpw colonial")
    for i, letter in enumerate("BCFHJRT"):
        judge.mail(f"c{i}@example.org", f"signon ?col pw\nset preference {letter}")
    rows = judge.mail(GM, "signon Mcol gmpw\nset option tsr_static_break=fallback")
    reply = next(r for r in rows if r.kind == "reply")
    assert "Option tsr_static_break of game 'col' set to fallback, from the current phase on." in reply.body
    notice = next(r for r in rows if r.kind == "notice")
    assert "tsr_static_break" in notice.body and notice.to_addr
    for text, why in (("colonial_map=moulmein", "changes the map or the calendar"),
                      ("colonial_rules=moulmein", "sets a whole reading"),
                      ("hong_kong_rule=yes", "changes what the supply centres count for"),
                      ("convoy_path=binding", "one of the DATC choices")):
        reply = judge.reply(GM, f"signon Mcol gmpw\nset option {text}")
        assert why in reply.body and "[Error Flag]" in reply.subject, text
    assert judge.game("col").options == {"tsr_static_break": "fallback"}
    judge.mail(GM, "signon Mcol gmpw\nprocess")
    with judge.factory() as s:
        from sqlalchemy import select

        from judge.store.games import PhaseRecord

        record = s.scalars(select(PhaseRecord)).one()
    assert record.options == {"tsr_static_break": "fallback"}, "a phase keeps the options it was judged by"
