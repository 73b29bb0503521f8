"""Engine benchmark: seeded random games of legal orders, phases per second and peak memory.

Run: ``python bench/engine_throughput.py [--games 20] [--phases 40] [--seed 1] [--repeat 3]``.

Our side times what a judge does per phase: parse the order texts, check them, adjudicate.
Where MILA's ``diplomacy`` package is installed (``pip install diplomacy``), the same games
are first played through both engines in lockstep and compared after every phase (a game
whose boards differ is cut there), then each engine replays exactly those phases on its own,
so that neither pays for the other: ``--repeat`` rounds, the two engines taking turns, each
timed in processor time (other load on the machine disturbs it less than the clock), best
round kept. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine import adjudicate, initial_position  # noqa: E402
from judge.maps import load_board  # noqa: E402
from judge.randomgame import parse_legal, random_orders  # noqa: E402

try:
    import diplomacy  # type: ignore[import-not-found]
except ImportError:  # the peer is optional
    diplomacy = None

Game = list[tuple[str, dict[str, list[str]]]]  # (phase kind, orders by power) per phase


def mila_order(text: str, kind: str) -> str:
    """Our plain order text in MILA's syntax."""
    words = text.split()
    if words[0] == "build":
        return f"{words[1]} {words[2].upper()} B"
    if words[0] == "remove":
        return f"{words[1]} {words[2].upper()} D"
    if kind == "R":
        if words[-1] == "disband":
            return f"{words[0]} {words[1].upper()} D"
        return f"{words[0]} {words[1].upper()} R {words[3].upper()}"
    return " ".join(w.upper() for w in words)


def mila_phase(code: str, kind: str) -> str:
    return "W" + code[1:-1] + "A" if kind == "B" else code


def record(games: int, phases: int, seed: int) -> tuple[list[Game], int]:
    """Play the random games with our engine, checking MILA in lockstep where installed."""
    board = load_board("standard")
    recorded: list[Game] = []
    cut = 0
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        pos = initial_position(board.map)
        peer = diplomacy.Game() if diplomacy else None
        game: Game = []
        for _ in range(phases):
            orders = random_orders(board, pos, rng)
            result = adjudicate(board, pos, parse_legal(board, pos, orders))
            if peer is not None:
                kind = pos.phase.kind
                for power, lines in orders.items():
                    peer.set_orders(power.upper(), [mila_order(x, kind) for x in lines])
                peer.process()
                theirs = {u for p in peer.powers.values() for u in p.units}
                ours = {f"{u.type} {u.location.upper()}" for u in result.next.units.values()}
                same_phase = peer.get_current_phase() == mila_phase(result.next.phase.code, result.next.phase.kind)
                if theirs != ours or not same_phase:
                    cut += 1
                    break
            game.append((pos.phase.kind, orders))
            pos = result.next
            if result.winners:
                break
        recorded.append(game)
    return recorded, cut


def time_ours(games: list[Game]) -> float:
    board = load_board("standard")
    start = time.process_time()
    for game in games:
        pos = initial_position(board.map)
        for _, orders in game:
            pos = adjudicate(board, pos, parse_legal(board, pos, orders)).next
    return time.process_time() - start


def time_mila(games: list[Game]) -> float:
    start = time.process_time()
    for game in games:
        peer = diplomacy.Game()
        for kind, orders in game:
            for power, lines in orders.items():
                peer.set_orders(power.upper(), [mila_order(x, kind) for x in lines])
            peer.process()
    return time.process_time() - start


def peak_kib(fn, games: list[Game]) -> float:  # type: ignore[no-untyped-def]
    gc.collect()
    tracemalloc.start()
    fn(games[:1])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def run(games: int, phases: int, seed: int, repeat: int) -> None:
    recorded, cut = record(games, phases, seed)
    n = sum(len(g) for g in recorded)
    ours_runs: list[float] = []
    mila_runs: list[float] = []
    for _ in range(repeat):  # taking turns, so that a change in the machine's load hits both
        ours_runs.append(time_ours(recorded))
        if diplomacy is not None:
            mila_runs.append(time_mila(recorded))
    ours = min(ours_runs)
    print(f"judge engine: {n} phases in {ours:.3f} s = {n / ours:,.0f} phases/s "
          f"({1000 * ours / n:.3f} ms/phase of processor time: parse + check + adjudicate); "
          f"peak memory over one game {peak_kib(time_ours, recorded):,.0f} KiB")
    if diplomacy is None:
        print("MILA diplomacy package not installed: no comparison (pip install diplomacy)")
        return
    peer = min(mila_runs)
    print(f"MILA diplomacy: the same {n} phases in {peer:.3f} s = {n / peer:,.0f} phases/s "
          f"({1000 * peer / n:.3f} ms/phase: set_orders + process); "
          f"peak memory over one game {peak_kib(time_mila, recorded):,.0f} KiB")
    print(f"{cut} of {games} games were cut where the two boards differed")
    print(f"ratio: judge is {peer / ours:.1f}x the throughput of MILA diplomacy on the same phases")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--phases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    run(args.games, args.phases, args.seed, args.repeat)


if __name__ == "__main__":
    main()
