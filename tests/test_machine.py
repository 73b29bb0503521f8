"""``judge adjudicate``: JSON Lines in and out, a whole random game fed back phase by phase."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from judge.engine import Position, adjudicate, initial_position
from judge.maps import load_board
from judge.randomgame import parse_legal, random_orders


def _run(lines: list[str]) -> list[dict]:  # type: ignore[type-arg]
    proc = subprocess.run(
        [sys.executable, "-m", "judge.cli", "adjudicate"], input="\n".join(lines) + "\n",
        capture_output=True, text=True, check=True,
    )
    return [json.loads(x) for x in proc.stdout.splitlines()]


def test_issue_example_round_trip() -> None:
    request = {
        "map": "standard", "options": {}, "phase": "S1901M",
        "units": {"England": ["F nth", "A yor"]}, "centres": {"England": ["edi", "lon", "lvp"]},
        "orders": {"England": ["F nth - nwy"]},
    }
    [out] = _run([json.dumps(request)])
    assert out["errors"] == []
    assert out["results"] == [
        {"power": "England", "order": "Fleet North Sea -> Norway.", "outcome": ""},
        {"power": "England", "order": "Army Yorkshire HOLD.", "outcome": ""},
    ]
    assert out["next"] == {
        "phase": "F1901M", "units": {"England": ["A yor", "F nwy"]}, "dislodged": {},
        "centres": {"England": ["edi", "lon", "lvp"]},
    }


def test_bad_lines_get_an_error_and_the_next_line_is_still_processed() -> None:
    good = {"map": "standard", "phase": "S1901M", "units": {"France": ["A par"]}, "orders": {"France": ["A par-bur"]}}
    out = _run([
        "not json",
        json.dumps({"map": "atlantis"}),
        json.dumps({"map": "standard", "units": {"France": ["A nth"]}}),
        json.dumps({"map": "standard", "options": {"no_such_option": 1}}),
        json.dumps(good),
        json.dumps({"units": {"France": ["A par"], "Germany": ["A par"]}}),
    ])
    assert out[0]["error"].startswith("not JSON")
    assert "no map called 'atlantis'" in out[1]["error"]
    assert "cannot stand on 'nth'" in out[2]["error"]
    assert "no game option called 'no_such_option'" in out[3]["error"]
    assert out[4]["next"]["units"] == {"France": ["A bur"]}
    assert out[5]["error"] == "two units in par: A par and A par"


def test_refused_orders_are_reported_and_the_unit_holds() -> None:
    request = {"phase": "S1901M", "units": {"Germany": ["A mun"], "France": ["A par"]},
               "orders": {"Germany": ["A mun - par", "A mun - xyz"], "Atlantis": ["A x-y"]}}
    [out] = _run([json.dumps(request)])
    assert out["next"]["units"] == {"France": ["A par"], "Germany": ["A mun"]}
    assert any("Unrecognized province 'xyz'" in e for e in out["errors"])
    assert any("Atlantis" in e for e in out["errors"])
    assert any("Munich" in e for e in out["errors"])  # Munich cannot reach Paris


def test_a_whole_random_game_round_trips() -> None:
    """Each phase's ``next`` is fed back as the following input; the command must agree
    with the engine called directly, phase for phase, and never report an error."""
    board = load_board("standard")
    m = board.map
    rng = random.Random(7)
    state = initial_position(m).to_json(m)
    requests, expected = [], []
    for _ in range(40):
        position = Position.from_json(m, state)
        orders = random_orders(board, position, rng)
        requests.append(json.dumps({"map": "standard", **state, "orders": orders}))
        result = adjudicate(board, position, parse_legal(board, position, orders))
        state = result.next.to_json(m)
        expected.append(state)
        if result.winners:
            break
    kinds = {json.loads(r)["phase"][-1] for r in requests}
    assert kinds == {"M", "R", "B"}, "the game should include retreats and adjustments"
    outputs = _run(requests)
    assert len(outputs) == len(requests)
    for out, want in zip(outputs, expected, strict=True):
        assert "error" not in out
        assert out["next"] == want


def test_each_answer_comes_before_the_next_line_is_sent() -> None:
    """A tool in lockstep sends a phase, waits for its answer, then sends the next: every
    answer must be written while standard input is still open."""
    import select

    line = json.dumps({"phase": "S1901M", "units": {"France": ["A par"]}, "orders": {"France": ["A par - bur"]}})
    proc = subprocess.Popen([sys.executable, "-m", "judge.cli", "adjudicate"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for _ in range(2):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "no answer within 30 s while the input stays open"
            assert json.loads(proc.stdout.readline())["next"]["units"] == {"France": ["A bur"]}
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def test_a_line_that_is_not_utf8_gets_an_error_and_the_next_is_answered() -> None:
    good = json.dumps({"phase": "S1901M", "units": {"France": ["A par"]}, "orders": {"France": ["A par - bur"]}})
    proc = subprocess.run([sys.executable, "-m", "judge.cli", "adjudicate"],
                          input=b'{"map": "\xff"}\n' + good.encode() + b"\n", capture_output=True, check=True)
    bad, answer = (json.loads(x) for x in proc.stdout.splitlines())
    assert "no map called" in bad["error"]
    assert answer["next"]["units"] == {"France": ["A bur"]}


def test_a_line_sent_again_is_read_again_where_the_units_it_rests_on_differ() -> None:
    """``judge adjudicate`` keeps the orders of plain lines it has read; a line that comes
    again must give what a first reading gives in the new position: a convoyed move is
    checked again (its fleets may be gone), a support is read again when the unit it names
    is another one, and a line kept as legal is still answered with its own order text."""
    convoyed = {"phase": "S1901M", "units": {"England": ["A lon", "F nth"]},
                "orders": {"England": ["A lon - nwy", "F nth C A lon - nwy"]}}
    no_fleet = {"phase": "S1901M", "units": {"England": ["A lon", "F iri"]},
                "orders": {"England": ["A lon - nwy", "F nth C A lon - nwy"]}}
    support = {"phase": "S1901M", "units": {"Germany": ["A mun", "A ber"]},
               "orders": {"Germany": ["A mun S A ber - sil", "A ber - sil"]}}
    fleet_named = {"phase": "S1901M", "units": {"Germany": ["A mun", "F ber"]},
                   "orders": {"Germany": ["A mun S A ber - sil", "F ber - sil"]}}
    first, second, third, fourth, again = _run([json.dumps(x) for x in (convoyed, no_fleet, support, fleet_named,
                                                                        convoyed)])
    assert first["errors"] == [] and first["next"]["units"] == {"England": ["A nwy", "F nth"]}
    assert any("cannot move to Norway" in e for e in second["errors"]), second["errors"]
    assert second["next"]["units"] == {"England": ["A lon", "F iri"]}
    assert third["errors"] == [] and third["next"]["units"] == {"Germany": ["A mun", "A sil"]}
    assert fourth["errors"] == ["Germany: A mun S A ber - sil: Army Munich cannot support Fleet Berlin to Silesia: "
                                "it cannot get there.", "Germany: F ber - sil: Fleet Berlin cannot move to Silesia."]
    assert fourth["next"]["units"] == {"Germany": ["A mun", "F ber"]}
    assert again == first
    assert [r["order"] for r in again["results"]] == ["Army London -> Norway.",
                                                      "Fleet North Sea CONVOY Army London -> Norway."]
