"""``judge adjudicate`` and MILA behind the same JSON contract, on convoy-heavy phases.

Run: ``python bench/adjudicate_contract.py [--phases 2000] [--seed 1] [--rounds 3]
[--no-inprocess]``. Prints figures; asserts nothing.

1. ``convoy_phases.py`` makes the phase set (Standard movement phases, 10-34 units, convoy
   chains, supports, broken and illegal orders), written as JSON Lines.
2. Each engine is a real subprocess fed the file on standard input: ``python -m judge.cli
   adjudicate`` and, where MILA's ``diplomacy`` package is installed (``pip install
   diplomacy``, the ``bench`` extra), ``bench/mila_contract.py`` twice: with one ``Game``
   reused (its fastest correct use) and with a fresh ``Game`` per line; runs alternate,
   ``--rounds`` each. A warm-up line goes first, so that the rate is counted from its answer to the last
   answer: start-up and imports are left out (both are also printed). The rate is given in
   wall-clock time (best round) and in the child's processor time (its CPU seconds less
   those of a run of the warm-up line alone), which other load on the machine disturbs less.
3. Lockstep: the two engines' next positions are compared phase by phase; each divergence
   is put down to one of MILA's known deviations from DATC 3.0 (``mila_deviations.py``) or
   counted as unexplained.
4. Memory (tracemalloc): engine values per position and per played game.
5. In-process, the figures of ``engine_throughput.py`` (seeded random games).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import IO

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import convoy_phases  # noqa: E402
import engine_throughput  # noqa: E402

from judge.engine import Position, initial_position  # noqa: E402
from judge.maps import load_board  # noqa: E402
from judge.randomgame import play  # noqa: E402

try:
    import diplomacy  # type: ignore[import-not-found]  # noqa: F401
except ImportError:  # the peer is optional
    HAVE_MILA = False
else:
    HAVE_MILA = True

OURS = [sys.executable, "-m", "judge.cli", "adjudicate"]
MILA = [sys.executable, str(HERE / "mila_contract.py")]
MILA_FRESH = [*MILA, "--fresh"]
WARM_UP = json.dumps({"map": "standard", "phase": "S1901M", "units": {"France": ["A par"]},
                      "centres": {"France": ["par"]}, "orders": {"France": ["A par - bur"]}})


class Run:
    """One subprocess fed the phase file: its answers and its timings."""

    def __init__(self, command: list[str], path: Path) -> None:
        lines = [WARM_UP, *path.read_text(encoding="utf-8").splitlines()]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                cwd=HERE.parent, env={**os.environ, "PYTHONPATH": str(HERE.parent)})
        assert proc.stdin is not None and proc.stdout is not None
        feeder = threading.Thread(target=_feed, args=(proc.stdin, lines))
        feeder.start()
        first = proc.stdout.readline()
        self.first_answer = time.perf_counter()
        raw = proc.stdout.readlines()  # decoded after the clock stops, not to compete for a core
        self.last_answer = time.perf_counter()
        self.answers = [json.loads(x) for x in raw]
        feeder.join()
        proc.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert first, f"{command} gave no answer"
        self.total = self.last_answer - started
        self.steady = self.last_answer - self.first_answer
        self.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _feed(stream: IO[str], lines: list[str]) -> None:
    """Write the lines as a tool streaming a file would, and close the input."""
    stream.write("".join(line + "\n" for line in lines))
    stream.close()


def start_cpu(command: list[str]) -> float:
    """The processor seconds of a run of the warm-up line alone (start-up, imports, map)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, input=WARM_UP + "\n", capture_output=True, text=True, check=True, cwd=HERE.parent)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def rates(path: Path, n: int, rounds: int) -> dict[str, tuple[Run, float]]:
    """Run each engine ``rounds`` times, alternating; per engine its fastest run and its
    processor seconds for the phases (its fewest, less those of start-up)."""
    engines = {"judge": OURS, **({"MILA": MILA, "MILA, a Game per line": MILA_FRESH} if HAVE_MILA else {})}
    runs: dict[str, list[Run]] = {name: [] for name in engines}
    for _ in range(rounds):
        for name, command in engines.items():
            runs[name].append(Run(command, path))
    out: dict[str, tuple[Run, float]] = {}
    for name, command in engines.items():
        start = min(start_cpu(command) for _ in range(rounds))
        best = min(runs[name], key=lambda r: r.steady)
        cpu = min(r.cpu for r in runs[name]) - start
        out[name] = (best, cpu)
        print(f"{name}: {n / best.steady:,.0f} phases/s steady ({1e6 * best.steady / n:.0f} us/phase wall), "
              f"{n / cpu:,.0f} phases/s by processor time ({1e6 * cpu / n:.0f} us/phase); "
              f"whole run {best.total:.2f} s, start-up {start:.2f} s of processor time")
    return out


