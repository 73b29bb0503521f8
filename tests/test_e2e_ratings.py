"""Skill ratings over real SMTP (issue 26): games played by mail to a solo, a draw and a
concession move the ratings the right way (the winner up, the eliminated down, the members
of a draw by the same amount when their ratings were equal); RATING, RATINGS, WHOIS and LIST
show them; ``judge ratings rebuild`` gives exactly the values kept game by game, and
``judge ratings export`` the inputs to check them with.

Each game first plays Spring 1901 (every power holds, so every player has played a movement
phase), then its position is set to one close to the end (as the daily-life tests set
positions that take long to reach by play), and the end comes by mail.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import test_e2e_harness as harness
from sqlalchemy import delete, func, select
from test_e2e_daily import set_position
from test_e2e_harness import LiveJudge, start_game
from test_web import ArchiveServer

from judge.maps import load_map
from judge.store.base import make_engine, make_sessionmaker
from judge.store.mail import OutboxMessage
from judge.store.ratings import OVERALL, PlayerRating, RatedGame

live = harness.live
GM = "gm@players.test"
ROOT = Path(__file__).resolve().parent.parent
SOLO_CENTRES = ["bre", "par", "mar", "spa", "por", "gre", "hol", "lon", "lvp", "edi", "nwy", "den", "kie", "ber",
                "mun", "tun", "nap"]


def run(live: LiveJudge, sender: str, text: str) -> None:
    """Send a mail and wait until the judge has done everything it causes (the result mails
    held for their pictures too)."""
    live.send(sender, text)
    deadline = time.monotonic() + 30
    while True:
        live.settle()
        engine = make_engine(live.url)
        try:
            with make_sessionmaker(engine)() as s:
                held = s.scalar(select(func.count()).select_from(OutboxMessage).where(
                    OutboxMessage.status.in_(("held", "pending"))))
        finally:
            engine.dispose()
        if not held:
            break
        assert time.monotonic() < deadline, "the pictures were never made"
        live.relay.wait_for(len(live.relay.messages) + 1, timeout=0.1, strict=False)
    live.collect(len(live.relay.messages) - live._seen)


def spring_1901(live: LiveJudge, game: str) -> None:
    run(live, GM, f"signon M{game} gmpw\nprocess")
    assert live.phase(game) == "F1901M"


def ratings(live: LiveJudge, ladder: str = OVERALL) -> dict[str, tuple[float, float, int]]:
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            rows = s.query(PlayerRating).filter(PlayerRating.ladder == ladder).all()
            return {r.player: (r.mu, r.sigma, r.games) for r in rows}
    finally:
        engine.dispose()


def rated_games(live: LiveJudge) -> list[tuple[str, str, str | None]]:
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            return [(r.game, r.status, r.reason) for r in s.query(RatedGame).order_by(RatedGame.id)]
    finally:
        engine.dispose()


def judge_cli(live: LiveJudge, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    toml = tmp_path / "ratings.toml"
    toml.write_text(f'[judge]\ndata_dir = "{tmp_path / "cli"}"\n[database]\nurl = "{live.url}"\n')
    done = subprocess.run([sys.executable, "-m", "judge", "ratings", *args, "--config", str(toml)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def exported_games(live: LiveJudge, tmp_path: Path) -> list[tuple[str, object]]:
    return [(g["game"], g["seats"]) for g in json.loads(judge_cli(live, tmp_path, "export").stdout)["games"]]


def forget_rated_games(live: LiveJudge) -> None:
    """As on a judge whose games finished before it kept ratings."""
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s, s.begin():
            s.execute(delete(RatedGame))
    finally:
        engine.dispose()


def play_solo(live: LiveJudge, game: str = "sol", *, gunboat: bool = False) -> dict[str, str]:
    addresses = None
    if gunboat:
        live.reply(GM, f"create ?{game} gmpw standard\nset gunboat")
        addresses = [f"{p}.{game}@players.test" for p in ("austria", "england", "france", "germany", "italy",
                                                           "russia", "turkey")]
    powers = start_game(live, game, players=addresses, existing=gunboat)
    spring_1901(live, game)
    set_position(live, game, {"phase": "F1901M", "units": {"France": ["A bur", "A ruh"], "Italy": ["A rom"]},
                              "centres": {"France": SOLO_CENTRES, "Italy": ["rom"]}})
    run(live, powers["France"], f"signon F{game} pw\nA bur - bel\nA ruh h")
    run(live, GM, f"signon M{game} gmpw\nprocess")
    assert live.game_value(game, "winners") == ["France"]
    return powers


def play_draw(live: LiveJudge) -> dict[str, str]:
    addresses = [f"{p}2@players.test" for p in ("austria", "england", "france", "germany", "italy", "russia",
                                                 "turkey")]
    powers = start_game(live, "drw", players=addresses)
    spring_1901(live, "drw")
    set_position(live, "drw", {"phase": "F1901M", "units": {"France": ["A par"], "Germany": ["A ber"],
                                                            "Italy": ["A rom"]},
                               "centres": {"France": ["par"], "Germany": ["ber"], "Italy": ["rom"]}})
    for power in ("France", "Germany", "Italy"):
        run(live, powers[power], f"signon {power[0]}drw pw\nset draw")
    assert live.game_value("drw", "ending") == "draw"
    return powers


LATE = "england.late@players.test"


def play_concession(live: LiveJudge) -> dict[str, str]:
    """England's player resigns after Spring 1901 and a newcomer plays Fall 1901 and on: each
    played half of England's movement phases."""
    powers = start_game(live, "con")
    spring_1901(live, "con")
    run(live, powers["England"], "signon Econ pw\nresign")
    run(live, LATE, "signon Econ newpw")
    run(live, GM, "signon Mcon gmpw\nprocess")
    assert live.phase("con") == "S1902M"
    set_position(live, "con", {"phase": "S1902M",
                               "units": {"Russia": ["A mos", "A war", "F sev"], "England": ["F lon"],
                                         "Turkey": ["A con"]},
                               "centres": {"Russia": ["mos", "war", "sev", "stp"], "England": ["lon"],
                                           "Turkey": ["con"]}})
    run(live, LATE, "signon Econ newpw\nset concede R")
    run(live, powers["Turkey"], "signon Tcon pw\nset concede R")
    assert live.game_value("con", "ending") == "concession"
    return powers


