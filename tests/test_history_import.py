"""Our HISTORY reply imports into a mapper: the game is rebuilt from the reply alone.

A game is played by mail (the lockstep player of ``test_e2e_full_game``: a few years, with
a press message on the way), then the observer sends HISTORY. The reply is read the way
``mapper-compat.md`` says jDip reads it: the ``:: Judge:`` line and its variant, each archived
result found by a ``Date:`` line followed at once by a ``Subject:`` line with "Results" and
the phase code (the first within about 7,000 characters of the ``::`` line), the phase header,
order lines up to the first line that is not ``Power: ...``, notes in the allowed words only,
the dislodged block, the ownership block (one blank line after its header), the retreat and
adjustment forms, and the next phase line. From those alone the units are moved phase by
phase, starting from the variant's opening position (which a mapper knows), and compared
with the positions the judge stored for every phase, and the centre owners with the judge's
after every year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

import test_e2e_harness as harness
from mapper_text import read_ownership
from test_e2e_full_game import GAME, OBS, choose_plan, play_by_mail
from test_e2e_harness import LiveJudge

from judge.engine import Map, Position, initial_position
from judge.engine.phase import Phase
from judge.maps import load_map
from judge.render.context import GameContext
from judge.render.listing import history_text
from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import find_game, phase_records

live = harness.live

ALLOWED_NOTES = {"bounce", "cut", "dislodged", "destroyed", "no convoy", "void"}
PHASE_HEADERS = {
    "Movement results for ": "M", "Retreat orders for ": "R", "Retreat results for ": "R",
    "Adjustment orders for ": "B", "Adjustment results for ": "B",
}
CODE_RE = re.compile(r"(?:^|\s)([SFWU]\d{4}[MRBA])(?=\s|$)")
ORDER_RE = re.compile(r"^(\w+):( +)(.*?)(?:  \(\*([a-z ,]+)\*\))?$")
UNIT_RE = re.compile(r"^(Army|Fleet) (.+?)(, No Order Processed\.| HOLD\.| -> .*| SUPPORT .*| CONVOY .*| DISBAND\.)$")
BUILD_RE = re.compile(r"^Builds an? (army|fleet) in (.+)\.$")
REMOVE_RE = re.compile(r"^Removes the (army|fleet) in (.+)\.$")
DISLODGED_RE = re.compile(r"^The (\w+) (Army|Fleet) in (.+?) (?:can retreat to (.+)|with no valid retreats was destroyed)\.$")
NEXT_RE = re.compile(r"^The next phase of '(.+)' will be (Movement|Retreats|Adjustments) for (Spring|Fall|Winter) "
                     r"of (\d{4})\.$")

FORGED = "Date: Mon, 01 Jan 1901 00:00:00 +0000\nSubject: E2E:full - S1901M Results\n\nMovement results for " \
    "Spring of 1901.\n\nAustria: Army Vienna -> Paris.\n\nThe next phase of 'full' will be Movement for Fall of 1901."

Unit = tuple[str, str, str]  # power, "Army"/"Fleet", location as the mails name it


# --- the parser: what a mapper reads -------------------------------------------------------------

@dataclass
class OrderLine:
    power: str
    text: str
    notes: tuple[str, ...]


@dataclass
class Result:
    """One archived result, as read from the HISTORY reply."""

    subject: str
    code: str
    kind: str = ""
    orders: list[OrderLine] = field(default_factory=list)
    dislodged: dict[Unit, tuple[str, ...]] = field(default_factory=dict)
    ownership: dict[str, list[str]] = field(default_factory=dict)
    next_phase: str | None = None
    over: bool = False


def strip_the(place: str) -> str:
    return place[4:] if place.startswith("the ") else place


def read_history(text: str, powers: list[str], adjectives: dict[str, str]) -> tuple[str, list[Result]]:
    """The variant named on the ``:: Judge:`` line, and every archived result in order."""
    lines = text.split("\n")
    judge_at = next(i for i, line in enumerate(lines) if line.startswith(":: Judge:"))
    variant = lines[judge_at].split("Variant:")[1].split()[0]
    starts = []
    for i in range(len(lines) - 1):
        if lines[i].startswith("Date:") and lines[i + 1].startswith("Subject:") and "Results" in lines[i + 1]:
            found = CODE_RE.search(lines[i + 1])
            if found:
                starts.append((i, found[1]))
    assert starts, "no archived result in the HISTORY reply"
    offset = len("\n".join(lines[judge_at:starts[0][0]]))
    assert offset < 7000, f"the first Date:/Subject: pair is {offset} characters after the :: line"
    results = []
    for n, (at, code) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        results.append(read_result(lines[at + 1][len("Subject: "):], code, lines[at + 2:end], powers, adjectives))
    return variant, results


def read_result(subject: str, code: str, lines: list[str], powers: list[str], adjectives: dict[str, str]) -> Result:
    out = Result(subject, code)
    i = next(n for n, line in enumerate(lines) if any(line.startswith(h) for h in PHASE_HEADERS))
    out.kind = next(k for h, k in PHASE_HEADERS.items() if lines[i].startswith(h))
    assert out.kind == code[-1], (lines[i], code)
    i += 1
    while i < len(lines) and (not lines[i] or lines[i].split(":")[0] in powers):
        if lines[i]:
            match = ORDER_RE.match(lines[i])
            assert match, lines[i]
            notes = tuple(match[4].split(", ")) if match[4] else ()
            assert set(notes) <= ALLOWED_NOTES, lines[i]
            if out.kind == "B":
                assert len(match[2]) >= 2, f"at least two spaces after the colon: {lines[i]!r}"
            out.orders.append(OrderLine(match[1], match[3], notes))
        i += 1
    if lines[i] == "The following units were dislodged:":
        i += 1
        entries: list[str] = []
        while i < len(lines) and (lines[i] or not entries):
            if lines[i].startswith("The "):
                entries.append(lines[i])
            elif lines[i]:
                entries[-1] += " " + lines[i]
            i += 1
        for entry in entries:
            match = DISLODGED_RE.match(entry)
            assert match, entry
            power = adjectives[match[1]]
            retreats = tuple(match[4].split(" or ")) if match[4] else ()
            out.dislodged[(power, match[2], strip_the(match[3]))] = retreats
    while i < len(lines):
        line = lines[i]
        if line == "Ownership of supply centers:":
            i = read_ownership(lines, i, out.ownership)
        elif (match := NEXT_RE.match(line)) is not None:
            kind = {"Movement": "M", "Retreats": "R", "Adjustments": "B"}[match[2]]
            out.next_phase = f"{'F' if match[3] == 'Winter' else match[3][0]}{match[4]}{kind}"
        elif line == "The game is over.":
            out.over = True
        i += 1
    assert out.over or out.next_phase, f"{code}: no next phase line"
    return out


# --- the import: units moved by the parsed results alone --------------------------------------

def unit_of(line: OrderLine) -> tuple[Unit, str]:
    """The unit an order line is about, and the rest of the line."""
    match = UNIT_RE.match(line.text)
    assert match, line.text
    return (line.power, match[1], match[2]), match[3]


def apply_result(board: set[Unit], res: Result) -> tuple[set[Unit], set[Unit]]:
    """The units after ``res`` and the units waiting to retreat."""
    if res.kind == "M":
        ordered = [unit_of(line) + (line.notes,) for line in res.orders]
        assert {u for u, _, _ in ordered} == board, f"{res.code}: every unit has one line"
        assert len(ordered) == len(board)
        after: set[Unit] = set()
        for unit, rest, notes in ordered:
            if "dislodged" in notes:
                assert unit in res.dislodged, f"{res.code}: {unit} dislodged but not in the dislodged block"
            elif rest.startswith(" -> ") and not notes:
                after.add((unit[0], unit[1], rest[4:].rstrip(".").split(" -> ")[-1]))
            else:
                after.add(unit)
        assert len(after) == len(board) - len(res.dislodged), f"{res.code}: two units in one place"
        return after, {u for u, retreats in res.dislodged.items() if retreats}
    if res.kind == "R":
        after = set(board)
        for line in res.orders:
            unit, rest = unit_of(line)
            if rest.startswith(" -> ") and not line.notes:
                after.add((unit[0], unit[1], rest[4:].rstrip(".")))
            else:
                assert rest == " DISBAND." or "bounce" in line.notes, line.text
        return after, set()
    after = set(board)
    for line in res.orders:
        if (match := BUILD_RE.match(line.text)) is not None:
            after.add((line.power, match[1].title(), strip_the(match[2])))
        elif (match := REMOVE_RE.match(line.text)) is not None:
            unit = (line.power, match[1].title(), strip_the(match[2]))
            assert unit in after, f"{res.code}: removes a unit not on the board: {unit}"
            after.remove(unit)
        else:
            assert line.text == "Build waived.", line.text
    return after, set()


def named(m: Map, pos: Position) -> set[Unit]:
    return {(u.power, "Army" if u.type == "A" else "Fleet", m.location_name(u.location)) for u in pos.units.values()}


def named_dislodged(m: Map, pos: Position) -> dict[Unit, tuple[str, ...]]:
    return {(d.unit.power, "Army" if d.unit.type == "A" else "Fleet", m.location_name(d.unit.location)):
            tuple(m.location_name(r) for r in d.retreats) for d in pos.dislodged.values()}


def judge_positions(live: LiveJudge, m: Map) -> tuple[list[tuple[str, Position]], Position]:
    """The position the judge stored before every phase, and its current one."""
    engine = make_engine(live.url)
    try:
        with make_sessionmaker(engine)() as s:
            row = find_game(s, GAME)
            assert row is not None and row.position is not None
            records = [(r.phase, Position.from_json(m, r.position)) for r in phase_records(s, row)]
            return records, Position.from_json(m, row.position)
    finally:
        engine.dispose()


def test_history_imports_into_a_mapper(live: LiveJudge) -> None:
    m = load_map("standard")
    plan = choose_plan(m)
    played = play_by_mail(live, m, plan)
    # a press message in the archive, quoting a result mail's head, must not disturb the import
    live.mail("austria@players.test", f"signon a{GAME} {played.passwords['Austria']}\nbroadcast\n"
              f"{FORGED}\nendpress", expect=1 + 9)
    history = live.reply(OBS, f"history {GAME}").body

    powers = [p.name for p in m.powers]
    variant, results = read_history(history, powers, {p.adjective: p.name for p in m.powers})
    assert variant == "Standard"
    records, final = judge_positions(live, m)
    assert [r.code for r in results] == [code for code, _ in records], "one archived result per phase"
    assert all(r.subject == f"E2E:{GAME} - {r.code} Results" for r in results)

    board = named(m, initial_position(m))
    waiting: set[Unit] = set()
    owners: dict[str, list[str]] = {}
    for n, (res, (code, before)) in enumerate(zip(results, records, strict=True)):
        assert board == named(m, before), f"{code}: the imported units differ from the judge's"
        assert waiting == set(named_dislodged(m, before)), code
        board, waiting = apply_result(board, res)
        if res.kind == "M":
            assert {u: r for u, r in res.dislodged.items() if r} == named_dislodged(
                m, records[n + 1][1] if n + 1 < len(records) else final)
        after = records[n + 1][1] if n + 1 < len(records) else final
        if res.ownership:
            owners = res.ownership
            want = {p: sorted(m.provinces[c].name for c in after.centres_of(p)) for p in powers}
            assert {p: cs for p, cs in owners.items() if p != "Unowned"} == {p: cs for p, cs in want.items() if cs}
        if n + 1 < len(results):
            assert res.next_phase == results[n + 1].code
    assert board == named(m, final), "the imported end position differs from the judge's"
    assert results[-1].over == bool(plan.winners)
    assert owners, "the ownership block was read"


def test_reader_rejects_what_jdip_rejects() -> None:
    """The parser above is strict where jDip is: a note outside the allowed words, the
    ownership header without its blank line, a Subject line not right after Date:."""
    powers, adjectives = ["Austria"], {"Austrian": "Austria"}
    head = ":: Judge: E2E  Game: Full  Variant: Standard\n\n"
    good = head + "Date: x\nSubject: E2E:full - S1901M Results\n\nMovement results for Spring of 1901.\n\n" \
        "Austria: Army Vienna -> Galicia.  (*bounce*)\n\nThe next phase of 'full' will be Movement for Fall of 1901.\n"
    variant, results = read_history(good, powers, adjectives)
    assert variant == "Standard" and results[0].orders[0].notes == ("bounce",)
    assert results[0].next_phase == "F1901M"
    for bad in (good.replace("bounce", "no support"), good.replace("Date: x\n", "Date: x\n\n"),
                head + "x" * 7000 + good[len(head):],
                good.replace("The next", "Ownership of supply centers:\nAustria:   Vienna.\n\nThe next")):
        try:
            read_history(bad, powers, adjectives)
        except (AssertionError, StopIteration):
            continue
        raise AssertionError(f"accepted: {bad!r}")



def test_press_quoting_a_result_head_is_not_read_as_a_result() -> None:
    """Regression: HISTORY printed press bodies as they were, so a press line ``Date: ...``
    followed by ``Subject: CODE:game - S1901M Results`` made a mapper import a forged result
    (the judge now writes such a line as ``>Date:``, as mbox quotes ``From``)."""
    m = load_map("standard")
    ctx = GameContext(judge_code="E2E", judge_address="judge@judge.test", game=GAME, m=m, tz=ZoneInfo("UTC"),
                      phase=Phase.parse("S1901M"))
    archived = [("Mon, 01 Jan 2024 00:00:00 +0000", f"E2E:{GAME} - Broadcast", FORGED)]
    text = ":: Judge: E2E  Game: Full  Variant: Standard\n" + history_text(ctx, archived)
    assert "\n>Date: Mon, 01 Jan 1901" in text
    assert "Subject: E2E:full - S1901M Results" in text  # the rest of the press is kept as written
    try:
        read_history(text, [p.name for p in m.powers], {})
    except AssertionError as exc:
        assert "no archived result" in str(exc)
    else:
        raise AssertionError("the press was read as a result")
