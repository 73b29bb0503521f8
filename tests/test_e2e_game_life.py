"""One Standard game's whole life by mail (issue 11, "Done when"): a late player, an absence,
orders entered in advance, a resignation and a takeover, a rollback, and a NoDIAS draw that
ends the game, over real SMTP with the scheduler firing for real.

Every mail is checked as a player who knows njudge reads it: the ``:: Judge:`` and
``:: Deadline:`` header lines (the deadline line ends in two spaces, as the mapping tools
expect), the subjects (``E2E:life - S1901M Results``, ``Late Notice: T``, ``Resignation:
Russia``, ``Takeover of Russia``), and the wording of njudge's fixtures
(``../shared/reference/judge-samples/njudge/tests/Bug91-13``, ``Bug91-16``) where we follow it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import test_e2e_harness as harness
from test_e2e_harness import LiveJudge, Mail, later, not_replies, reply_among, start_game

from judge import clock

live = harness.live
GM, OBS, NEW = "gm@players.test", "obs@players.test", "newcomer@players.test"
EVERYONE = 9  # seven players, the observer and the master
HEAD = ":: Judge: E2E  Game: Life  Variant: Standard"
DEADLINE = re.compile(r"^:: Deadline: ([SFW]\d{4}[MRB]) (\w{3} \w{3} \d\d \d{4} \d\d:\d\d:\d\d [+-]\d{4})  $", re.M)
HOLDS = {
    "Austria": "A vie h\nA bud h\nF tri h", "England": "F lon h\nF edi h\nA lvp h",
    "Germany": "A mun h\nA ber h\nF kie h", "Italy": "A ven h\nA rom h\nF nap h",
    "Russia": "A war h\nA mos h\nF sev h\nF stp/sc h", "Turkey": "F ank h\nA con h\nA smy h",
}


def _deadline(mail: Mail) -> tuple[str, datetime]:
    """The phase and the date of the mail's ``:: Deadline:`` line."""
    found = DEADLINE.search(mail.body)
    assert found, mail.body[:300]
    return found.group(1), datetime.strptime(found.group(2), "%a %b %d %Y %H:%M:%S %z")


def _game_mails(mails: list[Mail], subject: str, phase: str) -> list[Mail]:
    """The mails of ``subject`` among ``mails``, each checked to open as njudge's do."""
    found = [m for m in mails if m.subject == f"E2E:life - {subject}"]
    for m in found:
        assert m.body.startswith(HEAD + "\n"), m.body[:200]
        assert _deadline(m)[0] == phase, m.body[:200]
    return found


def _orders(live: LiveJudge, sender: str, power: str, text: str, password: str = "pw") -> Mail:
    reply = live.reply(sender, f"signon {power[0]}life {password}\n{text}")
    assert "[Error Flag]" not in reply.subject, reply.body
    return reply


