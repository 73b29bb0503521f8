"""The judge's bot rated as one player, ``bot`` (issue 26 item 5), over real SMTP: a player
resigns, the master seats the bot in the abandoned power (SET BOT), the bot writes its orders
for a movement phase, and the game ends in a DIAS draw voted by the powers with players (the
bot's power does not vote: it is in the draw as a survivor, njudge's "all surviving players"
being those with players). The bot's rating is shown by ``RATING bot`` and ``RATINGS``, the
rating records give the bot its share of the seat, and ``judge ratings rebuild`` gives the
same values.
"""

from __future__ import annotations

import json
from pathlib import Path

import test_e2e_harness as harness
from test_e2e_daily import set_position
from test_e2e_harness import LiveJudge, start_game
from test_e2e_ratings import GM, judge_cli, rated_games, ratings, run, spring_1901

from judge.store.base import make_engine, make_sessionmaker
from judge.store.ratings import OVERALL, RatingChange

live = harness.live
BOT_LINE = "Orders for Turkey were written by the judge's bot."


def changes_of(live: LiveJudge, player: str) -> list[tuple[str, list[str], float]]:
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            rows = s.query(RatingChange).filter(RatingChange.player == player).order_by(RatingChange.id)
            return [(r.ladder, list(r.powers), r.share) for r in rows]
    finally:
        engine.dispose()


def test_the_bot_in_a_seat_is_rated_as_bot_and_a_rebuild_gives_the_same(live: LiveJudge, tmp_path: Path) -> None:
    powers = start_game(live, "brt")
    spring_1901(live, "brt")
    run(live, powers["Turkey"], "signon Tbrt pw\nresign")
    run(live, GM, "signon Mbrt gmpw\nset bot turkey")
    assert live.game_value("brt", "bot_powers") == ["Turkey"]
    before = len(live.relay.messages)
    run(live, GM, "signon Mbrt gmpw\nprocess")
    results = [m for m in map(harness.Mail.of, live.relay.messages[before:]) if "F1901M Results" in m.subject]
    assert results and BOT_LINE in results[0].body, "the bot wrote Turkey's Fall 1901 orders"
    assert live.phase("brt") == "S1902M"

    set_position(live, "brt", {"phase": "S1902M", "units": {"France": ["A par"], "Germany": ["A ber"],
                                                            "Turkey": ["A con"]},
                               "centres": {"France": ["par"], "Germany": ["ber"], "Turkey": ["con"]}})
    run(live, powers["France"], "signon Fbrt pw\nset draw")
    before = len(live.relay.messages)
    run(live, powers["Germany"], "signon Gbrt pw\nset draw")
    assert live.game_value("brt", "ending") == "draw", "the bot's power holds no draw up"
    final = next(m for m in map(harness.Mail.of, live.relay.messages[before:]) if "Draw Declared" in m.subject)
    assert "Turkey, played by the judge's bot, had no vote." in final.body
    assert live.game_value("brt", "winners") == ["France", "Germany", "Turkey"], "DIAS: every survivor"

    kept = {ladder: ratings(live, ladder) for ladder in (OVERALL, "standard")}
    overall = kept[OVERALL]
    assert overall["bot"][2] == 1 and overall["bot"][0] > 25.0, "the bot is rated, one game, up for a draw"
    assert kept["standard"]["bot"] == overall["bot"]
    turkey = overall[powers["Turkey"]][0] - 25.0
    france = overall[powers["France"]][0] - 25.0
    assert 0 < turkey < france and abs(overall["bot"][0] - 25.0 - turkey) < 1e-9, "half the seat each"
    assert changes_of(live, "bot") == [(OVERALL, ["Turkey"], 0.5), ("standard", ["Turkey"], 0.5)]
    assert changes_of(live, powers["Turkey"]) == [(OVERALL, ["Turkey"], 0.5), ("standard", ["Turkey"], 0.5)]
    exported = json.loads(judge_cli(live, tmp_path, "export").stdout)["games"]
    seats = {s["power"]: s["shares"] for s in exported[0]["seats"]}
    assert seats["Turkey"] == {powers["Turkey"]: 0.5, "bot": 0.5}

    mu, sigma, _ = overall["bot"]
    reply = live.reply("someone@players.test", "rating bot")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "Skill rating of bot" in reply.body
    assert f"rating {mu - 3 * sigma:7.2f}   mu {mu:6.2f}   sigma {sigma:5.2f}   1 game" in reply.body
    table = live.reply("someone@players.test", "ratings").body.splitlines()
    assert any(line.endswith(f"mu {mu:6.2f}   sigma {sigma:5.2f}    1 game   bot") for line in table), table

    assert rated_games(live) == [("brt", "rated", None)]
    judge_cli(live, tmp_path, "rebuild")
    assert {ladder: ratings(live, ladder) for ladder in (OVERALL, "standard")} == kept, "exactly the same values"
