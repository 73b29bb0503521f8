"""Draws: every surviving power votes SET DRAW and the game ends in a DIAS draw; SET NO DRAW
withdraws a vote; votes are secret and cleared each phase; only players can vote."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_game_helpers import STANDARD_LETTERS, Judge, password_of, start_standard

from judge.store.games import ACTIVE, FINISHED

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}")


def _as(judge: Judge, power: str, text: str) -> list:
    i = POWERS.index(power)
    return judge.mail(f"p{i}@example.org", f"signon {STANDARD_LETTERS[i]}dt {password_of(judge, 'dt', power)}\n{text}")


def test_all_survivors_vote_and_the_game_is_drawn(judge: Judge) -> None:
    start_standard(judge)
    for power in POWERS[:-1]:
        rows = _as(judge, power, "set draw")
        assert [r.kind for r in rows] == ["reply"], "votes are secret"
        assert "Your vote for a draw" in rows[0].body and "[Error Flag]" not in rows[0].subject
    assert judge.game("dt").status == ACTIVE
    rows = _as(judge, "Turkey", "set draw")
    reply = next(r for r in rows if r.kind == "reply")
    assert "the last one needed" in reply.body
    notices = [r for r in rows if r.kind == "ending"]
    assert len(notices) == 8 and all(r.subject == "TEST:dt - S1901M Draw Declared" for r in notices)
    assert ("The game was declared a draw between Austria, England, France, Germany, Italy,\nRussia and "
            "Turkey.") in notices[0].body
    game = judge.game("dt")
    assert game.status == FINISHED and game.winners == POWERS and game.deadline is None
    assert judge.tick("dt") is False


def test_no_draw_withdraws_and_votes_clear_each_phase(judge: Judge) -> None:
    start_standard(judge)
    _as(judge, "France", "set draw")
    reply = _as(judge, "France", "set no draw")[0]
    assert "You no longer vote for a draw" in reply.body
    for power in POWERS:
        if power != "France":
            _as(judge, power, "set draw")
    assert judge.game("dt").status == ACTIVE, "France withdrew"
    assert judge.tick("dt") is True
    assert not any(p.draw_vote for p in judge.game("dt").players)


def test_only_players_vote_and_abandoned_powers_hold_the_draw_up(judge: Judge) -> None:
    start_standard(judge)
    judge.mail("obs@example.org", "observe dt opw")
    reply = judge.reply("obs@example.org", "signon Odt opw\nset draw")
    assert "Observers cannot vote for a draw." in reply.body and "[Error Flag]" in reply.subject
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset draw")
    assert "The master cannot vote for a draw; only players can." in reply.body
    assert "is DIAS: a draw includes every surviving power" in _as(judge, "Italy", "set draw AEI")[0].body
    _as(judge, "Turkey", "resign")
    for power in POWERS[:-1]:
        _as(judge, power, "set draw")
    assert judge.game("dt").status == ACTIVE
