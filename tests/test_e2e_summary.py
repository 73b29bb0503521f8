"""Issue 23, item 3 over real SMTP: the reply's last line says what was done. A mail with
one bad order among good ones says which lines were refused and that the rest was taken
(it said "1 error found in your mail: it was not acted on" above orders that were stored
and later executed); "not acted on" only when nothing was."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game

live = harness.live


def test_a_mail_with_one_bad_order_says_the_rest_was_taken(live: LiveJudge) -> None:
    powers = start_game(live, "sum")
    france = powers["France"]
    reply = live.reply(france, "signon Fsum pw\nA par - bur\nA mar s A par - pic\nF bre - xyz")
    assert "France: Army Paris -> Burgundy." in reply.body
    last = reply.body.rstrip().split("\n\n")[-1].replace("\n", " ")
    assert last == ("2 errors found in your mail: the lines marked with an error above were not acted on; "
                    "the rest of your mail was."), last
    one = live.reply(france, "signon Fsum pw\nA mar h\nF bre - xyz")
    last = one.body.rstrip().split("\n\n")[-1].replace("\n", " ")
    assert last == ("1 error found in your mail: the line marked with an error above was not acted on; "
                    "the rest of your mail was."), last


def test_a_mail_of_nothing_but_errors_was_not_acted_on(live: LiveJudge) -> None:
    powers = start_game(live, "none")
    reply = live.reply(powers["France"], "signon Fnone pw\nF bre - xyz")
    last = reply.body.rstrip().split("\n\n")[-1].replace("\n", " ")
    assert last == "1 error found in your mail: it was not acted on.", last


def test_orders_in_advance_kept_with_an_error_are_said_to_be_kept(live: LiveJudge) -> None:
    powers = start_game(live, "kept")
    reply = live.reply(powers["France"], "signon Fkept pw\nphase fall 1901 movement\nF bre - xyz")
    assert "Kept for the Fall 1901 Movement (F1901M): 1 line in all." in reply.body
    last = reply.body.rstrip().split("\n\n")[-1].replace("\n", " ")
    assert last == ("1 error found in your mail: the line marked with an error above was kept all the same, "
                    "to be checked again when its phase comes; the rest of your mail was acted on."), last