def lockstep(path: Path, ours: list[dict], mila: list[dict]) -> None:  # type: ignore[type-arg]
    from mila_deviations import KNOWN, explain, same

    board = load_board("standard")
    requests = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    found: Counter[str] = Counter()
    unexplained: list[int] = []

    for i, (request, a, b) in enumerate(zip(requests, ours, mila, strict=True)):
        if same(a, b):
            continue
        why = explain(board, request, a, b)
        if why is None:
            unexplained.append(i)
        else:
            found[why] += 1
    diverged = sum(found.values()) + len(unexplained)
    print(f"lockstep: {len(requests) - diverged} of {len(requests)} phases give the same next position; "
          f"{diverged} differ, {len(unexplained)} of them unexplained"
          + (f" (phases {unexplained[:10]})" if unexplained else ""))
    for name in KNOWN:
        print(f"  MILA deviation {name}: {found[name]} phases")


def memory() -> None:
    board = load_board("standard")
    requests = convoy_phases.generate(500, 99)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    kept = [Position.from_json(board.map, r) for r in requests]
    per_position = (tracemalloc.get_traced_memory()[0] - base) / len(kept)
    tracemalloc.stop()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    games = [list(play(board, initial_position(board.map), seed, 40)) for seed in range(5)]
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    phases = sum(len(g) for g in games)
    print(f"memory: {per_position / 1024:.1f} KiB per position of {sum(len(p.units) for p in kept) / len(kept):.0f} "
          f"units (units are shared values, counted where first made); {used / len(games) / 1024:.0f} KiB "
          f"per game of {phases / len(games):.0f} phases kept whole (positions, orders as text, adjudications)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-inprocess", action="store_true", help="skip engine_throughput's figures")
    args = ap.parse_args()
    requests = convoy_phases.generate(args.phases, args.seed)
    convoys = sum(o.count(" C ") for r in requests for lines in r["orders"].values() for o in lines)
    units = sum(len(us) for r in requests for us in r["units"].values())
    print(f"{args.phases} convoy-heavy movement phases (seed {args.seed}): {units / args.phases:.1f} units "
          f"and {convoys / args.phases:.1f} convoy orders a phase")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "phases.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in requests), encoding="utf-8")
        measured = rates(path, args.phases, args.rounds)
        if HAVE_MILA:
            ours, our_cpu = measured["judge"]
            for name in ("MILA", "MILA, a Game per line"):
                peer, peer_cpu = measured[name]
                print(f"ratio to {name}: judge adjudicate is {peer.steady / ours.steady:.1f}x its rate by wall "
                      f"clock, {peer_cpu / our_cpu:.1f}x by processor time")
            lockstep(path, ours.answers, measured["MILA"][0].answers)
        else:
            print("MILA diplomacy package not installed: no comparison (pip install diplomacy)")
    memory()
    if not args.no_inprocess:
        print("in-process (bench/engine_throughput.py):")
        engine_throughput.run(20, 40, 1, 3)


if __name__ == "__main__":
    main()
