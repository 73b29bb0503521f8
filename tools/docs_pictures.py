"""Write the README's pictures: ``docs/<map>.png``, a mid-game movement phase with its orders
on each map, from seeded random games (``judge.randomgame``). The browser screenshots
``docs/web-*.png`` come from ``JUDGE_SCREENSHOTS=docs pytest tests/test_browser.py``.

Run: ``python tools/docs_pictures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.engine import initial_position  # noqa: E402
from judge.maps import load_board  # noqa: E402
from judge.randomgame import play  # noqa: E402
from judge.render.pictures import phase_picture  # noqa: E402

#: (map, seed, phase code): a movement phase a few years in, with retreats and bounces.
SHOWN = [("standard", 4, "F1903M"), ("colonial", 4, "F1873M"), ("oceania", 4, "F2002M")]


def main() -> None:
    for name, seed, code in SHOWN:
        board = load_board(name)
        m = board.map
        for p in play(board, initial_position(m), seed, 80):
            if p.position.phase.code == code:
                out = ROOT / "docs" / f"{name}.png"
                out.write_bytes(phase_picture(board, p.position, p.adjudication, game=f"{name}-demo").png)
                print(f"{out.relative_to(ROOT)}: {code}, {len(p.adjudication.results)} orders")
                break
        else:
            raise SystemExit(f"{name}: the seeded game never reached {code}")


if __name__ == "__main__":
    main()
