"""Picture speed: SVG render time per phase for each map, and the PNG time.

Plays a seeded random game on each map (``judge.randomgame``), draws every phase's picture
with its orders (``judge.render.pictures.phase_picture``) and prints the mean and worst SVG
time per phase (target: under 100 ms), then the PNG time (resvg) on a sample of phases.
Run: ``python bench/render_speed.py [--phases N] [--png N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine import initial_position  # noqa: E402
from judge.maps import load_board  # noqa: E402
from judge.randomgame import play  # noqa: E402
from judge.render.pictures import phase_picture, svg_to_png  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=60, help="phases per map (default 60)")
    parser.add_argument("--png", type=int, default=8, help="phases per map drawn as PNG too (default 8)")
    args = parser.parse_args()
    print(f"{'map':10} {'phases':>6} {'SVG mean':>9} {'SVG max':>8} {'PNG mean':>9} {'PNG max':>8} {'PNG KiB':>8}")
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
        png_times, sizes = [], []
        step = max(1, len(svgs) // max(1, args.png))
        for svg in svgs[::step][:args.png]:
            t = time.perf_counter()
            sizes.append(len(svg_to_png(svg)))
            png_times.append(time.perf_counter() - t)
        print(f"{name:10} {len(phases):6d} {statistics.mean(svg_times) * 1000:7.1f}ms {max(svg_times) * 1000:6.1f}ms "
              f"{statistics.mean(png_times) * 1000:7.0f}ms {max(png_times) * 1000:6.0f}ms "
              f"{statistics.mean(sizes) / 1024:8.0f}")


if __name__ == "__main__":
    main()
