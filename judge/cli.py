"""The ``judge`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def _bundled_datc() -> list[str]:
    here = Path(__file__).resolve().parent.parent / "tests" / "datc"
    return [str(p) for p in sorted(here.glob("*.txt"))]


def cmd_datc(args: argparse.Namespace) -> int:
    from .datc import run_files

    files = args.files or _bundled_datc()
    if not files:
        print("no case files given and none bundled", file=sys.stderr)
        return 2
    _, failed = run_files(files)
    return 1 if failed else 0


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from .machine import run

    for line in run(sys.stdin):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    return 0


def cmd_map(args: argparse.Namespace) -> int:
    from .maps import MapError, available_maps, load_map

    names = args.names or available_maps()
    status = 0
    for name in names:
        try:
            m = load_map(name)
        except (MapError, KeyError) as exc:
            print(f"{name}: {exc}")
            status = 1
            continue
        centres = len(m.supply_centres)
        homes = sum(len(p.home) for p in m.powers)
        units = sum(len(p.units) for p in m.powers)
        print(f"{m.name}: {len(m.provinces)} provinces, {centres} centres ({homes} home), "
              f"{len(m.powers)} powers, {units} starting units, victory at {m.victory}: ok")
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("datc", help="run adjudicator test cases (jDip DATC text format)")
    p.add_argument("files", nargs="*", help="case files (default: the bundled DATC 3.0 file)")
    p.set_defaults(func=cmd_datc)
    p = sub.add_parser("adjudicate", help="adjudicate phases given as JSON Lines on standard input")
    p.set_defaults(func=cmd_adjudicate)
    p = sub.add_parser("map", help="load and check maps")
    p.add_argument("names", nargs="*", help="map names (default: all bundled maps)")
    p.set_defaults(func=cmd_map)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
