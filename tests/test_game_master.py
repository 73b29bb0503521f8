"""Master commands, resignation, the end of a game, and processing once under concurrency."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from test_game_helpers import Judge, password_of, start_standard

from judge.game.processing import process_game
from judge.store.games import FINISHED, PAUSED, TERMINATED, find_game


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}")


def test_pause_resume_terminate(judge: Judge) -> None:
    start_standard(judge)
    rows = judge.mail("gm@example.org", "signon Mdt gmpw\npause")
    assert judge.game("dt").status == PAUSED and sum(r.kind == "notice" for r in rows) == 8
    assert judge.tick("dt") is False
    reply = judge.reply("p2@example.org", f"signon Fdt {password_of(judge, 'dt', 'France')}\nA par - bur")
    assert "paused" in reply.body and "[Error Flag]" in reply.subject
    judge.mail("gm@example.org", "signon Mdt gmpw\nresume")
    game = judge.game("dt")
    assert game.status == "active" and game.deadline is not None and game.deadline > judge.now
    judge.mail("gm@example.org", "signon Mdt gmpw\nterminate")
    assert judge.game("dt").status == TERMINATED


def test_resign_and_eject(judge: Judge) -> None:
    start_standard(judge)
    rows = judge.mail("p2@example.org", f"signon Fdt {password_of(judge, 'dt', 'France')}\nresign")
    notices = [r for r in rows if r.kind == "notice"]
    assert notices and "France" in notices[0].subject
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\neject Germany\neject nobody")
    assert "[Error Flag]" in reply.subject and "1 error" in reply.body
    statuses = {p.power: p.status for p in judge.game("dt").players if p.power}
    assert statuses["France"] == "resigned" and statuses["Germany"] == "ejected"


def test_set_option_and_bad_option(judge: Judge) -> None:
    judge.mail("gm@example.org", "create ?dt gmpw")
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset option nosuchoption=1")
    assert "[Error Flag]" in reply.subject


def test_victory_ends_the_game(judge: Judge) -> None:
    start_standard(judge)
    with judge.factory() as s, s.begin():
        game = find_game(s, "dt")
        assert game is not None
        centres = ["bre", "par", "mar", "spa", "por", "gre", "hol", "lon", "lvp", "edi", "nwy", "den",
                   "kie", "ber", "mun", "tun", "nap"]
        game.phase = "F1901M"
        game.position = {"phase": "F1901M", "units": {"France": ["A bur", "A ruh"], "Italy": ["A rom"]},
                         "centres": {"France": centres, "Italy": ["rom"]}}
    judge.mail("p2@example.org", f"signon Fdt {password_of(judge, 'dt', 'France')}\nA bur - bel")
    rows = judge.mail("gm@example.org", "signon Mdt gmpw\nprocess")
    results = [r for r in rows if r.kind == "result"]
    assert results and "France" in results[0].body
    ending = [r for r in rows if r.kind == "ending"]
    assert len(ending) == 8 and ending[0].subject == "TEST:dt - F1901M Game Over"
    assert "Game 'dt' is over: France won a solo victory in the Fall 1901 Movement phase." in ending[0].body
    assert "through Fall 1901 Movement." in ending[0].body and "S1901M to F1901M" in ending[0].body
    game = judge.game("dt")
    assert game.status == FINISHED and game.winners == ["France"] and game.deadline is None
    reply = judge.reply("p2@example.org", f"signon Fdt {password_of(judge, 'dt', 'France')}\nA bur h")
    assert "Game 'dt' is over: you can no longer give orders." in reply.body


def test_a_phase_is_processed_once(migrated_url: str) -> None:
    judge = Judge(migrated_url)
    start_standard(judge)
    judge.now = judge.now.replace(year=judge.now.year + 1)
    outcomes: list[bool] = []
    barrier = threading.Barrier(3)

    def run() -> None:
        barrier.wait()
        with judge.factory() as s, s.begin():
            outcomes.append(process_game(s, judge.config, "dt", judge.now))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == [False, False, True]
    assert judge.game("dt").phase == "F1901M"
    judge.engine.dispose()


def test_options_before_the_start_and_in_play(judge: Judge) -> None:
    """Before the start any option of the game's map may be set; in play only the variant
    switches that settle one ambiguity, never a DATC choice (njudge's 'bgs' switches)."""
    judge.mail("gm@example.org", "create ?dt gmpw")
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset option paradox_rule=1982")
    assert "[Error Flag]" not in reply.subject, reply.body
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset option hop_supports=no")
    assert "Option hop_supports is for Oceania games only" in reply.body
    start_standard(judge, "dt2")
    reply = judge.reply("gm@example.org", "signon Mdt2 gmpw\nset option paradox_rule=2000")
    assert "one of the DATC choices every phase of the game is judged by" in reply.body
    assert judge.game("dt2").options == {}
