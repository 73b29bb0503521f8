"""The ``judge`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import Config


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
    from .machine import stream

    stream(sys.stdin.buffer, sys.stdout)
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


def _server_config(args: argparse.Namespace) -> Config | None:
    """The configuration named by ``--config``, with logging set up; None (reported) if bad."""
    import logging

    from .config import ConfigError, load_config

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("mail.log", "apscheduler"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    try:
        return load_config(args.config)
    except ConfigError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return None


def cmd_serve(args: argparse.Namespace) -> int:
    from .server import run
    from .store.migrate import upgrade

    config = _server_config(args)
    if config is None:
        return 2
    upgrade(config.database_url)
    run(config)
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from .store.migrate import upgrade

    config = _server_config(args)
    if config is None:
        return 2
    upgrade(config.database_url)
    return 0


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
    p = sub.add_parser("serve", help="run the mail judge: SMTP listener, deadlines and sender")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: built-in defaults)")
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("db", help="database maintenance")
    db = p.add_subparsers(dest="db_command", required=True)
    p = db.add_parser("upgrade", help="migrate the database to the newest schema (alembic upgrade head)")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: built-in defaults)")
    p.set_defaults(func=cmd_db_upgrade)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
