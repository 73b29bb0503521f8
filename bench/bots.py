"""The judge's bot over seeded whole games, on each map: figures, never timed tests.

Run: ``python bench/bots.py [--seeds 6] [--first 1] [--years 20] [--maps standard,colonial,oceania]``.

For each map, over games seeded FIRST..FIRST+N-1 (the bot's seat turns with the seed), to a solo or the
year limit:

- one bot against six hold-bots (they send no orders: their units hold, as in civil disorder);
- one bot against six random-legal-order players (``judge.randomgame``);
- one bot against six greedy players (``bench/greedy.py``), and, for comparison, one greedy
  player against six greedy ones in the same seat;
- seven bots;
- the twin run: seven greedy players (a person's script) until a given year, when one power
  (turning with the seed) falls into civil disorder: in one run it holds from then on, in
  its twin the bot plays it; its centres five years later are compared.

Printed: solo rate, the bot's mean centres at the end, how often it had the most centres,
its illegal and void orders (must be 0), its decision time per power and phase (p50, p99;
on Colonial also over the phases with 30 units or more on the board), and the whole game's
time. Decision times are wall-clock on a shared machine: read them as an upper bound.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from greedy import greedy_orders  # noqa: E402

from judge.bots import bot_orders, phase_seed  # noqa: E402
from judge.engine import Board, Options, Order, OrderError, Position, adjudicate, initial_position  # noqa: E402
from judge.engine.results import VOID  # noqa: E402
from judge.engine.validation import Legality  # noqa: E402
from judge.maps import load_board  # noqa: E402
from judge.randomgame import parse_legal, random_orders  # noqa: E402

Player = Callable[[Board, Position, str, int], list[Order]]


def hold(board: Board, position: Position, power: str, seed: int) -> list[Order]:
    return []


def greedy(board: Board, position: Position, power: str, seed: int) -> list[Order]:
    return greedy_orders(board, position, power)


def bot(board: Board, position: Position, power: str, seed: int) -> list[Order]:
    return bot_orders(board, position, power, phase_seed(f"bench{seed}", position.phase.code))


@dataclass
class Tally:
    """What one line of figures is made of."""

    games: int = 0
    solos: int = 0
    top: int = 0
    centres: list[int] = field(default_factory=list)
    illegal: int = 0
    void: int = 0
    decisions: list[float] = field(default_factory=list)
    crowded: list[float] = field(default_factory=list)  # decisions with 30+ units on the board
    game_times: list[float] = field(default_factory=list)


def play(board: Board, seat: str, me: Player, others: Player, seed: int, years: int, tally: Tally) -> None:
    """One game: ``me`` plays ``seat``, ``others`` the rest."""
    pos = initial_position(board.map)
    last_year = pos.phase.year + years - 1
    rng = random.Random(seed)
    started = time.perf_counter()
    winners: tuple[str, ...] = ()
    while pos.phase.year <= last_year:
        t = time.perf_counter()
        mine = me(board, pos, seat, seed)
        spent = time.perf_counter() - t
        if me is bot and (pos.units_of(seat) or pos.dislodged):
            tally.decisions.append(spent)
            if len(pos.units) >= 30:
                tally.crowded.append(spent)
        legality = Legality(board, pos)
        for o in mine:
            try:
                legality.check(o)
            except OrderError:
                tally.illegal += 1
        if others is random_player:
            texts = {p: t for p, t in random_orders(board, pos, rng).items() if p != seat}
            theirs = parse_legal(board, pos, texts)
        else:
            theirs = [o for p in board.map.power_names if p != seat for o in others(board, pos, p, seed)]
        result = adjudicate(board, pos, [*mine, *theirs])
        ids = {id(o) for o in mine}
        tally.void += sum(1 for r in result.results if id(r.order) in ids and VOID in r.notes)
        pos = result.next
        if result.winners:
            winners = result.winners
            break
    tally.game_times.append(time.perf_counter() - started)
    counts = {p: len(pos.centres_of(p)) for p in board.map.power_names}
    tally.games += 1
    tally.solos += seat in winners
    tally.top += counts[seat] == max(counts.values())
    tally.centres.append(counts[seat])


def random_player(board: Board, position: Position, power: str, seed: int) -> list[Order]:
    raise AssertionError("played through random_orders")


def twin(board: Board, seed: int, switch_after: int, later: int) -> tuple[int, int]:
    """The CD power's centres ``later`` years after it fell into civil disorder at the start
    of year start+``switch_after``: (holding, played by the bot)."""
    powers = board.map.power_names
    seat = powers[seed % len(powers)]
    pos = initial_position(board.map)
    switch = pos.phase.year + switch_after
    while pos.phase.year < switch:
        orders = [o for p in powers for o in greedy_orders(board, pos, p)]
        pos = adjudicate(board, pos, orders).next
    out = []
    for cd in (hold, bot):
        p = pos
        while p.phase.year < switch + later:
            orders = [o for q in powers if q != seat for o in greedy_orders(board, p, q)]
            result = adjudicate(board, p, [*orders, *cd(board, p, seat, seed)])
            p = result.next
            if result.winners:
                break
        out.append(len(p.centres_of(seat)))
    return out[0], out[1]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def report(name: str, tally: Tally) -> None:
    crowded = f", 30+ units p99 {pct(tally.crowded, 0.99):.0f} ms (n={len(tally.crowded)})" if tally.crowded else ""
    print(f"  {name:<22} solos {tally.solos}/{tally.games} ({100 * tally.solos / max(1, tally.games):.0f}%), "
          f"most centres {tally.top}/{tally.games}, mean centres {statistics.mean(tally.centres):.1f}, "
          f"illegal {tally.illegal}, void {tally.void}, decision p50 {pct(tally.decisions, 0.5):.1f} ms "
          f"p99 {pct(tally.decisions, 0.99):.1f} ms{crowded}, game {statistics.mean(tally.game_times):.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=6, help="games per line (seeds FIRST..FIRST+N-1)")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--years", type=int, default=20, help="year limit of a game")
    parser.add_argument("--maps", default="standard,colonial,oceania")
    parser.add_argument("--switch", type=int, default=4, help="twin run: years of script before the CD")
    args = parser.parse_args()
    matchups: list[tuple[str, Player, Player]] = [
        ("bot vs 6 hold", bot, hold), ("bot vs 6 random", bot, random_player),
        ("bot vs 6 greedy", bot, greedy), ("greedy vs 6 greedy", greedy, greedy), ("7 bots", bot, bot),
    ]
    for name in args.maps.split(","):
        board = load_board(name, Options())
        powers = board.map.power_names
        seeds = range(args.first, args.first + args.seeds)
        print(f"{name} (seeds {seeds.start}..{seeds.stop - 1}, {args.years} years at most)")
        for label, me, others in matchups:
            tally = Tally()
            for seed in seeds:
                play(board, powers[seed % len(powers)], me, others, seed, args.years, tally)
            report(label, tally)
        held, played = zip(*(twin(board, seed, args.switch, 5) for seed in seeds), strict=True)
        print(f"  twin run (CD after {args.switch} years of greedy script, +5 years): holding "
              f"{statistics.mean(held):.1f} centres, bot {statistics.mean(played):.1f} "
              f"(ratio {statistics.mean(played) / max(0.01, statistics.mean(held)):.1f}x); "
              f"per seed {list(zip(held, played, strict=True))}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
