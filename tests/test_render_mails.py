"""Replies, notices, press, lists and help, rendered from real templates and positions and
compared with the njudge fixtures' layout (Bug91-06, -08, -10, -11, -13)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from jinja2 import UndefinedError

from judge.engine import initial_position, tally
from judge.engine.phase import Phase
from judge.maps import load_board, load_map
from judge.render import (
    GameContext,
    GameLine,
    HelpTopicError,
    JudgeContext,
    Listing,
    Summary,
    eject_mail,
    format_deadline,
    game_list_text,
    game_start_mail,
    game_state_mail,
    help_mail,
    help_text,
    help_topics,
    history_text,
    joined_text,
    list_text,
    order_lines_text,
    orders_text,
    press_mail,
    press_sent_text,
    reply_mail,
    resign_mail,
    section,
    selected_mail,
    settings_mail,
    summary_text,
    time_left,
    wrong_password_text,
)
from judge.render.environment import environment, render, templates_dir

DEADLINE = datetime(2004, 1, 6, 23, 30, tzinfo=UTC)
NOW = datetime(2004, 1, 1, 0, 0, tzinfo=UTC)
HEADER = [":: Judge: XXXX  Game: Dt  Variant: Standard", ":: Deadline: S1901M Tue Jan 06 2004 23:30:00 +0000  "]


@pytest.fixture(scope="module")
def m():
    return load_map("standard")


@pytest.fixture()
def ctx(m):
    return GameContext(judge_code="XXXX", judge_address="judge@localhost", game="dt", m=m, tz=ZoneInfo("UTC"),
                       phase=Phase.parse("S1901M"), deadline=DEADLINE)


JUDGE = JudgeContext(judge_code="XXXX", judge_address="judge@localhost")


def test_format_deadline_classic_form_in_the_game_zone():
    dt = datetime(2002, 2, 25, 22, 30, tzinfo=UTC)
    assert format_deadline(dt, ZoneInfo("Europe/Paris")) == "Mon Feb 25 2002 23:30:00 +0100"
    assert format_deadline(dt.replace(month=7), ZoneInfo("Europe/Paris")) == "Fri Jul 26 2002 00:30:00 +0200"
    assert format_deadline(datetime(2002, 2, 25, 22, 30), ZoneInfo("UTC")) == "Mon Feb 25 2002 22:30:00 +0000"


def test_time_left_as_njudge_writes_it():
    assert time_left(DEADLINE, NOW) == "5 days, 23 hours, 30 minutes, and 0 seconds"
    assert time_left(NOW + timedelta(days=1, hours=1, minutes=1, seconds=1), NOW) == \
        "1 day, 1 hour, 1 minute, and 1 second"
    assert time_left(NOW, DEADLINE) == "0 seconds"


def test_game_start_mail_follows_bug91_06(ctx, m):
    players = [("Master", "master1@localhost"), ("Austria", "player3@localhost"), ("Observer", "observer1@localhost")]
    mail = game_start_mail(ctx, initial_position(m), DEADLINE, players, recipient="Austria")
    assert mail.subject == "XXXX:dt - S1901M Game Starting"
    lines = mail.body.splitlines()
    assert lines[:10] == HEADER + [
        "",
        "You have been selected as Austria in game 'dt' of Diplomacy.",
        "",
        "The following players are in this game:",
        "     Master:                   master1@localhost",
        "     Austria:                  player3@localhost",
        "     Observer:                 observer1@localhost",
        "",
    ]
    assert lines[10:16] == ["Starting position for Spring of 1901.", "", "Austria: Army  Budapest.",
                            "Austria: Army  Vienna.", "Austria: Fleet Trieste.", ""]
    assert "France:  Army  Marseilles." in lines
    assert "Russia:  Fleet St Petersburg (south coast)." in lines
    assert lines[-4:] == ["Turkey:  Fleet Ankara.", "", "",
                          "The deadline for the first orders is Tue Jan 06 2004 23:30:00 +0000."]
    # every unit of the position once, and nothing else between the title and the deadline
    units = [line for line in lines if re.match(r"^\w+: +(Army |Fleet)", line)]
    assert len(units) == 22


def test_selected_mail_names_the_power(ctx, m):
    mail = selected_mail(ctx, "France", "secret", initial_position(m), DEADLINE)
    assert "You have been selected as France in game 'dt'." in mail.body.splitlines()
    assert "SIGNON Fdt password" in mail.body and "secret" in mail.body
    assert mail.body.splitlines()[:2] == HEADER


def _order_reply(ctx, lines, echo, complete, **kw):
    sections = [order_lines_text(lines), orders_text(ctx, "France", echo, complete, NOW, **kw)]
    errors = sum(1 for _, errs, _ in lines if errs)
    return reply_mail(ctx, "", sections, errors, acted=errors < len(lines))


def test_order_reply_echoes_lines_flags_errors_and_lists_the_order_set(ctx):
    mail = _order_reply(
        ctx, [("a par-bur", [], []), ("a mar-spx", ["There is no province called 'spx'."], [])],
        ["Army Paris -> Burgundy.", "Army Marseilles, No Order Processed.", "Fleet Brest, No Order Processed."],
        False, missing=2, grace=DEADLINE + timedelta(days=7),
    )
    assert mail.subject == "Re: XXXX:dt - S1901M [Error Flag]"
    assert mail.body.splitlines() == HEADER + [
        "",
        "> a par-bur",
        "> a mar-spx",
        "    Error: There is no province called 'spx'.",
        "",
        "Movement orders for Spring of 1901. (dt.001)",
        "",
        "France: Army Paris -> Burgundy.",
        "France: Army Marseilles, No Order Processed.",
        "France: Fleet Brest, No Order Processed.",
        "",
        "Orders not received for all units: 2 units without orders.",
        "If complete orders are not received by Tue Jan 06 2004 23:30:00 +0000,",
        "you will be considered late.",
        "If they are still not complete when the grace period ends,",
        "Tue Jan 13 2004 23:30:00 +0000, the phase is processed without them.",
        "",
        "Time to deadline: 5 days, 23 hours, 30 minutes, and 0 seconds.",
        "",
        "Time to grace period expiration: 12 days, 23 hours, 30 minutes, and 0 seconds.",
        "",
        "1 error found in your mail: the line marked with an error above",
        "was not acted on; the rest of your mail was.",
    ]


def test_order_reply_in_grace_says_the_deadline_passed(ctx):
    late = replace(ctx, deadline=NOW - timedelta(hours=1))
    text = orders_text(late, "France", ["Army Paris -> Burgundy."], False, NOW, grace=NOW + timedelta(days=2))
    assert "The deadline, Wed Dec 31 2003 23:00:00 +0000, has passed: your orders are late." in text
    assert "Time to grace period expiration: 2 days, 0 hours, 0 minutes, and 0 seconds." in text
    assert "Time to deadline" not in text
    abandon = orders_text(ctx, "France", [], False, NOW, grace=DEADLINE, at_grace="abandon")
    assert "You will be considered abandoned if all orders are not received by" in abandon


def test_nothing_to_order_says_so_only_when_true(ctx):
    assert "No orders are needed from you" in orders_text(ctx, "France", [], True, NOW, needed=False)
    needed = orders_text(ctx, "France", [], False, NOW)
    assert "No orders are needed" not in needed and "France: No orders received yet." in needed


def test_complete_orders_without_errors_have_no_flag(ctx):
    mail = _order_reply(ctx, [("a par-bur", [], [])], ["Army Paris -> Burgundy."], True)
    assert mail.subject == "Re: XXXX:dt - S1901M"
    assert "error" not in mail.body.lower()
    assert "Orders received for all units of France." in mail.body


def test_a_warning_is_not_an_error(ctx):
    text = order_lines_text([("A mos - TSR - vla", [], ["Only one army may use the railway: both hold."])])
    assert text.splitlines() == ["> A mos - TSR - vla", "    Warning: Only one army may use the railway: both hold."]


def test_bad_password_reply_echoes_the_original_message():
    mail = reply_mail(JUDGE, "", [wrong_password_text()], 1, original="signon mdt 181d\nlist\nsignoff\n")
    assert mail.subject == "Re: XXXX [Error Flag]"
    assert mail.body.splitlines() == [
        ":: Judge: XXXX", "", "Invalid password or power ID specified.", "",
        "1 error found in your mail: it was not acted on.", "",
        "---- Original message follows:", "", "signon mdt 181d", "list", "signoff",
    ]


def test_broadcast_and_its_confirmation_follow_bug91_08(ctx):
    mail = press_mail(ctx, "Press from the master!\n", author="master1@localhost", role="Master")
    assert mail.subject == "XXXX:dt - S1901M Broadcast from M"
    assert mail.body.splitlines()[2:] == [
        "", "Broadcast message from master1@localhost as Master in 'dt':", "", "Press from the master!"]
    sent = press_sent_text(ctx, "Press from the master!", author="master1@localhost", role="Master")
    assert sent.splitlines() == ["Broadcast message sent:", "", "Broadcast message from master1@localhost as "
                                 "Master in 'dt':", "", "Press from the master!", "", "End of message."]
    partial = press_mail(ctx, "hi", author="p@x", role="France", recipients=["England", "Germany"])
    assert partial.subject == "XXXX:dt - S1901M Press from F"
    assert "Message from p@x as France in 'dt' to England, Germany:" in partial.body.splitlines()


def test_resignation_notice_follows_bug91_13(ctx):
    mail = resign_mail(ctx, "player1@localhost", ["France", "Russia"])
    assert mail.subject == "XXXX:dt - S1901M Resignation: France, Russia"
    assert mail.body.splitlines()[2:] == [
        "", "player1@localhost has resigned", "as France in game 'dt'.",
        "", "player1@localhost has resigned", "as Russia in game 'dt'."]


def test_other_notices(ctx):
    assert "Game 'dt' has been paused by the Master." in game_state_mail(ctx, "paused").body
    assert game_state_mail(ctx, "terminated").subject == "XXXX:dt - S1901M Game Terminated"
    with pytest.raises(ValueError):
        game_state_mail(ctx, "exploded")
    later = replace(ctx, deadline=DEADLINE + timedelta(days=1))
    told = section("all/deadline_changed", game="dt", deadline=later.when(later.deadline), grace=None, wait_set=True)
    moved = settings_mail(later, [], [told])
    assert moved.subject == "XXXX:dt - S1901M Deadline Changed"
    assert moved.body.splitlines()[1] == ":: Deadline: S1901M Wed Jan 07 2004 23:30:00 +0000  "
    assert "Deadline for 'dt' changed to Wed Jan 07 2004 23:30:00 +0000." in moved.body
    assert "SET NOWAIT" in moved.body and "changed its settings" not in moved.body
    both = settings_mail(later, ["Press is white."], [told])
    assert both.subject.endswith("Settings Changed") and both.body.index("white") < both.body.index("Deadline for")
    assert "ejected p@x" in eject_mail(ctx, "p@x", ["Italy"]).body
    created = section("master/created", game="dt", master="gm@x", variant="Standard", powers=["Austria"],
                      settings=[])
    assert "SIGNON Mdt password" in created and "SIGNON ?dt password" in created
    assert joined_text(ctx, 1, 6).splitlines() == [
        "You've been selected to play a power in game 'dt'.",
        "You'll be notified when 6 more players sign on.",
        "Game 'dt' now has 1 player.",
    ]


def test_list_game_status_and_ownership_follow_bug91_11(ctx, m):
    position = initial_position(m)
    listing = Listing(position, DEADLINE, DEADLINE + timedelta(days=7), [("Press", "White.")],
                      [("Master", "", "master1@localhost"), ("Austria", "move", "player3@localhost")], ["Austria"],
                      tally=tally(load_board("standard"), position))
    lines = game_list_text(ctx, listing).splitlines()
    assert lines[0] == "Game 'dt' order #001 (S1901M) has a deadline of Tue Jan 06 2004 23:30:00 +0000."
    assert "   Austria    move                player3@localhost" in lines
    start = lines.index("Status of the Movement phase for Spring of 1901.  (dt.001)")
    assert lines[start + 2: start + 5] == ["Austria: Army Budapest.", "Austria: Army Vienna.", "Austria: Fleet Trieste."]
    own = lines.index("Ownership of supply centers:")
    assert lines[own - 2: own] == ["", ""]
    assert lines[own:] == [
        "Ownership of supply centers:",
        "",
        "Austria:   Budapest, Trieste, Vienna.",
        "England:   Edinburgh, Liverpool, London.",
        "France:    Brest, Marseilles, Paris.",
        "Germany:   Berlin, Kiel, Munich.",
        "Italy:     Naples, Rome, Venice.",
        "Russia:    Moscow, Sevastopol, St Petersburg, Warsaw.",
        "Turkey:    Ankara, Constantinople, Smyrna.",
        "Unowned:   Belgium, Bulgaria, Denmark, Greece, Holland, Norway, Portugal,",
        "           Rumania, Serbia, Spain, Sweden, Tunis.",
        "",
        "Austria:   3 Supply centers,  3 Units:  Builds   0 units.",
        "England:   3 Supply centers,  3 Units:  Builds   0 units.",
        "France:    3 Supply centers,  3 Units:  Builds   0 units.",
        "Germany:   3 Supply centers,  3 Units:  Builds   0 units.",
        "Italy:     3 Supply centers,  3 Units:  Builds   0 units.",
        "Russia:    4 Supply centers,  4 Units:  Builds   0 units.",
        "Turkey:    3 Supply centers,  3 Units:  Builds   0 units.",
    ]


def test_list_of_a_forming_game_and_of_all_games(ctx):
    text = game_list_text(ctx, Listing(None))
    assert "Game 'dt' is forming" in text and "Ownership" not in text
    lines = list_text([GameLine("dt", "Standard", "S1901M", "active", 7),
                       GameLine("new", "Oceania", None, "forming", 2, 5)]).splitlines()
    assert "  dt        Standard              S1901M  active     7" in lines
    assert "  new       Oceania               -       forming    2 (5 more needed)" in lines
    assert "no games" in list_text([])


def test_summary_has_a_row_per_phase(ctx):
    text = summary_text(ctx, Summary(Phase.parse("S1903M"), [(Phase.parse("S1902M"), {"Austria": 5, "Russia": 6}),
                                                            (Phase.parse("S1903M"), {"Austria": 7})]))
    lines = text.splitlines()
    assert "Phase     Aus  Eng  Fra  Ger  Ita  Rus  Tur" in lines
    assert "S1902M      5    0    0    0    0    6    0" in lines
    assert "S1903M      7    0    0    0    0    0    0" in lines


def test_history_pairs_date_and_subject_as_jdip_needs(ctx):
    archived = [
        (datetime(2004, 1, 7, 0, 0, 5, tzinfo=UTC), "XXXX:dt - S1901M Results", "::Judge...\nMovement results\n"),
        ("Thu, 08 Jan 2004 00:00:05 +0000", "XXXX:dt - F1901M Results", "body two"),
    ]
    body = reply_mail(ctx, "", [history_text(ctx, archived)], 0).body
    lines = body.splitlines()
    dates = [i for i, line in enumerate(lines) if line.startswith("Date: ")]
    assert len(dates) == 2
    for i in dates:
        assert re.match(r"^Subject: XXXX:dt - [SFW]\d{4}[MRB] Results$", lines[i + 1])
    assert lines[dates[0]] == "Date: Wed, 07 Jan 2004 00:00:05 +0000"
    assert body.index("Date: ") - body.index("::") < 7000


def test_every_help_topic_renders_and_unknown_topics_are_errors():
    topics = help_topics()
    assert {"index", "syntax", "commands", "master", "deadlines", "press", "variants"} <= set(topics)
    assert help_text(None) == help_text("INDEX")
    for topic in topics:
        assert help_text(topic).startswith(topic + ".")
    assert "Colonial" in help_text("variants") and "Oceania" in help_text("variants")
    for bad in ("nosuch", "../README", "index.txt/.."):
        with pytest.raises(HelpTopicError):
            help_text(bad)
    mail = help_mail(JUDGE, "nosuch")
    assert mail.subject == "Re: XXXX [Error Flag]"
    assert "There is no help file called 'nosuch'." in mail.body and "syntax" in mail.body
    assert help_mail(JUDGE, "press").subject == "Re: XXXX"


def test_help_index_lists_every_command_of_the_table():
    from judge.commands.table import TABLE

    index = help_text("index")
    for row in TABLE:
        if row.spellings and row.verb not in ("SET", "SET PRESS"):
            assert re.search(rf"\b{row.verb}\b", index), row.verb


def test_templates_are_strict_about_missing_values():
    env = environment()
    names = [n for n in env.list_templates(extensions=["j2"]) if n.split("/")[0] in ("all", "player", "master")]
    assert len(names) > 20
    for name in names:
        env.get_template(name)  # every template parses
    with pytest.raises(UndefinedError):
        render("player/preference.txt.j2")
    assert (templates_dir() / "all" / "results.txt.j2").is_file()


def test_list_in_a_retreat_phase_shows_the_dislodged_units(m):
    from judge.engine import Position

    pos = Position.from_json(m, {
        "phase": "F1901R",
        "units": {"Germany": ["A war"], "Austria": ["A vie"]},
        "dislodged": {"Russia": [{"unit": "A war", "retreats": ["lvn", "mos"]}]},
        "centres": {"Russia": ["war"]},
    })
    ctx = GameContext(judge_code="XXXX", judge_address="j@x", game="dt", m=m, tz=ZoneInfo("UTC"),
                      phase=pos.phase, deadline=DEADLINE, seq=4)
    lines = game_list_text(ctx, Listing(pos, DEADLINE)).splitlines()
    i = lines.index("Status of the Retreat phase for Fall of 1901.  (dt.004)")
    assert lines[i + 2:i + 9] == [
        "Austria: Army Vienna.", "", "Germany: Army Warsaw.", "",
        "The following units were dislodged:", "",
        "The Russian Army in Warsaw can retreat to Livonia or Moscow.",
    ]
