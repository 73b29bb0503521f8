"""The daily flow of a game over real SMTP (issue 8, item 5): each defect a player or master
met, as a mail and its answer.

Setups that would take many phases of play (a retreat phase, builds) write the position into
the game row, then everything else goes by mail.
"""

from __future__ import annotations

import smtplib
from collections.abc import Mapping
from datetime import timedelta
from email.message import EmailMessage
from email.utils import formatdate

import test_e2e_harness as harness
from test_e2e_harness import JUDGE, LiveJudge, Mail, bodies_to, start_game

from judge import clock
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import find_game

live = harness.live
GM = "gm@players.test"
EVERYONE = 8  # seven players and the master
HOLDS = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "France": "A par h\nA mar h\nF bre h", "Germany": "A mun h\nA ber h\nF kie h",
    "Italy": "A ven h\nA rom h\nF nap h", "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h",
    "Turkey": "F ank h\nA con h\nA smy h",
}


def signon(power: str, game: str) -> str:
    return f"signon {power[0]}{game} pw\n"


def order_all_but(live: LiveJudge, powers: Mapping[str, str], game: str, last: str) -> None:
    for power, orders in HOLDS.items():
        if power != last:
            reply = live.reply(powers[power], signon(power, game) + orders)
            assert "[Error Flag]" not in reply.subject, reply.body


def set_position(live: LiveJudge, game: str, position: dict[str, object]) -> None:
    """Put ``position`` into the game (setup for phases that take long to reach by play)."""
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s, s.begin():
            row = find_game(s, game)
            assert row is not None
            row.position = position
            row.phase = str(position["phase"])
    finally:
        engine.dispose()


def test_a_mail_with_an_error_does_not_complete_the_orders(live: LiveJudge) -> None:
    """njudge: "an error free set of orders will be required to set the 'has submitted
    orders' status". Complete orders in a mail with an error wait for a clean mail."""
    powers = start_game(live, "err1")
    order_all_but(live, powers, "err1", "Turkey")
    reply = live.reply(powers["Turkey"], signon("Turkey", "err1") + HOLDS["Turkey"] + "\nA smy - xyz")
    assert reply.subject.endswith("[Error Flag]")
    assert "but this mail had errors" in reply.body
    live.quiet()
    assert live.phase("err1") == "S1901M", "the error kept the phase from being processed"
    mails = live.mail(powers["Turkey"], signon("Turkey", "err1") + "A smy h", expect=1 + EVERYONE)
    assert sum(m.subject == "E2E:err1 - S1901M Results" for m in mails) == EVERYONE
    assert live.phase("err1") == "F1901M"


def test_the_delay_lets_a_player_change_their_mind(live: LiveJudge) -> None:
    """With every order in, the phase waits the game's delay (njudge's 0.5 hours by default;
    here an hour, on the judge's clock); a mail within it changes the orders that are
    adjudicated."""
    powers = start_game(live, "dly")
    live.mail(GM, "signon Mdly gmpw\nset moves delay 1", expect=1 + EVERYONE)
    order_all_but(live, powers, "dly", "France")
    reply = live.reply(powers["France"], signon("France", "dly") + HOLDS["France"])
    assert "Orders received for all units of France." in reply.body
    reply = live.reply(powers["France"], signon("France", "dly") + "A par - bur")
    clock.advance(timedelta(minutes=59))
    live.settle()
    assert live.phase("dly") == "S1901M", "nothing is processed before the delay is over"
    clock.advance(timedelta(minutes=1, seconds=1))
    results = live.collect(EVERYONE)
    assert all(m.subject == "E2E:dly - S1901M Results" for m in results)
    assert "France: Army Paris -> Burgundy." in results[0].body
    assert live.phase("dly") == "F1901M"


def test_each_error_is_reported_on_its_own_line(live: LiveJudge) -> None:
    powers = start_game(live, "line")
    reply = live.reply(powers["France"], signon("France", "line") + "F bre - spa\nF bre - mao\nA\nA par - bur")
    lines = reply.body.splitlines()
    at = {text: i for i, text in enumerate(lines) if text.startswith("> ")}
    assert lines[at["> F bre - spa"] + 1].startswith("    Error:")
    assert lines[at["> F bre - mao"] + 1] == "> A"
    assert lines[at["> A"] + 1].startswith("    Error:")
    assert not lines[at["> A par - bur"] + 1].startswith("    Error:")
    assert "2 errors found in your mail" in reply.body
    assert "France: Fleet Brest -> Mid-Atlantic Ocean." in reply.body
    assert "France: Army Paris -> Burgundy." in reply.body


