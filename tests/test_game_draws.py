"""Draws: every surviving power votes SET DRAW and the game ends in a DIAS draw; SET NO DRAW
withdraws a vote; votes are secret and cleared each phase; only players can vote."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_game_helpers import Judge, as_power, start_standard

from judge.store.games import ACTIVE, FINISHED, find_game

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}")


def test_all_survivors_vote_and_the_game_is_drawn(judge: Judge) -> None:
    start_standard(judge)
    for power in POWERS[:-1]:
        rows = as_power(judge, power, "set draw")
        assert [r.kind for r in rows] == ["reply"], "votes are secret"
        assert "Your vote for a draw" in rows[0].body and "[Error Flag]" not in rows[0].subject
    assert judge.game("dt").status == ACTIVE
    rows = as_power(judge, "Turkey", "set draw")
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
    as_power(judge, "France", "set draw")
    reply = as_power(judge, "France", "set no draw")[0]
    assert "You no longer vote for a draw" in reply.body
    for power in POWERS:
        if power != "France":
            as_power(judge, power, "set draw")
    assert judge.game("dt").status == ACTIVE, "France withdrew"
    assert judge.tick("dt") is True
    assert not any(p.draw_vote for p in judge.game("dt").players)


def test_only_players_vote_and_abandoned_powers_hold_the_draw_up(judge: Judge) -> None:
    start_standard(judge)
    judge.observe("obs@example.org", "dt", "opw")
    reply = judge.reply("obs@example.org", "signon Odt opw\nset draw")
    assert "Observers cannot vote for a draw." in reply.body and "[Error Flag]" in reply.subject
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset draw")
    assert "The master cannot vote for a draw; only players can." in reply.body
    assert "is DIAS: a draw includes every surviving power" in as_power(judge, "Italy", "set draw AEI")[0].body
    as_power(judge, "Turkey", "resign")
    for power in POWERS[:-1]:
        as_power(judge, power, "set draw")
    assert judge.game("dt").status == ACTIVE


def _only(judge: Judge, survivors: dict[str, list[str]]) -> None:
    """Make the position one where only ``survivors`` (power -> units) are left, each with
    the centres its units stand on."""
    with judge.factory() as s, s.begin():
        game = find_game(s, "dt")
        assert game is not None
        centres = {power: [u.split()[1] for u in units] for power, units in survivors.items()}
        game.position = {"phase": "S1905M", "units": survivors, "centres": centres}
        game.phase = "S1905M"


AEF = {"Austria": ["A vie", "A bud"], "England": ["F lon"], "France": ["A par"]}


def _nodias(judge: Judge) -> None:
    start_standard(judge)
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset nodias")
    assert "Game 'dt' is NoDIAS" in reply.body
    _only(judge, AEF)


@pytest.mark.parametrize(("votes", "how", "winners"), [
    # the examples of njudge's data/draws, Austria, England and France the only survivors
    ({"France": "set draw AEF", "England": "set draw AEF", "Austria": "set draw AEF"}, "draw",
     ["Austria", "England", "France"]),
    ({"France": "set draw AE", "England": "set draw AEF", "Austria": "set draw AEF"}, "draw",
     ["Austria", "England", "France"]),
    ({"France": "set draw AE", "England": "set draw AEF", "Austria": "set draw AE"}, "draw", ["Austria", "England"]),
    ({"France": "set draw AEF", "England": "set draw AE", "Austria": "set draw AE"}, None, []),
    ({"France": "set draw A", "England": "set draw A", "Austria": "set no draw"}, "concession", ["Austria"]),
])
def test_nodias_draws_as_njudge_describes_them(judge: Judge, votes: dict[str, str], how: str | None,
                                               winners: list[str]) -> None:
    _nodias(judge)
    for power, vote in votes.items():
        rows = as_power(judge, power, vote)
        assert "[Error Flag]" not in rows[0].subject, rows[0].body
    game = judge.game("dt")
    assert game.ending == how and game.winners == winners
    assert game.status == (FINISHED if how else ACTIVE)


def test_each_vote_says_what_it_means(judge: Judge) -> None:
    _nodias(judge)
    body = as_power(judge, "Austria", "set draw AEG")[0].body
    assert "accepts a draw between Austria and England, or between\nfewer of them as long as Austria is one" in body
    assert "Germany no longer survives and does not count." in body
    body = as_power(judge, "England", "set draw Austria, France")[0].body
    assert "accepts a draw between Austria and France, or between any of them, with or without England" \
        in " ".join(body.split())
    assert max(len(line) for line in body.splitlines()) <= 78
    body = as_power(judge, "France", "set no draw")[0].body
    assert "accepts no draw, only a concession of the game to\nFrance." in body
    assert "Votes are secret until the game ends" in body
    reply = as_power(judge, "France", "set draw AXQ")[0]
    assert "Cannot read 'AXQ' as powers" in reply.body and "[Error Flag]" in reply.subject
    reply = as_power(judge, "France", "set concede Austria")[0]
    assert "is NoDIAS: concede with a one-way draw" in reply.body


def test_a_survivor_without_a_vote_holds_up_a_nodias_draw(judge: Judge) -> None:
    _nodias(judge)
    as_power(judge, "Austria", "set draw AE")
    rows = as_power(judge, "England", "set draw AE")
    assert [r.kind for r in rows] == ["reply"], "nobody hears of the votes"
    assert judge.game("dt").status == ACTIVE, "France has not voted"
    rows = as_power(judge, "France", "set draw AE")
    assert "Your vote was the last one needed: the game was declared a draw between\nAustria and England." in (
        rows[-1].body if rows[-1].kind == "reply" else next(r for r in rows if r.kind == "reply").body)
    ending = [r for r in rows if r.kind == "ending"]
    assert len(ending) == 8 and "Every surviving power's draw vote allowed this draw" in ending[0].body


def test_concessions_in_a_dias_game(judge: Judge) -> None:
    start_standard(judge)
    _only(judge, {"Austria": ["A vie", "A bud", "A tri"], "England": ["F lon"], "France": ["A par"]})
    reply = as_power(judge, "England", "set concede France")[0]
    assert "You may concede only to the largest power (Austria), not to France." in reply.body
    reply = as_power(judge, "Austria", "set concede Austria")[0]
    assert "You cannot concede the game to yourself." in reply.body
    reply = as_power(judge, "England", "set conc A")[0]
    assert "Your vote to concede game 'dt' to Austria is recorded." in reply.body
    rows = as_power(judge, "France", "set concede austria")
    reply = next(r for r in rows if r.kind == "reply")
    assert "the game was conceded to Austria." in reply.body
    ending = [r for r in rows if r.kind == "ending"]
    assert ending[0].subject == "TEST:dt - S1905M Concession"
    assert "The game was conceded to Austria." in ending[0].body
    assert "Every other surviving power conceded the game to Austria" in ending[0].body
    game = judge.game("dt")
    assert (game.status, game.ending, game.winners) == (FINISHED, "concession", ["Austria"])


def test_no_concessions_and_votes_taken_back(judge: Judge) -> None:
    start_standard(judge)
    _only(judge, {"Austria": ["A vie", "A bud", "A tri"], "England": ["F lon"], "France": ["A par"]})
    as_power(judge, "England", "set concede Austria")
    assert "You no longer concede game 'dt'." in as_power(judge, "England", "set no concede")[0].body
    as_power(judge, "France", "set concede Austria")
    assert judge.game("dt").status == ACTIVE, "England took its concession back"
    rows = judge.mail("gm@example.org", "signon Mdt gmpw\nset noconcessions")
    notice = next(r for r in rows if r.kind == "notice")
    assert "Concessions are not allowed in game 'dt'." in notice.body
    reply = as_power(judge, "England", "set concede Austria")[0]
    assert "has turned concessions off (SET NOCONCESSIONS)" in reply.body and "[Error Flag]" in reply.subject


def test_changing_dias_drops_the_votes(judge: Judge) -> None:
    start_standard(judge)
    for power in POWERS[:-1]:
        as_power(judge, power, "set draw")
    rows = judge.mail("gm@example.org", "signon Mdt gmpw\nset nodias")
    notice = next(r for r in rows if r.kind == "notice")
    assert "The draw votes already cast in this phase were dropped" in notice.body
    assert not any(p.draw_vote for p in judge.game("dt").players)
    as_power(judge, "Turkey", "set draw")
    assert judge.game("dt").status == ACTIVE
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset nodias")
    assert "was already set so" in reply.body
    assert all(r.kind == "reply" for r in judge.mail("gm@example.org", "signon Mdt gmpw\nset nodias"))


def _bot_plays_france(judge: Judge) -> None:
    as_power(judge, "France", "resign")
    reply = judge.reply("gm@example.org", "signon Mdt gmpw\nset bot france")
    assert "The judge's bot takes the seat of France" in reply.body


def test_a_power_the_bot_plays_does_not_vote_and_holds_no_dias_draw_up(judge: Judge) -> None:
    start_standard(judge)
    _only(judge, AEF)
    _bot_plays_france(judge)
    as_power(judge, "Austria", "set draw")
    rows = as_power(judge, "England", "set draw")
    game = judge.game("dt")
    assert (game.status, game.ending, game.winners) == (FINISHED, "draw", ["Austria", "England", "France"])
    ending = next(r for r in rows if r.kind == "ending")
    assert "Every surviving power with a player voted for the draw" in ending.body
    assert "France, played by the judge's bot, had no vote." in " ".join(ending.body.split())


def test_a_game_is_conceded_by_the_powers_with_players_even_to_the_bots(judge: Judge) -> None:
    start_standard(judge)
    _only(judge, {"Austria": ["A vie", "A bud", "A tri"], "England": ["F lon"], "France": ["A par"]})
    _bot_plays_france(judge)
    rows = as_power(judge, "England", "set concede Austria")
    game = judge.game("dt")
    assert (game.status, game.ending, game.winners) == (FINISHED, "concession", ["Austria"])
    assert "France, played by the judge's bot, had no vote." in " ".join(
        next(r for r in rows if r.kind == "ending").body.split())

    start_standard(judge, "du")
    with judge.factory() as s, s.begin():
        row = find_game(s, "du")
        assert row is not None
        row.position = {"phase": "S1905M", "units": {"Austria": ["A vie"], "France": ["A par", "A mar"]},
                        "centres": {"Austria": ["vie"], "France": ["par", "mar"]}}
        row.phase = "S1905M"
    as_power(judge, "France", "resign", name="du")
    judge.reply("gm@example.org", "signon Mdu gmpw\nset bot france")
    as_power(judge, "Austria", "set concede France", name="du")
    assert judge.game("du").winners == ["France"], "conceded to the bot's power"


def test_a_nodias_draw_leaves_out_the_bots_power_unless_every_voter_names_it(judge: Judge) -> None:
    _nodias(judge)
    _bot_plays_france(judge)
    as_power(judge, "Austria", "set draw AE")
    as_power(judge, "England", "set draw AEF")
    assert judge.game("dt").winners == ["Austria", "England"]


def test_a_person_alone_with_the_bots_cannot_draw_and_bots_alone_are_not_ended_by_votes(judge: Judge) -> None:
    start_standard(judge)
    _only(judge, {"Austria": ["A vie"], "France": ["A par"], "Germany": ["A ber"]})
    _bot_plays_france(judge)
    as_power(judge, "Germany", "resign")
    judge.reply("gm@example.org", "signon Mdt gmpw\nset bot germany")
    as_power(judge, "Austria", "set draw")
    assert judge.game("dt").status == ACTIVE, "a draw is agreed by two players at least: the bot agrees to none"
    judge.reply("gm@example.org", "signon Mdt gmpw\nset nodias")
    as_power(judge, "Austria", "set draw A")
    assert judge.game("dt").status == ACTIVE, "nor a one-way draw to the lone player"
    as_power(judge, "Austria", "resign")
    judge.reply("gm@example.org", "signon Mdt gmpw\nset bot austria")
    assert judge.game("dt").status == ACTIVE
