"""A whole Standard game over real SMTP: seven players, an observer and the master, from
CREATE and SIGNON to the start mail, movement with bounces and a dislodgement, a retreat
phase and an adjustment phase with builds."""

from __future__ import annotations

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, bodies_to

live = harness.live

GM, OBS = "gm@players.test", "obs@players.test"
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
ADDR = {p: f"{p.lower()}@players.test" for p in POWERS}
EVERYONE = 9

SPRING = {
    "Austria": "A vie - gal\nA bud - ser\nF tri - alb",
    "England": "F lon - nth\nF edi - nwg\nA lvp - yor",
    "France": "A par - bur\nA mar - spa\nF bre - mao",
    "Germany": "A mun - bur\nA ber - kie\nF kie - den",
    "Italy": "A ven h\nA rom - apu\nF nap - ion",
    "Russia": "A war - gal\nA mos - ukr\nF sev - rum\nF stp/sc - bot",
    "Turkey": "F ank - bla\nA con - bul\nA smy - con",
}
FALL = {
    "Austria": "A ser - bul\nA vie h\nF alb h",
    "England": "F nth - nwy\nF nwg h\nA yor h",
    "France": "A par h\nA spa - por\nF mao h",
    "Germany": "A kie - hol\nF den h\nA mun h",
    "Italy": "F ion - tun\nA apu h\nA ven h",
    "Russia": "F rum s A ser - bul\nA war h\nA ukr h\nF bot - swe",
    "Turkey": "A bul h\nF bla h\nA con h",
}
WINTER = {
    "Austria": "build a bud",
    "England": "build f lon",
    "France": "build a mar",
    "Germany": "build a ber\nbuild f kie",
    "Italy": "build f nap",
    "Russia": "build f stp/nc\nbuild a mos",
    "Turkey": "build f smy",
}


def _signon(live: LiveJudge, power: str) -> str:
    return f"signon {power[0]}std {live.password('std', power)}\n"


def _phase(live: LiveJudge, orders: dict[str, str]) -> list:
    """Every power sends its orders; the last mail brings the results to everyone."""
    powers = list(orders)
    for power in powers[:-1]:
        reply = live.reply(ADDR[power], _signon(live, power) + orders[power])
        assert "[Error Flag]" not in reply.subject, reply.body
    last = powers[-1]
    mails = live.mail(ADDR[last], _signon(live, last) + orders[last], expect=1 + EVERYONE)
    results = [m for m in mails if m.subject.endswith("Results")]
    assert sorted(m.to for m in results) == sorted([GM, OBS, *ADDR.values()])
    return results


def test_standard_game(live: LiveJudge) -> None:
    reply = live.reply(GM, "CREATE ?std gmpw standard")
    assert "Game 'std' has been created" in reply.body
    reply = live.observe(OBS, "std", "obspw")
    assert "observing" in reply.body
    for power in POWERS[:-1]:
        reply = live.reply(ADDR[power], f"signon ?std pw\nset preference {power[0]}\nsignoff\n-- \nmy sig")
        assert f"Preference list '{power[0]}' set." in reply.body
    mails = live.mail(ADDR["Turkey"], "signon ?std pw\nset preference T", expect=1 + EVERYONE)
    starts = [m for m in mails if "Game Starting" in m.subject]
    assert len(starts) == EVERYONE
    mine = bodies_to(starts, ADDR["Russia"])[0]
    assert "You have been selected as Russia in game 'std'" in mine.body
    assert "Russia:  Fleet St Petersburg (south coast)." in mine.body
    assert ":: Deadline: S1901M" in mine.body and "The deadline for the first orders is" in mine.body

    # an order error on the way: flagged, counted, and the good lines kept
    reply = live.reply(ADDR["France"], _signon(live, "France") + "A par - bur\nA mar - xyz")
    assert reply.subject.endswith("[Error Flag]")
    assert "Army Paris -> Burgundy." in reply.body and "1 error" in reply.body
    press = live.mail(ADDR["France"], _signon(live, "France") + "broadcast\nBurgundy is mine.\nendpress",
                      expect=1 + EVERYONE)
    assert sum("Burgundy is mine." in m.body for m in press) == 1 + EVERYONE

    results = _phase(live, SPRING)
    text = results[0].body
    assert "Movement results for Spring of 1901." in text
    assert "Austria: Army Vienna -> Galicia.  (*bounce*)" in text
    assert "France: Army Paris -> Burgundy.  (*bounce*)" in text
    assert live.phase("std") == "F1901M"

    results = _phase(live, FALL)
    text = results[0].body
    assert "Turkey: Army Bulgaria, No Order Processed." not in text
    assert "(*dislodged*)" in text
    assert "The Turkish Army in Bulgaria can retreat to Greece." in text
    assert live.phase("std") == "F1901R"

    results = _phase(live, {"Turkey": "A bul - gre"})
    assert "Retreat orders for Fall of 1901." in results[0].body
    assert live.phase("std") == "F1901B"
    assert "Ownership of supply centers:" in results[0].body

    results = _phase(live, WINTER)
    text = results[0].body
    assert "Adjustment orders for Winter of 1901." in text, text
    assert "Russia:    Builds a fleet in St Petersburg (north coast)." in text, text
    assert "Germany:   Builds an army in Berlin." in text
    assert live.phase("std") == "S1902M"

    history = live.reply(OBS, "history std")
    assert history.body.count("Subject: E2E:std - ") >= 5
    assert "S1901M Results" in history.body and "F1901B Results" in history.body