def test_a_solo_a_draw_and_a_concession_move_the_ratings_and_a_rebuild_gives_the_same(
        live: LiveJudge, tmp_path: Path) -> None:
    fresh = 25.0
    solo = play_solo(live)
    after_solo = ratings(live)
    assert after_solo[solo["France"]][0] > fresh, "the winner goes up"
    for power in ("Austria", "England", "Germany", "Russia", "Turkey"):
        assert after_solo[solo[power]][0] < fresh, f"{power}, eliminated, goes down"
    assert after_solo[solo["Italy"]][0] < after_solo[solo["France"]][0]
    assert after_solo[solo["Italy"]][0] > after_solo[solo["Austria"]][0], "a survivor ranks above the eliminated"
    assert all(sigma < 25.0 / 3.0 for _, sigma, _ in after_solo.values()), "every player is surer"
    assert ratings(live, "standard") == after_solo, "the map's ladder: the same game, the same start"

    reply = live.reply("someone@players.test", f"rating {solo['France']}").body
    assert f"Skill rating of {solo['France']}" in reply and "mu - 3 sigma" in reply
    mu, sigma, _ = after_solo[solo["France"]]
    assert f"rating {mu - 3 * sigma:7.2f}   mu {mu:6.2f}   sigma {sigma:5.2f}   1 game" in reply
    assert "Standard" in reply
    top = live.reply("someone@players.test", "ratings").body
    assert top.index(solo["France"]) < top.index(solo["Austria"])
    assert "rated players on Standard, of 7" in live.reply("someone@players.test", "ratings standard").body
    unknown = live.reply("someone@players.test", "ratings nosuch")
    assert "[Error Flag]" in unknown.subject and "There is no map called 'nosuch'" in unknown.body
    whois = live.reply("someone@players.test", f"whois {solo['France']}").body
    assert "Dedication:" in whois and f"Skill rating of {solo['France']}" in whois
    listing = live.reply("someone@players.test", "list sol").body
    assert f"{solo['France']}  rating {mu - 3 * sigma:.2f}" in listing

    draw = play_draw(live)
    after_draw = ratings(live)
    members = [after_draw[draw[p]][0] for p in ("France", "Germany", "Italy")]
    assert members[0] > fresh and members == [members[0]] * 3, "equal ratings, equal gains"
    for power in ("Austria", "England", "Russia", "Turkey"):
        assert after_draw[draw[power]][0] < fresh
    assert {k: v for k, v in after_draw.items() if k in solo.values()} == after_solo, "only the draw's players moved"

    before = ratings(live)
    conceded = play_concession(live)
    after = ratings(live)
    assert after[conceded["Russia"]][0] > before[conceded["Russia"]][0], "the power conceded to goes up"
    for power in ("Austria", "France", "Germany", "Italy"):
        assert after[conceded[power]][0] < before[conceded[power]][0], f"{power}, eliminated, goes down"
    assert after[solo["France"]][2] == 2
    turkey = after[conceded["Turkey"]][0] - before[conceded["Turkey"]][0]
    left = after[conceded["England"]][0] - before[conceded["England"]][0]
    assert turkey > 0 and 0 < left < turkey, "England tied Turkey: who left keeps a share, half the game moves less"
    assert 0 < after[LATE][0] - 25.0 < turkey

    assert [g[:2] for g in rated_games(live)] == [("sol", "rated"), ("drw", "rated"), ("con", "rated")]
    kept = {ladder: ratings(live, ladder) for ladder in (OVERALL, "standard")}
    judge_cli(live, tmp_path, "rebuild")
    assert {ladder: ratings(live, ladder) for ladder in (OVERALL, "standard")} == kept, "exactly the same values"
    stored = exported_games(live, tmp_path)
    forget_rated_games(live)
    judge_cli(live, tmp_path, "rebuild")
    assert exported_games(live, tmp_path) == stored, "the finished games give the inputs recorded at their end"
    assert {ladder: ratings(live, ladder) for ladder in (OVERALL, "standard")} == kept

    exported = json.loads(judge_cli(live, tmp_path, "export").stdout)
    assert exported["library"] == "openskill" and exported["parameters"]["model"] == "PlackettLuce"
    assert [g["game"] for g in exported["games"]] == ["sol", "drw", "con"]
    seats = {s["power"]: s for s in exported["games"][0]["seats"]}
    assert seats["France"]["rank"] == 0 and seats["France"]["shares"] == {solo["France"]: 1.0}
    assert seats["Italy"]["rank"] == 1 and seats["Austria"]["rank"] == 2
    england = next(s for s in exported["games"][2]["seats"] if s["power"] == "England")
    assert england["shares"] == {solo["England"]: 0.5, LATE: 0.5} and england["rank"] == 1