def test_history_returns_every_archived_mail(live: LiveJudge) -> None:
    powers = start_game(live, "his")
    live.mail(GM, "signon Mhis gmpw\nbroadcast\nFirst word.\nendpress", expect=1 + EVERYONE)
    live.mail(GM, "signon Mhis gmpw\nbroadcast\nSecond word.\nendpress", expect=1 + EVERYONE)
    live.mail(GM, "signon Mhis gmpw\nset deadline Mon Dec 1 2031 18:00", expect=1 + EVERYONE)
    live.mail(GM, "signon Mhis gmpw\nset deadline Tue Dec 2 2031 18:00", expect=1 + EVERYONE)
    body = live.reply("someone@players.test", "history his").body
    assert "First word." in body and "Second word." in body
    assert "Mon Dec 01 2031 18:00:00" in body and "Tue Dec 02 2031 18:00:00" in body
    assert body.count("Subject: E2E:his - S1901M Deadline Changed") == 2
    assert body.count("Subject: E2E:his - S1901M Game Starting") == 1
    assert powers


def test_a_second_signon_to_a_forming_game_takes_no_second_seat(live: LiveJudge) -> None:
    live.reply(GM, "create ?two gmpw")
    live.reply("ann@players.test", "signon ?two first")
    reply = live.reply("ann@players.test", "signon ?two first\nset preference F")
    assert "You already have a place in game 'two': no second place was taken." in reply.body
    assert "Game 'two' now has 1 player." in reply.body
    assert "Preference list 'F' set." in reply.body
    assert "Invalid password" in live.reply("ann@players.test", "signon ?two second").body
    assert "Invalid password" in live.reply("ann@players.test", "signon Mtwo first").body
    listing = live.reply("someone@players.test", "list two").body
    assert listing.count("ann@players.test") == 1


def test_observers_cannot_hold_the_game_vote_or_order(live: LiveJudge) -> None:
    start_game(live, "obs")
    live.observe("watcher@players.test", "obs", "secret")
    reply = live.reply("watcher@players.test", "signon Oobs secret\nset wait\nset draw\nA par - bur")
    assert "Observers cannot use SET WAIT." in reply.body
    assert "Observers cannot vote for a draw." in reply.body
    assert "Observers cannot give orders." in reply.body
    assert "3 errors found" in reply.body
    live.mail(GM, "signon Mobs gmpw\nset no press", expect=1 + EVERYONE + 1)
    reply = live.reply("watcher@players.test", "signon Oobs secret\nbroadcast\nHello all\nendpress")
    assert "allows no press between players" in reply.body


def _builds_position(units: list[str]) -> dict[str, object]:
    """Winter 1901 with Germany holding four centres (its three homes and Denmark), and one
    build for France, so that Germany's orders alone do not complete the phase."""
    from judge.engine import initial_position
    from judge.maps import load_board

    board = load_board("standard")
    start = initial_position(board.map).to_json(board.map)
    all_units = {**start["units"], "Germany": units, "France": ["A par", "A mar"]}  # France builds in Brest
    centres = {**start["centres"], "Germany": ["ber", "kie", "mun", "den"]}
    return {"phase": "F1901B", "units": all_units, "dislodged": {}, "centres": centres}


def test_adjustment_orders_over_the_allowance_are_answered(live: LiveJudge) -> None:
    """Germany may build three (four centres, one unit): a fourth order drops the earliest; a
    build and a WAIVE with one build left keep the WAIVE and say the build was dropped."""
    powers = start_game(live, "adj")
    set_position(live, "adj", _builds_position(["A den"]))
    reply = live.reply(powers["Germany"], signon("Germany", "adj") + "build a ber\nbuild f kie\nbuild a mun\nwaive")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Germany may give 3 adjustment orders this phase." in reply.body
    assert "    build a ber" in reply.body.split("dropped:")[1]
    set_position(live, "adj", _builds_position(["A den", "A mun", "F kie"]))
    reply = live.reply(powers["Germany"], signon("Germany", "adj") + "build a ber\nwaive")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Germany may give 1 adjustment order this phase." in reply.body
    kept, dropped = reply.body.split("dropped:")
    assert "    waive" in kept and "    build a ber" in dropped.split("Adjustment orders")[0]
    assert "Germany:   Build waived." in reply.body and "Builds an army in Berlin" not in reply.body


