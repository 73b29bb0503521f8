"""Orders entered in advance (njudge data/syntax, "SUBMITTING ORDERS IN ADVANCE" and
"CONDITIONAL ORDERS"): PHASE, IF/ELSE/ENDIF, CLEAR, SET WAIT for a later phase; checked at
entry, kept, applied when the phase starts, and mailed to the player as they read then."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from test_game_helpers import HOLDS, Judge, signon_of, start_standard

from judge.engine import initial_position
from judge.game.conditions import ConditionError, holds, read_condition, read_lines
from judge.maps import load_map
from judge.store.held import FutureOrders
from judge.store.mail import OutboxMessage

FRANCE = "p2@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    j = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(j)
    return j


def _mail(judge: Judge, power: str, text: str) -> list[OutboxMessage]:
    address, signon = signon_of(judge, power)
    return judge.mail(address, signon + text)


def _reply(rows: list[OutboxMessage]) -> OutboxMessage:
    return next(r for r in rows if r.kind == "reply")


def _everyone_holds(judge: Judge, skip: tuple[str, ...] = ()) -> list[OutboxMessage]:
    rows: list[OutboxMessage] = []
    for power, orders in HOLDS.items():
        if power not in skip:
            rows.extend(_mail(judge, power, orders))
    return rows


def _kept(judge: Judge) -> list[FutureOrders]:
    with judge.factory() as s:
        return list(s.scalars(select(FutureOrders).order_by(FutureOrders.id)))


# -- conditions -----------------------------------------------------------------------------------


def test_conditions_read_as_njudge_writes_them() -> None:
    m = load_map("standard")
    start = initial_position(m)
    njudge = read_condition(m, "NOT French Army Ruhr AND (Russian Prussia OR Russian Silesia)")
    assert holds(njudge, start) is False  # nobody in Prussia or Silesia
    assert holds(read_condition(m, "Ru Army Moscow"), start)
    assert holds(read_condition(m, "fleet St Petersburg then"), start)
    assert not holds(read_condition(m, "army stp"), start)
    assert holds(read_condition(m, "paris french"), start)  # any order
    assert holds(read_condition(m, "not german par or english lon"), start)
    assert not holds(read_condition(m, "english lon and (german par"), start)  # the line end closes it
    # left to right: (lon OR par) AND NOT lon
    assert not holds(read_condition(m, "lon or par and not lon"), start)
    for bad in ("", "AND lon", "French", "lon lon", "army"):
        with pytest.raises(ConditionError):
            read_condition(m, bad)


def test_a_condition_names_a_power_of_two_words() -> None:
    """Oceania's New Zealand, by name or adjective, and Marshall Islands (the soak's seed 17)."""
    m = load_map("oceania")
    start = initial_position(m)
    nz = next(u.location for u in start.units.values() if u.power == "New Zealand")
    assert holds(read_condition(m, f"New Zealander {nz}"), start)
    assert holds(read_condition(m, f"new zealand army {nz} or fleet {nz}"), start)
    assert not holds(read_condition(m, f"Marshall Islands {nz}"), start)


def test_the_structure_and_its_errors() -> None:
    m = load_map("standard")
    reading = read_lines(m, ["IF lon", "A par - bur", "ELSE IF mos", "IF nothing here", "ENDIF", "ELSE",
                             "A par h", "ELSE", "ENDIF", "ENDIF", "IF par"])
    assert reading.errors == {3: ["In the condition 'nothing here': Unrecognized province 'nothing'."],
                              7: ["ELSE after ELSE."], 9: ["ENDIF without IF."]}
    assert len(reading.items) == 2  # the IF ... ENDIF and the IF left open at the end


# -- entering ------------------------------------------------------------------------------------


def test_orders_for_a_later_phase_are_kept_and_echoed(judge: Judge) -> None:
    rows = _mail(judge, "France", "phase fall 1901 movement\nif french army burgundy\n  A bur - mun\nelse\n"
                                  "  A par - bur\nendif\nset wait")
    reply = _reply(rows)
    assert "[Error Flag]" not in reply.subject, reply.body
    body = reply.body
    assert "PHASE F1901M: the orders after it are kept for the Fall 1901 Movement" in body
    assert "> if french army burgundy" in body and "Kept for the Fall 1901 Movement (F1901M): 5 lines in all." in body
    assert "SET WAIT is kept for F1901M" in body
    assert [r.kind for r in rows] == ["reply"]  # nobody else is told
    kept = _kept(judge)
    assert [(k.power, k.phase, k.wait) for k in kept] == [("France", "F1901M", True)]
    assert kept[0].lines == ["if french army burgundy", "A bur - mun", "else", "A par - bur", "endif"]
    assert judge.game("dt").phase == "S1901M"
    # a reply to later orders for the current phase lists what is kept
    body = _reply(_mail(judge, "France", "A par - bur")).body
    assert "Orders you have entered in advance (CLEAR drops them):" in body
    assert "Fall 1901 Movement (F1901M), with SET WAIT:" in body and "    A bur - mun" in body


@pytest.mark.parametrize(("text", "error"), [
    ("phase spring 1900 movement\nA par - bur", "Spring 1900 Movement is past"),
    ("phase fall 1907 movement\nA par - bur", "at most 5 years ahead"),
    ("phase sometime\nA par - bur", "Cannot read the phase 'sometime'"),
    ("phase spring 1902 adjustment\nA par - bur", "S1902B is no phase of this game's calendar"),
])
def test_a_phase_that_cannot_be_used_keeps_nothing(judge: Judge, text: str, error: str) -> None:
    reply = _reply(_mail(judge, "France", text))
    assert "[Error Flag]" in reply.subject and error in reply.body
    assert "Not kept: the PHASE line before this cannot be used" in reply.body
    assert _kept(judge) == []
    assert judge.game("dt").phase == "S1901M"


def test_errors_are_reported_at_entry_and_the_lines_kept(judge: Judge) -> None:
    body = _reply(_mail(judge, "France", "phase f1901m\nif french nowhere\nA par - mos\nelse\nelse\nA par - bur\n"
                                         "endif\nendif\nA lon - nth\nA bre - lon\nphase winter 1901\nA par\n"
                                         "build a par\nphase f1901r\nF nth - lon")).body
    assert "In the condition 'french nowhere': Unrecognized province 'nowhere'." in body
    assert "ELSE after ELSE." in body and "ENDIF without IF." in body
    assert "Army Paris cannot move to Moscow: it is not adjacent" in body
    assert "Error" not in body.split("> A lon - nth")[1].split("\n\n")[0]  # France may stand there by then
    assert "must say BUILD, REMOVE or WAIVE" in body
    after_build = body.split("> build a par")[1].split("\n\n")[0]
    assert "Error" not in after_build
    assert "Error" not in body.split("> A bre - lon")[1].split("\n\n")[0]  # by convoy
    assert "Error" not in body.split("> F nth - lon")[1].split("\n\n")[0]
    assert [k.phase for k in _kept(judge)] == ["F1901M", "F1901B", "F1901R"]


def test_conditions_belong_after_a_phase_line(judge: Judge) -> None:
    reply = _reply(_mail(judge, "France", "if french par\nA par - bur\nendif"))
    assert "[Error Flag]" in reply.subject
    assert reply.body.count("can only follow a PHASE line") == 2
    assert "France: Army Paris -> Burgundy." in reply.body  # the order between is taken


def test_a_phase_line_for_the_current_phase_gives_orders_now(judge: Judge) -> None:
    reply = _reply(_mail(judge, "France", "phase spring 1901 movement\nif english fleet london\n  A par - bur\n"
                                          "else\n  A par - pic\nendif"))
    assert "PHASE S1901M is the current phase" in reply.body
    assert "France: Army Paris -> Burgundy." in reply.body
    assert "Not used: the conditions above it do not hold now." in reply.body
    assert _kept(judge) == []


def test_clear_drops_what_was_entered(judge: Judge) -> None:
    _mail(judge, "France", "phase f1901m\nA par - bur\nphase f1901b\nbuild a par")
    body = _reply(_mail(judge, "France", "phase f1901b\nclear")).body
    assert "entered in advance for F1901B were dropped" in body
    assert [k.phase for k in _kept(judge)] == ["F1901M"]
    body = _reply(_mail(judge, "France", "clear")).body
    assert "entered in advance for F1901M were dropped" in body and _kept(judge) == []
    assert "You had no orders entered in advance: nothing was dropped." in _reply(_mail(judge, "France", "clear")).body


def test_clear_in_the_mail_that_entered_them_drops_them(judge: Judge) -> None:
    body = _reply(_mail(judge, "France", "phase f1901m\nA par - bur\nclear")).body
    assert "entered in advance for F1901M were dropped" in body
    assert _kept(judge) == []


def test_only_players_give_orders_for_later_phases(judge: Judge) -> None:
    reply = judge.reply("gm@example.org", "signon mdt gmpw\nphase f1901m\nA par - bur")
    assert "[Error Flag]" in reply.subject and "The master cannot give orders for a later phase" in reply.body
    assert "The master's orders are for the current phase" in reply.body
    assert _kept(judge) == []


# -- the phase comes -----------------------------------------------------------------------------


def test_kept_orders_become_the_orders_when_the_phase_starts(judge: Judge) -> None:
    _mail(judge, "France", "phase fall 1901 movement\nif french army burgundy\n  A bur - mun\nelse\n  A par - bur\n"
                           "endif\nF mao - spa/nc\nset wait")
    _everyone_holds(judge, skip=("France",))
    rows = _mail(judge, "France", "A par - bur\nA mar h\nF bre - mao")
    results = [r for r in rows if r.kind == "result"]
    assert len(results) == 8 and judge.game("dt").phase == "F1901M"
    private = [r for r in rows if r.kind == "private"]
    assert [r.to_addr for r in private] == [FRANCE]
    mail = private[0]
    assert mail.subject == "TEST:dt - F1901M Orders Entered in Advance: France"
    assert "[Error Flag]" not in mail.subject
    assert "France: Army Burgundy -> Munich." in mail.body and "France: Fleet Mid-Atlantic Ocean -> Spain (north coast)." in mail.body
    assert "Not used: the conditions above it do not hold now." in mail.body.split("> A par - bur")[1]
    assert rows.index(mail) > rows.index(results[-1])  # after the results
    game = judge.game("dt")
    assert next(p for p in game.players if p.power == "France").wait is True
    assert _kept(judge) == []


def test_orders_that_no_longer_read_are_mailed_with_their_errors(judge: Judge) -> None:
    _mail(judge, "France", "phase f1901m\nA bur - mun\nA spa - por")
    _everyone_holds(judge, skip=("France",))
    rows = _mail(judge, "France", "A par h\nA mar h\nF bre h")
    mail = next(r for r in rows if r.kind == "private")
    assert mail.subject.endswith("Orders Entered in Advance: France [Error Flag]")
    assert "2 lines could not be read" in " ".join(mail.body.split())
    assert "No unit in Burgundy." in mail.body and "No unit in Spain." in mail.body
    assert "France: Army Paris, No Order Processed." in mail.body


def test_a_phase_that_did_not_happen_drops_its_orders(judge: Judge) -> None:
    _mail(judge, "France", "phase spring 1901 retreat\nA par - gas")
    _everyone_holds(judge)
    rows = judge.since(0)
    mail = [r for r in rows if r.kind == "private"]
    assert len(mail) == 1 and "Spring 1901 Retreat were dropped" in mail[0].body
    assert "that phase did not happen" in mail[0].body
    assert _kept(judge) == []


def test_every_power_ordered_in_advance_processes_after_the_delay(judge: Judge) -> None:
    for power, orders in HOLDS.items():
        _mail(judge, power, f"phase fall 1901 movement\n{orders}")
    _everyone_holds(judge)
    game = judge.game("dt")
    assert game.phase == "F1901M" and game.process_at is not None and game.process_at <= judge.now
    assert judge.tick("dt", 0.01)
    assert judge.game("dt").phase == "F1901B" or judge.game("dt").phase == "S1902M"


def test_a_new_player_of_the_power_does_not_inherit_them(judge: Judge) -> None:
    _mail(judge, "France", "phase f1901m\nA par - bur")
    _mail(judge, "France", "resign")
    judge.mail("new@example.org", "signon Fdt newpw")
    for power, orders in HOLDS.items():
        if power != "France":  # the takeover placed a wait on every player (njudge)
            _mail(judge, power, f"{orders}\nset nowait")
    judge.mail("new@example.org", "signon Fdt newpw\nA par h\nA mar h\nF bre h\nset nowait")
    assert judge.game("dt").phase == "F1901M"
    assert not [r for r in judge.since(0) if r.kind == "private" and "Takeover" not in r.subject]
    assert _kept(judge) == []


def test_no_condition_nests_deep_enough_to_hurt(judge: Judge) -> None:
    deep = "if " + "(" * 5000 + "lon"
    chain = "if " + " and ".join(["lon"] * 5000)
    nots = "if " + "not " * 5000 + "lon"
    ifs = "\n".join(["if lon"] * 5000)
    rows = _mail(judge, "France", f"phase f1901m\n{deep}\n{chain}\n{nots}\n{ifs}\nA par - bur")
    body = _reply(rows).body
    assert "nests deeper than 20 levels" in body and "at most 50 tests" in body and "nest 20 deep at most" in body
    _everyone_holds(judge)
    assert judge.game("dt").phase == "F1901M"
    assert [r.kind for r in judge.since(0) if r.kind == "private"] == ["private"]