def test_terminated_rolled_back_and_irregular_games_are_not_rated(live: LiveJudge) -> None:
    start_game(live, "ter")
    run(live, GM, "signon Mter gmpw\nterminate")
    assert live.game_value("ter", "status") == "terminated"

    powers = start_game(live, "opt", "colonial")
    run(live, GM, "signon Mopt gmpw\nset option tsr_static_break=fallback")
    assert live.game_value("opt", "irregular") == "option tsr_static_break changed after the start"
    colonial = load_map("colonial")
    for power, address in powers.items():
        run(live, address, f"signon {colonial.power(power).letter}opt pw\nset draw")
    assert live.game_value("opt", "ending") == "draw"
    assert rated_games(live) == [("opt", "left out", "irregular: option tsr_static_break changed after the start")]
    assert ratings(live) == {}, "an irregular game is marked and left out"

    solo = play_solo(live)
    rated = ratings(live)
    assert rated[solo["France"]][0] > 25.0
    run(live, GM, "signon Msol gmpw\nrollback")
    assert live.game_value("sol", "status") == "active"
    assert live.game_value("sol", "irregular") == "rolled back after its end"
    assert rated_games(live)[1:] == [("sol", "left out", "irregular: rolled back after its end")]
    assert ratings(live) == {}, "its contribution is taken out"


def test_the_archive_shows_the_ratings_without_addresses_and_minrating_gates_joining(live: LiveJudge) -> None:
    solo = play_solo(live)
    revealed = play_solo(live, "gun", gunboat=True)
    live.reply(GM, "create ?run gmpw standard\nset gunboat")
    start_game(live, "run", players=list(solo.values()), existing=True)
    players = live.reply(solo["Austria"], "list run").body.split("The following players")[1].split("Status of")[0]
    assert "rating" not in players and solo["France"] not in players, "a running gunboat game hides them"
    players = live.reply(GM, "signon Mrun gmpw\nlist run").body.split("The following players")[1]
    assert f"{solo['France']}  rating" in players, "its master knows who plays"

    archive = ArchiveServer(live.config)
    try:
        page = archive.text("/ratings")
        assert "France in <a href=\"/games/sol\">sol</a>" in page
        assert "@" not in page, "no address on the web"
        assert "France in <a href=\"/games/gun\">gun</a>" in page, "a gunboat game's players, once it is over"
        assert "mu − 3σ" in page
        assert archive.text("/ratings/standard").count("<tr>") == 1 + len(solo) + len(revealed)
        assert archive.get("/ratings/nosuch")[0] == 404
    finally:
        archive.stop()

    live.reply(GM, "create ?min gmpw standard")
    reply = live.reply(GM, "signon Mmin gmpw\nset minrating 1", expect=2)
    assert "requires a rating of at least 1.00" in reply.body
    refused = live.reply(solo["Austria"], "signon ?min pw")
    assert "[Error Flag]" in refused.subject and "requires a rating of at least 1.00 (mu - 3 sigma)" in refused.body
    joined = live.reply(solo["France"], "signon ?min pw")
    assert "[Error Flag]" not in joined.subject, joined.body
