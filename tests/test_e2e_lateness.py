"""Grace and lateness over real SMTP: at the deadline the late player and the master are
told (once), the late orders process the phase at once; a phase nobody orders is processed
when grace ends and every player is counted as having missed it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, start_game

from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import find_game

live = harness.live
GM = "gm@players.test"
HOLDS = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "France": "A par h\nA mar h\nF bre h", "Germany": "A mun h\nA ber h\nF kie h",
    "Italy": "A ven h\nA rom h\nF nap h", "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h",
    "Turkey": "F ank h\nA con h\nA smy h",
}


def _soon(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S UTC")


def _missed(live: LiveJudge) -> dict[str, int]:
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            game = find_game(s, "late")
            assert game is not None
            return {p.power: p.nmr_count for p in game.players if p.power}
    finally:
        engine.dispose()


def test_late_notice_then_late_orders_then_grace_end(live: LiveJudge) -> None:
    powers = start_game(live, "late")
    for power, orders in list(HOLDS.items())[:-1]:
        reply = live.reply(powers[power], f"signon {power[0]}late pw\n{orders}")
        assert "[Error Flag]" not in reply.subject, reply.body
    live.mail(GM, f"signon Mlate gmpw\nset deadline {_soon(2)}\nset grace 1", expect=1 + 8)
    late = live.collect(2, timeout=20)
    assert sorted(m.to for m in late) == sorted([powers["Turkey"], GM])
    to_turkey = next(m for m in late if m.to == powers["Turkey"])
    assert to_turkey.subject == "E2E:late - S1901M Late Notice: Turkey"
    assert "were not complete at the deadline" in to_turkey.body
    assert "Orders are late from: Turkey." in next(m for m in late if m.to == GM).body
    live.quiet()
    mails = live.mail(powers["Turkey"], f"signon Tlate pw\n{HOLDS['Turkey']}", expect=1 + 8)
    assert sum(m.subject == "E2E:late - S1901M Results" for m in mails) == 8
    assert live.phase("late") == "F1901M"
    assert set(_missed(live).values()) == {0}

    live.mail(GM, f"signon Mlate gmpw\nset deadline {_soon(2)}\nset grace 0.001", expect=1 + 8)
    late = live.collect(8, timeout=20)
    assert all("Late" in m.subject for m in late)
    results = live.collect(8, timeout=20)
    assert all(m.subject == "E2E:late - F1901M Results" for m in results)
    assert live.phase("late") == "S1902M"
    assert set(_missed(live).values()) == {1}