def test_a_warning_is_not_an_error(live: LiveJudge) -> None:
    live.reply(GM, "create ?tsr gmpw colonial colonial_rules=moulmein")
    powers = start_game(live, "tsr", "colonial", existing=True)
    reply = live.reply(powers["Russia"], "signon Rtsr pw\nA mos TSR oms\nA vla TSR oms")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert reply.body.count("    Warning:") == 1
    assert "error" not in reply.body.lower().replace("no errors", "")


def test_eject_an_observer_and_every_power_of_an_address(live: LiveJudge) -> None:
    powers = start_game(live, "ej")
    live.observe("watcher@players.test", "ej", "secret")
    mails = live.mail(GM, "signon Mej gmpw\neject watcher@players.test", expect=1 + 2)
    told = [m for m in mails if not m.subject.startswith("Re:")]
    assert sorted(m.to for m in told) == sorted(["watcher@players.test", GM])
    assert all("without a player" not in m.body for m in told)
    # One address comes to hold two powers (njudge lets nobody take over a second power, but
    # a player may move their mail to an address that plays another: a household).
    mails = live.mail(powers["Russia"], f"signon Rej pw\nset address {powers['France']}", expect=2)
    live.confirm(powers["France"], next(m for m in mails if m.to == powers["France"]), expect=2)
    mails = live.mail(GM, f"signon Mej gmpw\neject {powers['France']}", expect=1 + EVERYONE - 1)
    reply = next(m for m in mails if m.to == GM and m.subject.startswith("Re:"))
    assert "as France" in reply.body and "as Russia" in reply.body
    told = [m for m in mails if not m.subject.startswith("Re:")]
    assert {m.subject for m in told} == {"E2E:ej - S1901M Ejection: France, Russia"}
    assert powers["France"] in {m.to for m in told}
    listing = live.reply("someone@players.test", "list ej").body
    assert powers["France"] not in listing


def test_one_notice_lists_every_setting_a_mail_changed(live: LiveJudge) -> None:
    start_game(live, "set")
    mails = live.mail(GM, "signon Mset gmpw\nset grey/white\nset no partial\nset moves next 48\n"
                          "set deadline Mon Dec 1 2031 18:00", expect=1 + EVERYONE)
    notices = [m for m in mails if m.subject == "E2E:set - S1901M Settings Changed"]
    assert len(notices) == EVERYONE and len({m.to for m in notices}) == EVERYONE
    body = notices[0].body
    for text in ("Grey/White", "No Partial", "48 hours after the phase starts", "Mon Dec 01 2031 18:00:00"):
        assert text in body, text
    live.quiet()


def test_replies_in_grace_say_the_deadline_passed_and_when_grace_ends(live: LiveJudge) -> None:
    live.reply(GM, "create ?gra gmpw")
    live.mail(GM, "signon Mgra gmpw\nset moves next 1 clock -1 min 0 grace 1 days SMTWTFS", expect=2)
    powers = start_game(live, "gra", existing=True)
    clock.advance(timedelta(hours=1, seconds=1))
    late = live.collect(EVERYONE)
    assert {m.subject for m in late if m.to != GM} == {"[You are late!] E2E:gra - S1901M Late Notice: AEFGIRT"}
    assert [m.subject for m in late if m.to == GM] == ["E2E:gra - S1901M Late Notice: AEFGIRT"]
    reply = live.reply(powers["France"], signon("France", "gra") + "A par - bur")
    assert "has passed: your orders are late." in reply.body
    assert "Time to grace period expiration:" in reply.body and "Time to deadline" not in reply.body
    listing = live.reply("someone@players.test", "list gra").body
    assert "If their orders are still not in when the grace period ends" in listing


def test_list_and_summary_of_a_finished_game(live: LiveJudge) -> None:
    powers = start_game(live, "fin")
    live.mail(powers["Italy"], "signon Ifin pw\nresign", expect=1 + EVERYONE)
    live.mail("new@players.test", "signon Ifin newpw", expect=1 + 1 + EVERYONE - 1)
    names = [p for p in HOLDS if p != "Italy"]
    for power in names:
        live.reply(powers[power], signon(power, "fin") + "set draw")
    mails = live.mail("new@players.test", "signon Ifin newpw\nset draw", expect=1 + EVERYONE)
    assert any(m.subject == "E2E:fin - S1901M Draw Declared" for m in mails)
    listing = live.reply("someone@players.test", "list fin").body
    assert "Game 'fin' is over: it was declared a draw between Austria, England" in listing
    assert "have not gotten their orders in" not in listing and " move " not in listing
    summary = live.reply("someone@players.test", "summary fin").body
    italy = next(line for line in summary.splitlines() if powers["Italy"] in line)
    assert italy.strip().startswith("Italy:") and italy.rstrip().endswith("resigned"), "kept, marked as resigned"
    assert "new@players.test" in summary


