"""Numbers and dates the judge gives, over real SMTP on SQLite and PostgreSQL (issue 23,
items 11 to 14): dates past the bound refused and absences bounded per phase; the centre and
build counts of Colonial's Hong Kong rule in every text, the picture and the web archive;
the deadlines after ROLLBACK and PROCESS and around a takeover; one notice per master mail
per reader."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, Mail, start_game
from test_e2e_harness import later as later_on
from test_web import ArchiveServer, until

from judge import clock
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import ABANDONED, find_game

live = harness.live
GM = "gm@players.test"
EVERYONE = 8  # seven players and the master


def _signon(power: str, game: str) -> str:
    return f"signon {power[0]}{game} pw\n"


def _drain(live: LiveJudge) -> list[Mail]:
    """Every mail the judge sends until it settles."""
    live.settle()
    return live.collect(len(live.relay.messages) - live._seen)


def _iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC")


# -- item 11: dates past the bound, absences bounded per phase -------------------------------


def test_far_dates_are_refused_and_absences_bounded_per_phase(live: LiveJudge) -> None:
    powers = start_game(live, "far")
    before = live.game_value("far", "deadline")
    for text in ("set deadline 9999-12-31", "set deadline 2100-01-01", "set grace 9999-12-31",
                 "set start 9999-12-31"):
        reply = live.reply(GM, f"signon Mfar gmpw\n{text}")
        assert "[Error Flag]" in reply.subject and "2100" in reply.body, (text, reply.body)
    west = live.reply(powers["France"], _signon("France", "far") + "set zone America/New_York")
    assert "[Error Flag]" not in west.subject, west.body
    reply = live.reply(powers["France"], _signon("France", "far") + "set absence 2030-01-01 to 9999-12-31")
    assert "[Error Flag]" in reply.subject and "2100" in reply.body, reply.body
    reply = live.reply(GM, "signon Mfar gmpw\nset absence 2030-01-01 to 2099-12-31")
    assert "[Error Flag]" in reply.subject and "31 days" in reply.body, reply.body
    live.quiet()
    assert live.game_value("far", "deadline") == before

    # chained absences (each within the game's 15 days) cover the next phase's deadlines for
    # weeks: the phase waits for them at most 15 days past the deadline its clock gives it
    live.mail(GM, "signon Mfar gmpw\nset moves next 24 clock -1 days SMTWTFS", expect=1 + EVERYONE)
    today = datetime.now(UTC)
    chain = [(0, 14), (13, 27), (26, 40)]
    for power, (start, end) in zip(("France", "Germany", "Italy"), chain, strict=True):
        text = f"set absence {_iso(today + timedelta(days=start))} to {_iso(today + timedelta(days=end))}"
        reply = live.reply(powers[power], _signon(power, "far") + text, expect=2)
        assert "[Error Flag]" not in reply.subject, reply.body
    live.mail(GM, "signon Mfar gmpw\nprocess", expect=1 + EVERYONE)
    deadline = live.game_value("far", "deadline")
    assert deadline <= datetime.now(UTC) + timedelta(hours=24, days=15, minutes=1), deadline
    assert deadline >= today + timedelta(days=14), deadline

    # the master declares a longer absence for Austria through BECOME (njudge: MAX ABSENCE does
    # not bind a master): taken, and the phase waits up to 31 days for the absences, no longer
    text = f"set absence {_iso(today + timedelta(days=2))} to {_iso(today + timedelta(days=27))}"
    live.send(GM, f"signon Mfar gmpw\nbecome Austria\n{text}")
    reply = next(m for m in _drain(live) if m.to == GM and m.subject.startswith("Re:"))
    assert "[Error Flag]" not in reply.subject, reply.body
    live.mail(GM, "signon Mfar gmpw\nprocess", expect=1 + EVERYONE)
    deadline = live.game_value("far", "deadline")
    assert datetime.now(UTC) + timedelta(hours=24, days=16) < deadline, deadline
    assert deadline <= datetime.now(UTC) + timedelta(hours=24, days=31, minutes=1), deadline


# -- item 12: every centre and build count from the engine ------------------------------------


def _colonial_signon(live: LiveJudge, power: str) -> str:
    return f"signon {power[0]}hk {live.password('hk', power)}\n"


def test_hong_kong_counts_in_every_text(live: LiveJudge) -> None:
    live.reply(GM, "create ?hk gmpw colonial colonial_rules=moulmein")
    powers = start_game(live, "hk", "colonial", existing=True)
    live.reply(powers["Britain"], _colonial_signon(live, "Britain") + "F hon - scs")
    live.reply(powers["China"], _colonial_signon(live, "China") + "A can - hon")
    live.mail(GM, "signon Mhk gmpw\nprocess", expect=1 + EVERYONE)
    live.reply(powers["China"], _colonial_signon(live, "China") + "A hon h")
    live.reply(powers["Britain"], _colonial_signon(live, "Britain") + "F scs h")
    mails = live.mail(GM, "signon Mhk gmpw\nprocess", expect=1 + EVERYONE)
    assert live.phase("hk") == "F1870B"
    results = next(m for m in mails if m.subject.endswith("F1870M Results"))
    # China owns its five home centres and Hong Kong, which counts for nobody in its hands
    china = "China:     5 Supply centers,  5 Units:  Builds   0 units."
    assert china in results.body, results.body
    assert "Britain:   5 Supply centers,  6 Units:  Removes  1 unit." in results.body
    listed = live.reply("someone@players.test", "list hk").body
    assert china in listed, listed
    summary = live.reply("someone@players.test", "summary hk").body
    rows = {line.split()[0]: line.split()[1:] for line in summary.splitlines()
            if re.match(r"^(S1870M|F1870B)\s", line)}
    header = next(line for line in summary.splitlines() if line.startswith("Phase")).split()[1:]
    china_column = next(i for i, short in enumerate(header) if short.startswith("Ch"))
    assert rows["F1870B"][china_column] == "5", summary
    build = live.reply(powers["China"], _colonial_signon(live, "China") + "build A can")
    assert "[Error Flag]" in build.subject, "the judge accepts no Chinese build"

    web = ArchiveServer(live.config)
    try:
        for path in ("/games/hk/F1870M.svg", "/games/hk/F1870B.svg"):
            svg = web.text(path)
            legend = re.search(r'<g data-legend="China" data-centres="(\d+)" data-units="(\d+)">', svg)
            assert legend is not None and legend.groups() == ("5", "5"), (path, legend)
            assert ">5 centres, 5 units<" in svg
        page = web.text("/games/hk")
        row = re.search(r'<tr data-year="1870">(.*?)</tr>', page, re.S)
        assert row is not None
        cells = re.findall(r'<td class="n">(\d+)</td>', row.group(1))
        heads = re.findall(r"<th[^>]*>([^<]+)</th>", page)
        assert cells[[h for h in heads if h != "Year"].index("China")] == "5", (heads, cells)
    finally:
        web.stop()


# -- item 13: deadlines after ROLLBACK and PROCESS, and around a takeover ---------------------


def test_builds_phase_after_rollback_and_process_takes_its_own_clock(live: LiveJudge) -> None:
    powers = start_game(live, "rb")
    live.mail(GM, "signon Mrb gmpw\nset moves next 48 clock -1 days SMTWTFS", expect=1 + EVERYONE)
    live.mail(GM, "signon Mrb gmpw\nset builds next 1 clock -1 days SMTWTFS", expect=1 + EVERYONE)
    live.reply(powers["England"], _signon("England", "rb") + "F lon - nth")
    live.mail(GM, "signon Mrb gmpw\nprocess", expect=1 + EVERYONE)
    live.reply(powers["England"], _signon("England", "rb") + "F nth - nwy")
    live.mail(GM, "signon Mrb gmpw\nprocess", expect=1 + EVERYONE)
    assert live.phase("rb") == "F1901B"
    live.mail(GM, "signon Mrb gmpw\nset grace 1000", expect=1 + EVERYONE)
    live.mail(GM, "signon Mrb gmpw\nrollback", expect=1 + EVERYONE)
    assert live.phase("rb") == "F1901M"
    movement = live.game_value("rb", "deadline")
    assert movement > datetime.now(UTC) + timedelta(hours=47)
    assert live.game_value("rb", "grace") == movement + timedelta(hours=167), "the clock restarted, grace too"
    live.mail(GM, "signon Mrb gmpw\nprocess", expect=1 + EVERYONE)
    assert live.phase("rb") == "F1901B"
    builds = live.game_value("rb", "deadline")
    assert builds <= datetime.now(UTC) + timedelta(hours=1, minutes=1), (builds, movement)
    assert live.game_value("rb", "grace") == builds + timedelta(hours=71), "and the builds clock's grace"


def test_takeover_after_grace_and_a_deadline_that_did_not_move(live: LiveJudge) -> None:
    powers = start_game(live, "tk")
    live.mail(GM, f"signon Mtk gmpw\nset nonmr\nset deadline {later_on(hours=1)}\nset grace 2", expect=1 + EVERYONE)
    clock.advance(timedelta(hours=3, seconds=1))  # past the end of grace: the late powers abandoned
    _wait_abandoned(live, "tk")
    _drain(live)
    mails = live.mail("new@players.test", "signon Atk newpw\nA vie h\nA bud h\nF tri h", expect=3)
    reply = next(m for m in mails if m.to == "new@players.test" and m.subject.startswith("Re:"))
    assert "Take over of abandoned Austria allowed." in reply.body
    assert "None" not in reply.body, reply.body
    _drain(live)

    later = datetime.now(UTC) + timedelta(days=20)
    live.send(GM, f"signon Mtk gmpw\nset moves days SMTWTFS\nset deadline {later.date().isoformat()}")
    _drain(live)
    abandoned = [p for p in powers if p != "Austria"]
    for i, power in enumerate(abandoned[:-1]):
        live.send(f"n{i}@players.test", f"signon {power[0]}tk pw{i}")
        _drain(live)
    before = live.game_value("tk", "deadline")
    live.send("last@players.test", f"signon {abandoned[-1][0]}tk lastpw")
    mails = _drain(live)
    assert live.game_value("tk", "deadline") == before, "the deadline stays where the master put it"
    notice = next(m for m in mails if m.to == "new@players.test")
    assert "a wait has been placed for all active players" in notice.body, notice.body
    for m in mails:
        assert "advanced" not in m.body, (m.to, m.subject, m.body)


def _wait_abandoned(live: LiveJudge, game: str) -> None:
    """Wait until grace has ended and the judge has abandoned every late power."""

    def abandoned() -> bool:
        engine = make_engine(live.url)
        try:
            with make_sessionmaker(engine)() as s:
                row = find_game(s, game)
                assert row is not None
                return all(p.status == ABANDONED for p in row.players if p.power)
        finally:
            engine.dispose()

    until(abandoned, "the late powers to be abandoned", timeout=30)


# -- item 14: one notice per master mail per reader --------------------------------------------


def test_one_notice_per_master_mail_per_reader(live: LiveJudge) -> None:
    mails = live.mail(GM, "create ?one gmpw standard\nset moves next 48\nset nonmr", expect=1)
    live.quiet()
    assert mails[0].subject.startswith("Re:"), mails[0].subject
    powers = start_game(live, "one", existing=True)
    live.reply("obs@players.test", "observe one opw")
    live.mail(GM, "signon Mone gmpw\npause", expect=1 + EVERYONE + 1)
    readers = [GM, "obs@players.test", *powers.values()]
    text = "signon Mone gmpw\nresume\nset moves next 48\npromote obs@players.test\neject France"
    live.send(GM, text)
    mails = _drain(live)
    reply = next(m for m in mails if m.subject.startswith("Re:"))
    assert "[Error Flag]" not in reply.subject, reply.body
    notices = [m for m in mails if not m.subject.startswith("Re:")]
    assert sorted(m.to for m in notices) == sorted(readers), [(m.to, m.subject) for m in notices]
    germany = next(m for m in notices if m.to == powers["Germany"])
    assert "has been resumed" in germany.body and "Move" in germany.body and "France" in germany.body
    assert "promoted" not in germany.body, "the promotion is for the masters"
    master = next(m for m in notices if m.to == GM)
    assert "has been resumed" in master.body and "obs@players.test" in master.body
    assert master.body.count(":: Judge:") == 1, master.body
