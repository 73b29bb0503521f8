"""A DIAS draw over real SMTP: six players vote and nobody else hears of it; the seventh
vote ends the game and everyone is told it was declared a draw."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game

live = harness.live
GM = "gm@players.test"


def test_every_survivor_votes_and_the_game_is_drawn(live: LiveJudge) -> None:
    powers = start_game(live, "drw")
    names = list(powers)
    for power in names[:-1]:
        reply = live.reply(powers[power], f"signon {power[0]}drw pw\nset draw")
        assert "Your vote for a draw" in reply.body and "[Error Flag]" not in reply.subject
    live.quiet()
    last = names[-1]
    mails = live.mail(powers[last], f"signon {last[0]}drw pw\nset draw", expect=1 + 8)
    notices = [m for m in mails if m.subject == "E2E:drw - S1901M Draw Declared"]
    assert sorted(m.to for m in notices) == sorted([GM, *powers.values()])
    assert ("The game was declared a draw between Austria, England, France, Germany, Italy,\nRussia and "
            "Turkey.") in notices[0].body
    reply = live.reply(powers["France"], "signon Fdrw pw\nA par - bur")
    assert "Game 'drw' is over: you can no longer give orders." in reply.body


def _vote(live: LiveJudge, powers: dict[str, str], power: str, game: str, text: str, expect: int = 1) -> list:
    return live.mail(powers[power], f"signon {power[0]}{game} pw\n{text}", expect=expect)


def test_a_nodias_draw_leaves_out_a_survivor_and_the_final_mail_is_archived(live: LiveJudge) -> None:
    powers = start_game(live, "nod")
    mails = live.mail(GM, "signon Mnod gmpw\nset nodias", expect=1 + 8)
    assert sum("Game 'nod' is NoDIAS" in m.body and m.subject.endswith("Settings Changed") for m in mails) == 8
    names = list(powers)
    without_turkey = "AEFGIR"
    for power in names[:-2]:
        reply = _vote(live, powers, power, "nod", f"set draw {without_turkey}")[0]
        assert "accepts a draw between Austria, England, France, Germany, Italy and Russia" in reply.body.replace(
            "\n", " "), reply.body
    reply = _vote(live, powers, "Turkey", "nod", "set draw AEFGIR")[0]
    assert "with or without Turkey" in reply.body.replace("\n", " ")
    live.quiet()
    mails = _vote(live, powers, "Russia", "nod", "set draw AEFGIRT", expect=1 + 8)
    ended = [m for m in mails if m.subject == "E2E:nod - S1901M Draw Declared"]
    assert sorted(m.to for m in ended) == sorted([GM, *powers.values()])
    body = ended[0].body
    assert "The game was declared a draw between Austria, England, France, Germany, Italy\nand Russia." in body
    assert "Who played each power" in body and "turkey@players.test" in body
    history = live.reply("obs@players.test", "history nod exclstart S2999M").body
    assert "Subject: E2E:nod - S1901M Draw Declared" in history and "Subject: E2E:nod - S1901M Game Starting" in history
    assert "Settings Changed" not in history, "notices only with BROAD"
    assert "Settings Changed" in live.reply("obs@players.test", "history nod exclstart S2999M broad").body
    summary = live.reply("obs@players.test", "summary nod").body
    assert "Game 'nod' is over: it was declared a draw between Austria, England, France, Germany, Italy" in summary


def test_a_concession_in_a_gunboat_game(live: LiveJudge) -> None:
    live.reply(GM, "create ?gun gmpw standard\nset gunboat")
    powers = {}
    from judge.maps import load_map

    m = load_map("standard")
    for i, pw in enumerate(m.powers):
        address = f"{pw.name.lower()}@players.test"
        powers[pw.name] = address
        last = i == len(m.powers) - 1
        live.mail(address, f"signon ?gun pw\nset preference {pw.letter}", expect=1 + (8 if last else 0))
    reply = _vote(live, powers, "England", "gun", "set concede Austria")[0]
    assert "You may concede only to the largest power (Russia), not to Austria." in reply.body
    for power in [p for p in powers if p != "Russia"][:-1]:
        reply = _vote(live, powers, power, "gun", "set concede R")[0]
        assert "Your vote to concede game 'gun' to Russia is recorded." in reply.body
    live.quiet()
    mails = _vote(live, powers, "Turkey", "gun", "set conc russia", expect=1 + 8)
    ended = [m for m in mails if m.subject == "E2E:gun - S1901M Concession"]
    assert len(ended) == 8
    for mail in ended:
        assert "austria@players.test" in mail.body, "the game is over: its players are revealed (njudge REVEAL)"
    assert "The game was conceded to Russia." in ended[0].body
