"""The game layer through handle_mail on a real SQLite file: joining, orders, processing."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_game_helpers import Judge, password_of, start_standard

from judge.store.games import ACTIVE, FORMING


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}")


def test_create_and_join(judge: Judge) -> None:
    reply = judge.reply("gm@example.org", "create ?dt gmpw standard")
    assert "created" in reply.body and "[Error Flag]" not in reply.subject
    assert judge.game("dt").status == FORMING
    reply = judge.reply("p0@example.org", "signon ?dt pw0\nset preference E")
    assert "Preference list 'E' set." in reply.body


def test_game_starts_with_preferences(judge: Judge) -> None:
    powers = start_standard(judge)
    game = judge.game("dt")
    assert game.status == ACTIVE and game.phase == "S1901M" and game.deadline is not None
    assert powers == {"Austria": "p0@example.org", "England": "p1@example.org", "France": "p2@example.org",
                      "Germany": "p3@example.org", "Italy": "p4@example.org", "Russia": "p5@example.org",
                      "Turkey": "p6@example.org"}


def test_start_mail_to_everyone(judge: Judge) -> None:
    judge.mail("gm@example.org", "create ?dt gmpw")
    judge.observe("obs@example.org", "dt", "secret")
    for i in range(6):
        judge.mail(f"p{i}@example.org", f"signon ?dt pw{i}")
    rows = judge.mail("p6@example.org", "signon ?dt pw6")
    starts = [r for r in rows if r.kind == "start"]
    assert len(starts) == 9
    assert any("You have been selected as Observer in game 'dt'" in r.body for r in starts)
    assert sum(1 for r in rows if r.kind == "reply") == 1


def test_wrong_password_changes_nothing(judge: Judge) -> None:
    start_standard(judge)
    reply = judge.reply("p2@example.org", "signon Fdt wrong\nA par - bur")
    assert "Invalid password or power ID specified." in reply.body
    assert "---- Original message follows:" in reply.body
    reply = judge.reply("x@example.org", "signon Fnosuch pw")
    assert "Invalid password or power ID specified." in reply.body


def test_orders_echo_and_errors(judge: Judge) -> None:
    start_standard(judge)
    pw = password_of(judge, "dt", "France")
    reply = judge.reply("p2@example.org", f"signon Fdt {pw}\nA par - bur\nF bre - xyz\nA mar - spa")
    assert "[Error Flag]" in reply.subject
    assert "Army Paris -> Burgundy." in reply.body
    assert "Fleet Brest, No Order Processed." in reply.body
    assert "1 error" in reply.body
    reply = judge.reply("p2@example.org", f"signon Fdt {pw}\nA par - pic\nF bre - mao")
    assert "Army Paris -> Picardy." in reply.body and "Burgundy" not in reply.body
    assert "Orders received for all units of France." in reply.body
    assert "[Error Flag]" not in reply.subject


def test_master_process_and_results(judge: Judge) -> None:
    start_standard(judge)
    pw = password_of(judge, "dt", "France")
    judge.mail("p2@example.org", f"signon Fdt {pw}\nA par - bur\nF bre - mao\nA mar s A par - bur")
    rows = judge.mail("gm@example.org", "signon Mdt gmpw\nprocess")
    results = [r for r in rows if r.kind == "result"]
    assert len(results) == 8
    assert "France: Army Paris -> Burgundy." in results[0].body
    game = judge.game("dt")
    assert game.phase == "F1901M" and game.seq == 2


def test_non_master_cannot_process(judge: Judge) -> None:
    start_standard(judge)
    pw = password_of(judge, "dt", "France")
    reply = judge.reply("p2@example.org", f"signon Fdt {pw}\nprocess")
    assert "[Error Flag]" in reply.subject and "Only the master" in reply.body
    assert judge.game("dt").phase == "S1901M"


def test_all_orders_in_processes_at_once(judge: Judge) -> None:
    powers = start_standard(judge)
    for power, email in powers.items():
        judge.mail(email, f"signon {power[0]}dt {password_of(judge, 'dt', power)}\nset wait" if power == "Turkey"
                   else f"signon {power[0]}dt {password_of(judge, 'dt', power)}\n" + _holds(judge, power))
    assert judge.game("dt").phase == "S1901M"
    rows = judge.mail(powers["Turkey"], f"signon Tdt {password_of(judge, 'dt', 'Turkey')}\n"
                      + _holds(judge, "Turkey") + "\nset nowait")
    assert any(r.kind == "result" for r in rows)
    assert judge.game("dt").phase == "F1901M"


def test_deadline_processes_once(judge: Judge) -> None:
    start_standard(judge)
    assert judge.tick("dt") is True
    assert judge.game("dt").phase == "F1901M"
    assert judge.tick("dt", hours=0) is False


def _holds(judge: Judge, power: str) -> str:
    from judge.engine import Position
    from judge.game.view import board_for

    game = judge.game("dt")
    position = Position.from_json(board_for(game.map_name, game.options).map, game.position)
    return "\n".join(f"{u.type} {u.location} h" for u in position.units_of(power))
