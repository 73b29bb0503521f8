"""Picture speed: SVG render time per phase for each map, and the PNG time, whole and composed.

Plays a seeded random game on each map (``judge.randomgame``), draws every phase's picture
with its orders (``judge.render.pictures.phase_picture``) and prints the mean and worst SVG
time per phase (target: under 100 ms); then, on a sample of phases, the CPU time of a PNG
rasterised whole (resvg, then the palette: how every picture was made before the board was
kept), of the first composed picture (the board drawn and kept), and of a composed picture
once the board is kept (``judge/render/pictures/compose.py``): the cost of every later phase.
Last, the burst's case: one position drawn for many games (a title each), as when every game
on a judge is due at once. Run: ``python bench/render_speed.py [--phases N] [--png N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine import adjudicate, initial_position  # noqa: E402
from judge.maps import load_board  # noqa: E402
from judge.randomgame import play  # noqa: E402
from judge.render.pictures import DRAWING, phase_picture  # noqa: E402
from judge.render.pictures.compose import Composer  # noqa: E402
from judge.render.pictures.png import full_png, palette_png  # noqa: E402


def cpu_ms(work: Callable[[str], bytes], svg: str, sizes: list[int] | None = None) -> float:
    """The CPU time ``work(svg)`` takes, in milliseconds (its PNG's size kept in ``sizes``)."""
    t = time.process_time()
    png = work(svg)
    spent = (time.process_time() - t) * 1000
    if sizes is not None:
        sizes.append(len(png))
    return spent


def whole_png(svg: str) -> bytes:
    """The palette PNG of an SVG rasterised whole, as every picture was made before."""
    return palette_png(full_png(svg))


def composed_png(composer: Composer, svg: str) -> bytes:
    """The palette PNG of a board's picture, composed (as ``svg_to_png`` makes it)."""
    png = composer.png(svg)
    if png is None:
        raise SystemExit("not a board's picture")
    return png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=60, help="phases per map (default 60)")
    parser.add_argument("--png", type=int, default=8, help="phases per map drawn as PNG too (default 8)")
    parser.add_argument("--games", type=int, default=50, help="games drawn in the burst's case (default 50)")
    args = parser.parse_args()
    print(f"{'map':10} {'phases':>6} {'SVG mean':>9} {'SVG max':>8} {'whole PNG':>10} {'first':>8} "
          f"{'composed':>9} {'max':>7} {'burst':>7} {'PNG KiB':>8}")
    for name in ("standard", "colonial", "oceania"):
        board = load_board(name)
        m = board.map
        phases = list(play(board, initial_position(m), 1, args.phases))
        phase_picture(board, phases[0].position, phases[0].adjudication)  # templates and art loaded once
        svg_times, svgs = [], []
        for p in phases:
            t = time.perf_counter()
            svgs.append(phase_picture(board, p.position, p.adjudication, game="bench").svg)
            svg_times.append(time.perf_counter() - t)
        step = max(1, len(svgs) // max(1, args.png))
        sample = svgs[::step][:args.png]
        whole = [cpu_ms(whole_png, s) for s in sample]
        composer = Composer(full_png, DRAWING)
        compose = partial(composed_png, composer)
        first = cpu_ms(compose, svgs[0])
        sizes: list[int] = []
        composed = [cpu_ms(compose, s, sizes) for s in sample]
        start = initial_position(m)
        after = adjudicate(board, start, [])
        burst_svgs = [phase_picture(board, start, after, game=f"game{g}").svg for g in range(args.games + 1)]
        compose(burst_svgs[0])
        burst = [cpu_ms(compose, s) for s in burst_svgs[1:]]
        print(f"{name:10} {len(phases):6d} {statistics.mean(svg_times) * 1000:7.1f}ms {max(svg_times) * 1000:6.1f}ms "
              f"{statistics.mean(whole):8.0f}ms {first:6.0f}ms {statistics.mean(composed):7.0f}ms "
              f"{max(composed):5.0f}ms {statistics.mean(burst):5.0f}ms {statistics.mean(sizes) / 1024:8.0f}")


if __name__ == "__main__":
    main()