def test_the_master_sees_every_power_and_orders_for_any(live: LiveJudge) -> None:
    powers = start_game(live, "mst")
    live.reply(powers["France"], signon("France", "mst") + "A par - bur")
    reply = live.reply(GM, "signon Mmst gmpw")
    assert "Movement orders for Spring of 1901. (mst.001)" in reply.body
    assert "France: Move Required." in reply.body and "France: Army Paris -> Burgundy." in reply.body
    assert "Turkey: Army Smyrna, No Order Processed." in reply.body
    reply = live.reply(GM, "signon Mmst gmpw\nGermany: A mun - ruh\nA war - gal\nA xyz - abc")
    assert "Germany: Army Munich -> Ruhr." in reply.body and "Russia: Army Warsaw -> Galicia." in reply.body
    assert "1 error found" in reply.body
    listing = live.reply(GM, "signon Mmst gmpw\nlist").body
    assert "Germany: Army Munich -> Ruhr." in listing
    assert "Army Munich -> Ruhr" not in live.reply("someone@players.test", "list mst").body


def test_a_mail_without_a_message_id_is_never_dropped(live: LiveJudge) -> None:
    for _ in range(2):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"], msg["Date"] = "anon@players.test", JUDGE, "help", formatdate()
        msg.set_content("HELP\n")
        with smtplib.SMTP("127.0.0.1", live.config.smtp_port, timeout=10) as smtp:
            smtp.send_message(msg)
    replies = [Mail.of(c) for c in live.relay.wait_for(2, timeout=15)]
    assert [m.to for m in replies] == ["anon@players.test", "anon@players.test"]
    assert all("HELP" in m.body or "help" in m.body for m in replies)


def test_the_seeds_orders_read_as_written(live: LiveJudge) -> None:
    """Seed 001: "F Egy s ENGLISH F REDS - MEDS" (the power is Britain)."""
    live.reply(GM, "create ?sd gmpw colonial colonial_rules=moulmein")  # the reading of seed 001
    powers = start_game(live, "sd", "colonial", existing=True)
    set_position(live, "sd", {"phase": "S1870M", "units": {"Britain": ["F egy", "F red"], "Russia": ["A mos"]},
                              "dislodged": {}, "centres": {"Britain": ["egy"], "Russia": ["mos"]}})
    reply = live.reply(powers["Britain"], "signon Bsd pw\nF Egy s ENGLISH F REDS - MEDS\nF reds - meds")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Britain: Fleet Egypt SUPPORT Fleet Red Sea -> Mediterranean Sea." in reply.body.replace("  ", " ")


def test_retreat_replies_say_no_orders_are_needed_only_when_true(live: LiveJudge) -> None:
    powers = start_game(live, "ret")
    set_position(live, "ret", {
        "phase": "F1901R", "units": {"Germany": ["A war", "A ber"], "Austria": ["A vie"], "France": ["A par"]},
        "dislodged": {"Russia": [{"unit": "A war", "retreats": ["lvn", "mos"]}]},
        "centres": {"Russia": ["war", "mos"], "Germany": ["ber"], "Austria": ["vie"], "France": ["par"]}})
    reply = live.reply(powers["France"], signon("France", "ret") + "A par - bur")
    assert "France: No orders are needed from you in this phase." in reply.body
    reply = live.reply(powers["Russia"], "signon Rret pw\nA war - xyz")
    assert "No orders are needed" not in reply.body
    assert "Russia: Army Warsaw, No Order Processed." in bodies_to([reply], powers["Russia"])[0].body
    set_position(live, "ret", _builds_position(["A den"]))
    reply = live.reply(powers["Germany"], signon("Germany", "ret") + "build a xyz")
    assert "No orders are needed" not in reply.body and "Germany: No orders received yet." in reply.body
    reply = live.reply(powers["Italy"], signon("Italy", "ret") + "build a rom")
    assert "Italy: No orders are needed from you in this phase." in reply.body
