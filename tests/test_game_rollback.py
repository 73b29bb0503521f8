"""The master's tools to mend a game (njudge data/master): ROLLBACK, PREDICT, UNSTART and
FORCE BEGIN, with the archive, the records and the deadlines they touch."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from test_game_helpers import Judge, as_power, start_standard

from judge.store.games import ACTIVE, FINISHED, FORMING, OrderSet, PhaseRecord, find_game
from judge.store.mail import OutboxMessage

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
GM = "gm@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(f"sqlite:///{tmp_path / 'judge.db'}", now=datetime.now(UTC).replace(microsecond=0))


def _master(judge: Judge, text: str) -> list[OutboxMessage]:
    return judge.mail(GM, f"signon Mdt gmpw\n{text}")


def _records(judge: Judge) -> list[tuple[int, str, int]]:
    with judge.factory() as s:
        return [(r.seq, r.phase, r.withdrawn) for r in s.scalars(select(PhaseRecord).order_by(PhaseRecord.id))]


def test_rollback_one_turn_restores_the_position_and_its_orders(judge: Judge) -> None:
    start_standard(judge)
    as_power(judge, "France", "A par - bur\nF bre - mao")
    _master(judge, "process")
    assert judge.game("dt").phase == "F1901M"
    as_power(judge, "Germany", "A mun - ruh")
    judge.now += timedelta(minutes=5)
    rows = _master(judge, "rollback")
    reply = next(r for r in rows if r.kind == "reply")
    assert "[Error Flag]" not in reply.subject, reply.body
    assert "rolled back to before turn 001 (S1901M)" in reply.body
    notices = [r for r in rows if r.kind == "notice"]
    assert len(notices) == 8 and all(r.subject == "TEST:dt - S1901M Rollback" for r in notices)
    body = notices[0].body
    assert "The Master has rolled game 'dt' back to before turn 001." in body
    assert "The results of S1901M are withdrawn" in body and "(France) stand again" in body
    assert "Status of the Movement phase for Spring of 1901." in body
    assert "France:  Army Paris." in body and "The deadline for orders is" in body
    game = judge.game("dt")
    assert game.phase == "S1901M" and game.seq == 1 and game.rollbacks == 1
    assert game.deadline is not None and game.deadline > judge.now
    assert _records(judge) == [(1, "S1901M", 1)]
    with judge.factory() as s:
        sets = {(o.phase, o.power): [e["line"] for e in o.entries] for o in s.scalars(select(OrderSet))}
    assert sets == {("S1901M", "France"): ["A par - bur", "F bre - mao"]}, "F1901M's orders are dropped"
    reply = as_power(judge, "France", "A mar - pie")[0]
    assert "Army Paris -> Burgundy." in reply.body and "Army Marseilles -> Piedmont." in reply.body
    judge.now += timedelta(minutes=5)
    rows = _master(judge, "process")
    result = next(r for r in rows if r.kind == "result")
    assert "France: Army Marseilles -> Piedmont." in result.body
    assert _records(judge) == [(1, "S1901M", 1), (1, "S1901M", 0)], "the phase played again has a record of its own"


def test_restored_orders_that_are_complete_wait_for_a_change(judge: Judge) -> None:
    """Only France builds in Winter 1901 (F1901B): its restored builds are all the orders the phase
    needs, yet the rollback does not replay the turn at once; France may change them, and
    the mail that does processes the phase."""
    start_standard(judge)
    as_power(judge, "France", "A par - bur\nA mar - spa\nF bre - mao")
    _master(judge, "process")
    as_power(judge, "France", "A bur - bel\nF mao - por")
    _master(judge, "process")
    assert judge.game("dt").phase == "F1901B"
    as_power(judge, "France", "build a par\nbuild a mar\nbuild f bre")
    assert judge.game("dt").phase == "S1902M"
    _master(judge, "rollback")
    assert judge.game("dt").phase == "F1901B", "not replayed by the rollback's own mail"
    as_power(judge, "France", "build a par\nbuild a mar\nwaive")
    game = judge.game("dt")
    assert game.phase == "S1902M"
    with judge.factory() as s:
        record = s.scalars(select(PhaseRecord).where(PhaseRecord.phase == "F1901B", PhaseRecord.withdrawn == 0)).one()
    assert sorted(e["line"] for e in record.orders["France"]) == ["build a mar", "build a par", "waive"]


def test_rollback_by_number_and_by_phase_and_the_archive(judge: Judge) -> None:
    start_standard(judge)
    for _ in range(3):
        judge.now += timedelta(minutes=1)
        _master(judge, "process")
    phases = [r[1] for r in _records(judge)]
    assert phases == ["S1901M", "F1901M", "S1902M"], "no adjustments: every power keeps its centres"
    judge.now += timedelta(minutes=1)
    reply = judge.reply(GM, f"signon Mdt gmpw\nrollback {phases[1]}")
    assert f"to before turn 002 ({phases[1]})" in reply.body, reply.body
    assert [w for _, _, w in _records(judge)] == [0] + [1] * (len(phases) - 1)
    with judge.factory() as s:
        rows = list(s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "result")))
    withdrawn = {r.phase for r in rows if r.withdrawn_at is not None}
    assert withdrawn == set(phases[1:]) and all(r.withdrawn_at is not None for r in rows if r.phase in withdrawn)
    judge.now += timedelta(minutes=1)
    history = judge.reply("obs@example.org", "history dt from Jan 1 1990").body
    assert f"Subject: TEST:dt - {phases[0]} Results\n" in history
    assert f"Subject: TEST:dt - {phases[1]} (withdrawn)\n" in history
    assert f"Subject: TEST:dt - {phases[1]} Results" not in history, "no mapper takes it for a result"
    assert "Withdrawn on " in history and "> Movement results for Fall of 1901." in history
    assert "Subject: TEST:dt - F1901M Rollback" in history
    reply = judge.reply(GM, "signon Mdt gmpw\nrollback 1")
    assert "to before turn 001 (S1901M)" in reply.body
    assert [w for _, _, w in _records(judge)] == [2] + [1] * (len(phases) - 1)
    assert judge.game("dt").rollbacks == 2


def test_rollback_refusals(judge: Judge) -> None:
    start_standard(judge)
    reply = judge.reply(GM, "signon Mdt gmpw\nrollback")
    assert "No turn of game 'dt' has been processed yet" in reply.body and "[Error Flag]" in reply.subject
    _master(judge, "process")
    for text, message in (("rollback 7", "has no processed turn 7: its turns are 1 (S1901M) to 1 (S1901M)"),
                          ("rollback F1905M", "has no processed turn F1905M"),
                          ("rollback whenever", "Cannot read 'whenever'")):
        reply = judge.reply(GM, f"signon Mdt gmpw\n{text}")
        assert message in reply.body and "[Error Flag]" in reply.subject, (text, reply.body)
    reply = as_power(judge, "France", "rollback")[0]
    assert "Only the master of game 'dt' may use ROLLBACK." in reply.body
    assert judge.game("dt").phase == "F1901M" and _records(judge) == [(1, "S1901M", 0)]


def test_rollback_undoes_the_end_of_a_game(judge: Judge) -> None:
    start_standard(judge)
    _master(judge, "process")
    for power in POWERS:
        as_power(judge, power, "set draw")
    game = judge.game("dt")
    assert game.status == FINISHED and game.ending == "draw"
    rows = _master(judge, "rollback")
    reply = next(r for r in rows if r.kind == "reply")
    assert "The game had ended: it goes on." in reply.body
    notice = next(r for r in rows if r.kind == "notice")
    assert "The end of the game is withdrawn too: the game goes on." in notice.body
    game = judge.game("dt")
    assert game.status == ACTIVE and game.winners == [] and game.ending is None and game.phase == "S1901M"
    with judge.factory() as s:
        ending = s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "ending")).all()
    assert ending and all(r.withdrawn_at is not None for r in ending)
    assert not any(p.draw_vote for p in judge.game("dt").players)


def test_predict_goes_to_the_master_alone_and_stores_nothing(judge: Judge) -> None:
    start_standard(judge)
    as_power(judge, "France", "A par - bur")
    as_power(judge, "Germany", "A mun - bur")
    before = judge.game("dt")
    rows = _master(judge, "predict")
    assert sorted(r.kind for r in rows) == ["private", "reply"]
    mail = next(r for r in rows if r.kind == "private")
    assert mail.to_addr == GM and mail.subject == "TEST:dt - S1901M Prediction"
    assert mail.body.startswith(":: Judge: TEST  Game: Dt  Variant: Standard\n\nPREDICTION for the master alone")
    assert "France: Army Paris -> Burgundy.  (*bounce*)" in mail.body
    assert "Austria: Army Vienna, No Order Processed." in mail.body
    assert "The next phase of 'dt' would be Movement for Fall of 1901." in mail.body
    assert "mailed to you\nalone: nothing was stored" in next(r for r in rows if r.kind == "reply").body
    after = judge.game("dt")
    assert (after.phase, after.seq, after.position, after.deadline) == (before.phase, before.seq, before.position,
                                                                        before.deadline)
    assert _records(judge) == []
    with judge.factory() as s:
        assert not s.scalars(select(OutboxMessage).where(OutboxMessage.archived.is_(True),
                                                         OutboxMessage.kind == "private")).all()
    reply = as_power(judge, "France", "predict")[0]
    assert "Only the master of game 'dt' may use PREDICT." in reply.body


def test_unstart_then_force_begin(judge: Judge) -> None:
    start_standard(judge)
    as_power(judge, "Turkey", "resign")
    rows = _master(judge, "unstart")
    reply = next(r for r in rows if r.kind == "reply")
    assert "Game 'dt' is forming again" in reply.body, reply.body
    notices = [r for r in rows if r.kind == "notice"]
    assert notices and notices[0].subject == "TEST:dt Game Unstarted"
    assert "6 of its 7 places are taken." in notices[0].body
    game = judge.game("dt")
    assert (game.status, game.phase, game.position, game.deadline, game.manual_start) == (FORMING, None, None,
                                                                                         None, True)
    assert all(p.power is None for p in game.players)
    judge.mail("new@example.org", "signon ?dt newpw\nset preference T")
    assert judge.game("dt").status == FORMING, "after UNSTART the game waits for the master"
    with judge.factory() as s:
        starts = s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "start",
                                                       OutboxMessage.archived.is_(True))).all()
    assert [r.withdrawn_at is not None for r in starts] == [True]
    rows = _master(judge, "set autostart")
    assert judge.game("dt").status == ACTIVE and sum(r.kind == "start" for r in rows) == 8
    reply = judge.reply(GM, "signon Mdt gmpw\nprocess\nunstart")
    assert "UNSTART works only before the first is processed" in reply.body


def test_force_begin_leaves_the_empty_powers_in_civil_disorder(judge: Judge) -> None:
    judge.mail(GM, "create ?dt gmpw")
    reply = judge.reply(GM, "signon Mdt gmpw\nforce begin")
    assert "FORCE BEGIN needs at least one player" in reply.body and "[Error Flag]" in reply.subject
    for i, letter in enumerate("FGR"):
        judge.mail(f"p{i}@example.org", f"signon ?dt pw{i}\nset preference {letter}")
    rows = _master(judge, "force begin")
    reply = next(r for r in rows if r.kind == "reply")
    assert "In civil disorder, open for takeover: Austria, England, Italy and Turkey." in reply.body
    starts = [r for r in rows if r.kind == "start"]
    assert len(starts) == 4
    assert "These powers are\nin civil disorder" in starts[0].body and "Turkey:" in starts[0].body
    assert "SIGNON Tdt password" in starts[0].body
    game = judge.game("dt")
    assert game.status == ACTIVE and {p.power for p in game.players if p.power} == {"France", "Germany", "Russia"}
    listing = judge.reply("any@example.org", "list").body
    assert "Open for takeover: Austria, England, Italy, Turkey." in listing
    rows = judge.mail("new@example.org", "signon Tdt newpw\nA con - bul")
    assert "Take over of abandoned Turkey allowed." in next(r for r in rows if r.kind == "reply").body
    judge.now = (game.deadline or judge.now) + timedelta(days=30)
    assert judge.tick("dt", 0) is True
    assert judge.game("dt").phase == "F1901M", "the phase is processed with the empty powers holding"


def test_unstarted_game_cannot_use_play_commands(judge: Judge) -> None:
    start_standard(judge)
    _master(judge, "unstart")
    reply = judge.reply(GM, "signon Mdt gmpw\npredict\nrollback\nbecome France")
    assert reply.body.count("you can use") == 3 and "only while it is active or paused" in reply.body
    with judge.factory() as s:
        assert find_game(s, "dt") is not None
