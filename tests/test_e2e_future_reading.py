"""Issue 23, item 2 over real SMTP: orders entered in advance are read by the engine's own
parser, as the current phase's orders are. ``A War-Gal`` is a good order now and after a
``PHASE`` line alike (it got "No province found in 'A War-Gal'"), inside ``IF``/``ELSE``/
``ENDIF`` too, and a one-line ``IF ... THEN ... ELSE ... ENDIF`` is read as the lines it
stands for, with no stray ``ENDIF`` kept after it."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_atomic import future_lines
from test_e2e_harness import LiveJudge, start_game

live = harness.live


def test_an_order_in_advance_is_read_as_an_order_now(live: LiveJudge) -> None:
    powers = start_game(live, "rd")
    russia = powers["Russia"]
    now = live.reply(russia, "signon Rrd pw\nA War-Gal")
    assert "[Error Flag]" not in now.subject, now.body
    later = live.reply(russia, "signon Rrd pw\nphase fall 1901 movement\nA War-Gal")
    assert "[Error Flag]" not in later.subject, later.body
    assert "Kept for the Fall 1901 Movement (F1901M)" in later.body
    conditional = live.reply(russia, "signon Rrd pw\nphase fall 1901 movement\n"
                                     "IF Russian Army Warsaw\nA War-Gal\nELSE\nA Mos-Sev\nENDIF")
    assert "[Error Flag]" not in conditional.subject, conditional.body


def test_a_one_line_condition_is_read_whole(live: LiveJudge) -> None:
    powers = start_game(live, "one")
    russia = powers["Russia"]
    later = live.reply(russia, "signon Rone pw\nphase fall 1901 movement\n"
                               "IF Russian Army Warsaw THEN A War-Gal ELSE A Mos-Sev ENDIF\nF sev h")
    assert "[Error Flag]" not in later.subject, later.body
    assert future_lines(live.url, "one") == {"F1901M": ["IF Russian Army Warsaw THEN", "A War-Gal", "ELSE",
                                                        "A Mos-Sev", "ENDIF", "F sev h"]}
    now = live.reply(russia, "signon Rone pw\nphase spring 1901 movement\n"
                             "IF Russian Army Warsaw THEN A War-Gal ELSE A Mos-Sev ENDIF")
    assert "[Error Flag]" not in now.subject, now.body
    assert "Russia: Army Warsaw -> Galicia." in now.body
    assert "Moscow -> Sevastopol" not in now.body