def test_a_standard_game_from_start_to_a_nodias_draw(live: LiveJudge) -> None:
    live.reply(GM, "create ?life gmpw standard")
    reply = reply_among(live.mail(GM, "signon Mlife gmpw\nset nodias", expect=2), GM)
    assert "Game 'life' is NoDIAS" in reply.body and "draw votes" not in reply.body, "no votes to drop yet"
    powers = start_game(live, "life", existing=True)
    live.reply(OBS, "observe life secret")

    # -- Spring 1901: an absence, orders for the fall entered in advance, a late Turkey ------
    first, last = clock.now() + timedelta(days=1), clock.now() + timedelta(days=5)
    mails = live.mail(powers["Italy"], f"signon Ilife pw\nset absence {first:%b %d %Y} to {last:%b %d %Y}", expect=2)
    told = _game_mails(mails, "S1901M Absence: Italy", "S1901M")
    assert [m.to for m in told] == [GM] and "(italy@players.test) has declared an absence" in told[0].body
    reply = _orders(live, powers["England"], "England", HOLDS["England"] + "\nphase fall 1901 movement\n"
                    + HOLDS["England"])
    assert "Kept for the Fall 1901 Movement (F1901M): 3 lines in all." in reply.body
    reply = _orders(live, powers["France"], "France", "F bre - mao\nA par - bur\nA mar - spa")
    assert "France: Army Marseilles -> Spain." in reply.body and "Time to deadline: " in reply.body
    for power in ("Austria", "Germany", "Italy", "Russia"):
        _orders(live, powers[power], power, HOLDS[power])
    mails = live.mail(GM, f"signon Mlife gmpw\nset deadline {later(hours=1)}\nset grace 3", expect=1 + EVERYONE)
    assert len(_game_mails(mails, "S1901M Deadline Changed", "S1901M")) == EVERYONE
    clock.advance(timedelta(hours=1, seconds=1))
    late = live.collect(EVERYONE)
    others = [GM, OBS, *(a for p, a in powers.items() if p != "Turkey")]
    assert sorted(m.to for m in _game_mails(late, "S1901M Late Notice: T", "S1901M")) == sorted(others)
    flagged = [m for m in late if m.subject == "[You are late!] E2E:life - S1901M Late Notice: T"]
    assert [m.to for m in flagged] == [powers["Turkey"]]
    assert all("Diplomacy game 'life' is waiting for Turkey's orders." in m.body for m in late)

    mails = live.mail(powers["Turkey"], "signon Tlife pw\n" + HOLDS["Turkey"], expect=1 + 1 + EVERYONE)
    reply = reply_among(mails, powers["Turkey"])
    assert "has passed: the judge waits for others' orders." in reply.body
    assert "Phase S1901M of game 'life' has been processed" in reply.body
    results = _game_mails(mails, "S1901M Results", "F1901M")
    assert len(results) == EVERYONE and "Movement results for Spring of 1901.  (life.001)" in results[0].body
    assert "France: Fleet Brest -> Mid-Atlantic Ocean." in results[0].body
    _, fall_deadline = _deadline(results[0])
    assert fall_deadline > last.replace(hour=23, minute=59, second=0, microsecond=0), \
        "the next deadline fell in Italy's absence and moved past its end"
    advance = _game_mails(mails, "F1901M Orders Entered in Advance: England", "F1901M")
    assert [m.to for m in advance] == [powers["England"]]
    assert "England: Fleet London HOLD." in advance[0].body and "Orders received for all units" in advance[0].body

    # -- Fall 1901: Russia resigns, a newcomer takes it over (njudge Bug91-13, Bug91-16) ------
    mails = live.mail(powers["Russia"], "signon Rlife pw\nresign", expect=1 + EVERYONE)
    assert len(_game_mails(mails, "F1901M Resignation: Russia", "F1901M")) == EVERYONE
    mails = live.mail(NEW, "signon Rlife newpw\n" + HOLDS["Russia"], expect=1 + (EVERYONE - 1) + 1)
    reply = reply_among(mails, NEW)
    assert "Take over of abandoned Russia allowed." in reply.body
    taken = _game_mails(mails, "F1901M Takeover of Russia", "F1901M")
    assert sorted(m.to for m in taken) == sorted([GM, OBS, *(a for p, a in powers.items() if p != "Russia")])
    to_master = next(m for m in taken if m.to == GM)
    assert "newcomer@players.test has taken over the abandoned\nRussia in game 'life'." in to_master.body
    assert all("Also, a wait has been placed for all active players.\n"
               "This can be removed with the 'SET NOWAIT' command." in m.body for m in taken)
    assert not any("advanced to" in m.body for m in taken), "Italy's absence holds the deadline later: it stays"
    assert len(_game_mails(mails, "F1901M Power Assignment: Russia", "F1901M")) == 1

    fall = {"Austria": HOLDS["Austria"], "France": "F mao - por\nA bur - bel\nA spa h",
            "Germany": HOLDS["Germany"], "Italy": HOLDS["Italy"], "Turkey": HOLDS["Turkey"]}
    for power, text in fall.items():
        _orders(live, powers[power], power, text + "\nset nowait")
    _orders(live, NEW, "Russia", "set nowait", "newpw")
    mails = live.mail(powers["England"], "signon Elife pw\nset nowait", expect=1 + EVERYONE)
    results = _game_mails(mails, "F1901M Results", "F1901B")
    assert sorted(m.to for m in results) == sorted([GM, OBS, NEW, *(a for p, a in powers.items() if p != "Russia")])
    assert "France: Fleet Mid-Atlantic Ocean -> Portugal." in results[0].body

    # -- Winter 1901: France builds; the master rolls it back; France builds otherwise ---------
    mails = live.mail(powers["France"], "signon Flife pw\nbuild a par\nbuild a mar\nbuild f bre", expect=1 + EVERYONE)
    assert re.search(r"^France: +Builds a fleet in Brest\.$", _game_mails(mails, "F1901B Results", "S1902M")[0].body,
                     re.M)
    mails = live.mail(GM, "signon Mlife gmpw\nrollback", expect=1 + EVERYONE)
    notices = _game_mails(mails, "F1901B Rollback", "F1901B")
    assert len(notices) == EVERYONE and "The results of F1901B are withdrawn" in notices[0].body
    assert "(France) stand again and may be" in notices[0].body
    mails = live.mail(powers["France"], "signon Flife pw\nbuild a par\nbuild a mar\nwaive", expect=1 + EVERYONE)
    built = _game_mails(mails, "F1901B Results", "S1902M")[0].body
    assert re.search(r"^France: +Builds an army in Marseilles\.$", built, re.M) and "Brest" not in built

    # -- Spring 1902: every survivor votes for a draw of England and France (NoDIAS) -----------
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia"):
        sender, password = (NEW, "newpw") if power == "Russia" else (powers[power], "pw")
        reply = _orders(live, sender, power, "set draw EF", password)
        assert "accepts a draw between England and France" in reply.body and "secret" in reply.body
    mails = live.mail(powers["Turkey"], "signon Tlife pw\nset draw EF", expect=1 + EVERYONE)
    assert "the game was declared a draw between\nEngland and France." in reply_among(mails, powers["Turkey"]).body
    final = [m for m in not_replies(mails) if m.subject == "E2E:life - S1902M Draw Declared"]
    assert len(final) == EVERYONE
    body = final[0].body
    assert body.startswith(HEAD + "\n") and "The game was declared a draw between England and France." in body
    assert re.search(r"^   Russia: +russia@players\.test +S1901M to F1901M  0 missed, resigned$", body, re.M)
    assert re.search(r"^ +newcomer@players\.test +F1901M to S1902M  0 missed$", body, re.M)
    assert re.search(r"^S1902M +3 +3 +6 +3 +3 +4 +3$", body, re.M), "the centres of Spring 1902"

    # -- afterwards: anyone may read the record, the summary and the archive ------------------
    whois = live.reply("someone@players.test", f"whois {powers['Turkey']}").body
    assert "Phases due:     2 (1 on time, 1 late, 0 missed)" in whois
    assert "Game 'life' is over: it was declared a draw" in live.reply("someone@players.test", "summary life").body
    history = live.reply("someone@players.test", "history life from Jan 1 1990").body
    subjects = re.findall(r"^Subject: (.*)$", history, re.M)
    assert subjects[-4:] == ["E2E:life - F1901B (withdrawn)", "E2E:life - F1901B Rollback",
                             "E2E:life - F1901B Results", "E2E:life - S1902M Draw Declared"], subjects
    live.quiet()
