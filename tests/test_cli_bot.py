"""``judge bot`` as a subprocess: JSON Lines in the position contract of ``judge
adjudicate`` plus the powers and a seed; one line out per line with each power's orders in
the judge's order syntax, every one of them legal by the engine's validation, in movement,
retreat and adjustment phases on the three maps."""

from __future__ import annotations

import json
import subprocess
import sys

from judge.bots import bot_orders, phase_seed
from judge.engine import Options, Position, adjudicate, initial_position
from judge.engine.parser import parse_order
from judge.engine.phase import ADJUSTMENT, MOVEMENT, RETREAT
from judge.engine.validation import check_order
from judge.maps import load_board

MAPS: list[tuple[str, dict[str, object]]] = [("standard", {}), ("colonial", {"colonial_rules": "moulmein"}), ("oceania", {})]


def _phases(name: str, options: dict[str, object]) -> list[Position]:
    """One position of each phase kind, reached by bots playing."""
    board = load_board(name, Options(options))
    pos = initial_position(board.map)
    found: dict[str, Position] = {}
    for _ in range(60):
        found.setdefault(pos.phase.kind, pos)
        if len(found) == 3:
            break
        orders = [o for p in board.map.power_names for o in bot_orders(board, pos, p, phase_seed("cli", pos.phase.code))]
        pos = adjudicate(board, pos, orders).next
    assert set(found) == {MOVEMENT, RETREAT, ADJUSTMENT}
    return list(found.values())


def test_judge_bot_answers_every_phase_kind_on_the_three_maps_with_legal_orders() -> None:
    requests: list[dict[str, object]] = []
    expected = []
    for name, options in MAPS:
        board = load_board(name, Options(options))
        for pos in _phases(name, options):
            powers = sorted({u.power for u in pos.units.values()} | {d.unit.power for d in pos.dislodged.values()})
            requests.append({"map": name, "options": options, **pos.to_json(board.map), "powers": powers, "seed": 5})
            expected.append((board, pos, powers))
    lines = "\n".join(json.dumps(r) for r in requests) + "\n" + "not json\n"
    out = subprocess.run([sys.executable, "-m", "judge", "bot"], input=lines, capture_output=True, text=True,
                         check=True, timeout=300)
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert len(answers) == len(requests) + 1
    assert "error" in answers[-1]
    written = 0
    for (board, pos, powers), answer in zip(expected, answers[:-1], strict=True):
        assert sorted(answer["orders"]) == powers
        for power, texts in answer["orders"].items():
            for text in texts:
                check_order(board, pos, parse_order(board, pos, power, text))
                written += 1
        if pos.phase.kind == RETREAT:
            assert all(answer["orders"][d.unit.power] for d in pos.dislodged.values())
    assert written > 50
