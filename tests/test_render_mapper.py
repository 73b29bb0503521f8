"""Read our result mails back the way jDip reads a judge's mails (mapper-compat.md): every
unit exactly one order line, notes only from the allowed list, the dislodged block and the
ownership block in their exact shape. The mails come from random games on every map."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from judge.engine import initial_position
from judge.engine.map import UNIT_NAMES
from judge.engine.phase import ADJUSTMENT, MOVEMENT, RETREAT
from judge.maps import load_board
from judge.randomgame import play
from judge.render import ALLOWED_NOTES, GameContext, results_mail
from judge.render.formats import wrap_entry

HEADER = re.compile(r"^:: Judge: (\S+)  Game: (\S+)  Variant: (\S+)")
DEADLINE = re.compile(r"^:: Deadline: ([SFW]\d{4}[MRBA]) \w{3} \w{3} \d\d \d{4} \d\d:\d\d:\d\d [+-]\d{4}")
TITLE = re.compile(r"^(Movement results|Retreat orders|Adjustment orders) for (\w+) of (\d+)\.  \((\S+)\.(\d{3})\)$")
ORDER = re.compile(r"^([A-Z][\w.' -]*): (.+?)\.(?:  \(\*(.+)\*\))?$")
UNIT_ORDER = re.compile(
    r"^(Army|Fleet) (.+?)(?:, No Order Processed| HOLD| DISBAND| -> .+| SUPPORT .+| CONVOY .+)$"
)
ADJUST = re.compile(r"^(Builds an army in .+|Builds a fleet in .+|Removes the (army|fleet) in .+|Build waived)$")
ENTRY = re.compile(r"^The (.+?) (Army|Fleet) in (?:the )?(.+?) (?:can retreat to (.+)|with no valid retreats was destroyed)\.$")
OWNER = re.compile(r"^([A-Z][\w ]*?):( +)(\S.+)$")
COUNT = re.compile(r"^([A-Z][\w ]*?): +(\d+) Supply centers, +(\d+) Units:  (Builds|Removes) +(\d+) units?\.(  \(\* VICTORY!! \*\))?$")


def parse_result(body: str) -> dict:
    """Split a result mail into its parts, asserting the shape mappers rely on."""
    lines = body.split("\n")
    assert HEADER.match(lines[0]), lines[0]
    i = 1
    deadline = None
    if lines[i].startswith(":: Deadline:"):
        deadline = DEADLINE.match(lines[i])
        assert deadline, lines[i]
        i += 1
    assert lines[i] == ""
    title = TITLE.match(lines[i + 1])
    assert title, lines[i + 1]
    i += 2
    orders: list[tuple[str, str, list[str]]] = []
    while i < len(lines) and (lines[i] == "" or ORDER.match(lines[i])):
        if lines[i]:
            power, text, notes = ORDER.match(lines[i]).groups()
            assert "(*" not in text, lines[i]
            note_list = notes.split(", ") if notes else []
            orders.append((power, text.strip(), note_list))
        i += 1
    rest = lines[i:]
    dislodged: list[str] = []
    if "The following units were dislodged:" in rest:
        k = rest.index("The following units were dislodged:")
        assert "\n\n\nThe following units were dislodged:\n\nThe " in body
        k += 2
        while rest[k]:
            if rest[k].startswith("The "):
                dislodged.append(rest[k])
            else:
                dislodged[-1] += " " + rest[k]  # a continuation line never starts with "The"
            k += 1
    owners: dict[str, list[str]] = {}
    counts: dict[str, tuple[int, int, str, int]] = {}
    if "Ownership of supply centers:" in rest:
        k = rest.index("Ownership of supply centers:")
        assert rest[k + 1] == "" and rest[k + 2] != "", "exactly one blank line after the title"
        k += 2
        current = None
        while rest[k]:
            if rest[k].startswith(" "):
                assert current is not None and rest[k].startswith(" " * 11)
                owners[current][-1] += " " + rest[k].strip()
            else:
                found = OWNER.match(rest[k])
                assert found and len(found.group(2)) >= 2, rest[k]
                current = found.group(1)
                owners[current] = [found.group(3)]
            k += 1
        k += 1
        while k < len(rest) and rest[k]:
            found = COUNT.match(rest[k])
            assert found, rest[k]
            counts[found.group(1)] = (int(found.group(2)), int(found.group(3)), found.group(4), int(found.group(5)))
            k += 1
    tail = [line for line in rest if line.startswith(("The next phase of", "The game is over."))]
    assert len(tail) == 1, rest
    return {
        "deadline": deadline, "title": title, "orders": orders, "dislodged": dislodged,
        "owners": {p: ", ".join(v) for p, v in owners.items()}, "counts": counts,
    }


def mails(map_name: str, seed: int, phases: int):
    board = load_board(map_name)
    m = board.map
    ctx = GameContext(judge_code="PYJD", judge_address="j@example.org", game="rnd", m=m, tz=ZoneInfo("UTC"))
    for n, played in enumerate(play(board, initial_position(m), seed, phases), start=1):
        adj = played.adjudication
        yield m, adj, results_mail(ctx, adj, n, datetime(2030, 1, 1, tzinfo=UTC)).body


@pytest.mark.parametrize("map_name,seed", [("standard", 3), ("standard", 5), ("colonial", 2), ("oceania", 4)])
def test_random_games_read_back_like_a_mapper(map_name, seed):
    kinds = set()
    for m, adj, body in mails(map_name, seed, 40):
        part = parse_result(body)
        kind = adj.phase.phase.kind
        kinds.add(kind)
        if kind in (MOVEMENT, RETREAT):
            expected = (
                sorted((u.power, UNIT_NAMES[u.type], m.location_name(u.location)) for u in adj.phase.units.values())
                if kind == MOVEMENT
                else sorted((d.unit.power, UNIT_NAMES[d.unit.type], m.location_name(d.unit.location))
                            for d in adj.phase.dislodged.values())
            )
            seen = []
            for power, text, notes in part["orders"]:
                found = UNIT_ORDER.match(text)
                assert found, text
                # the unit's place is the text up to the order word
                place = re.split(r", No Order Processed| HOLD| DISBAND| -> | SUPPORT | CONVOY ", text)[0]
                seen.append((power, found.group(1), place.split(" ", 1)[1]))
                assert all(n in ALLOWED_NOTES for n in notes), notes
            assert sorted(seen) == expected, "every unit has exactly one order line"
        else:
            assert kind == ADJUSTMENT
            for _, text, notes in part["orders"]:
                assert ADJUST.match(text), text
                assert all(n in ALLOWED_NOTES for n in notes), notes
        if kind == MOVEMENT:
            marked = [o for o in part["orders"] if "dislodged" in o[2]]
            assert len(marked) == len(part["dislodged"]) == len(adj.dislodged)
            for entry in part["dislodged"]:
                assert ENTRY.match(entry), entry
        else:
            assert part["dislodged"] == []
        if part["owners"]:
            named = [c.strip() for text in part["owners"].values() for c in text.rstrip(".").split(",")]
            assert all(text.endswith(".") for text in part["owners"].values())
            assert sorted(named) == sorted(p.name for p in m.provinces.values() if p.supply)
            for centres, units, word, n in part["counts"].values():
                assert (word == "Builds" and n == centres - units) or (word == "Removes" and n == units - centres)
    assert kinds == {MOVEMENT, RETREAT, ADJUSTMENT}, "the game must exercise every kind of result"


def test_wrapped_entry_never_starts_a_line_with_the():
    text = "The Austrian Fleet in the Ionian Sea can retreat to Apulia or Greece or The Big Place Here."
    wrapped = wrap_entry(text, width=71)
    assert wrapped.split("\n")[0] == "The Austrian Fleet in the Ionian Sea can retreat to Apulia or Greece"
    assert wrapped.split("\n")[1] == "or The Big Place Here."
    assert " ".join(wrapped.split("\n")) == text
