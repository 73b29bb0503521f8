"""Engine benchmark: seeded random games of legal orders, phases per second and peak memory.

Run: ``python bench/engine_throughput.py [--games 20] [--phases 40] [--seed 1]``.

Our side times what a judge does per phase: parse the order texts, check them, adjudicate.
Where MILA's ``diplomacy`` package is installed (``pip install diplomacy``), the same games
are replayed through it in lockstep, timing its ``set_orders`` + ``process``; after every
phase the two boards are compared, and a game whose boards differ stops there (so both
engines are timed on exactly the same phases). Prints figures; asserts nothing.
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
from judge.maps import load_map  # noqa: E402
from judge.randomgame import parse_legal, random_orders  # noqa: E402

try:
    import diplomacy  # type: ignore[import-not-found]
except ImportError:  # the peer is optional
    diplomacy = None


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


def board(position) -> set[str]:  # type: ignore[no-untyped-def]
    return {f"{u.type} {u.location.upper()}" for u in position.units.values()}


def run(games: int, phases: int, seed: int) -> None:
    m = load_map("standard")
    ours = 0.0
    peer = 0.0
    n_ours = n_peer = diverged = 0
    recorded = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        pos = initial_position(m)
        game = diplomacy.Game() if diplomacy else None
        in_step = game is not None
        for _ in range(phases):
            orders = random_orders(m, pos, rng)
            t0 = time.perf_counter()
            result = adjudicate(m, pos, parse_legal(m, pos, orders))
            ours += time.perf_counter() - t0
            n_ours += 1
            recorded.append((pos, orders))
            if in_step:
                kind = pos.phase.kind
                t0 = time.perf_counter()
                for power, lines in orders.items():
                    game.set_orders(power.upper(), [mila_order(x, kind) for x in lines])
                game.process()
                peer += time.perf_counter() - t0
                want = result.next.phase.code
                if result.next.phase.kind == "B":
                    want = "W" + want[1:-1] + "A"
                same_phase = game.get_current_phase() == want
                theirs = {u for p in game.powers.values() for u in p.units}
                if theirs == board(result.next) and same_phase:
                    n_peer += 1
                else:
                    in_step = False
                    diverged += 1
            pos = result.next
            if result.winners:
                break
    print(f"judge engine: {n_ours} phases in {ours:.3f} s = {n_ours / ours:,.0f} phases/s "
          f"({1000 * ours / n_ours:.3f} ms/phase; parse + check + adjudicate)")
    gc.collect()
    tracemalloc.start()
    for pos, orders in recorded[:200]:
        adjudicate(m, pos, parse_legal(m, pos, orders))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"judge engine: peak memory per phase {peak / 1024:,.0f} KiB (tracemalloc)")
    if diplomacy is None:
        print("MILA diplomacy package not installed: no comparison (pip install diplomacy)")
        return
    if n_peer == 0:
        print("MILA diplomacy: no phase in step")
        return
    print(f"MILA diplomacy: {n_peer} identical phases in {peer:.3f} s = {n_peer / peer:,.0f} phases/s "
          f"({1000 * peer / n_peer:.3f} ms/phase); {diverged} game(s) stopped where the boards differed")
    print(f"ratio judge/MILA (time per phase, same games): {(peer / n_peer) / (ours / n_ours):.1f}x")

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--phases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    run(args.games, args.phases, args.seed)


if __name__ == "__main__":
    main()
