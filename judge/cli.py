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
    from .resources import data_dir

    return [str(p) for p in sorted(data_dir("datc").glob("*.txt"))]


def cmd_datc(args: argparse.Namespace) -> int:
    from .datc import run_files

    files = args.files or _bundled_datc()
    if not files:
        print("no case files given and none bundled", file=sys.stderr)
        return 2
    _, failed = run_files(files)
    return 1 if failed else 0


def cmd_adjudicate(args: argparse.Namespace) -> int:
    import gc
    import io
    import os

    from .machine import stream

    # Each line makes thousands of short-lived containers and next to no cycles: what start-up
    # built (modules, maps) is kept out of the collector's walks, and it collects less often
    # (2,000 convoy-heavy lines: 0.83 -> 0.78 s of processor time, start-up included; every
    # 200,000 allocations rather than 50,000: -0.7% instructions).
    gc.freeze()
    gc.set_threshold(200_000, 20, 20)
    buffer = sys.stdin.buffer  # typed BinaryIO; a BufferedReader, which has read1, at run time
    if not isinstance(buffer, io.BufferedReader):
        raise SystemExit("judge adjudicate: standard input is not a byte stream")
    sys.stdout.flush()
    stream(buffer, sys.stdout.buffer)
    # The reader sees the end of the answers now, and the process ends without the
    # interpreter's shutdown: it holds nothing to release (no file written but standard
    # output, no database), and freeing the modules and the tables kept for the lines read
    # one object at a time costs 50 to 120 ms of processor time after 2,000 lines (11 to 15 ms
    # before those tables), which the system does at once by ending the process.
    sys.stdout.buffer.flush()
    os.close(sys.stdout.fileno())
    sys.stderr.flush()
    os._exit(0)


def cmd_bot(args: argparse.Namespace) -> int:
    from .botline import run

    for line in run(sys.stdin):
        print(line, flush=True)
    return 0


def cmd_map(args: argparse.Namespace) -> int:
    """``judge map check [NAME...]`` or ``judge map <game> [<phase>]``."""
    if args.args and args.args[0] == "check":
        return _check_maps(args.args[1:])
    if not args.args:
        print("judge map: name a game (judge map <game> [<phase>]) or check the maps (judge map check)",
              file=sys.stderr)
        return 2
    if len(args.args) > 2:
        print("judge map: give a game and at most one phase", file=sys.stderr)
        return 2
    return _draw_phase(args)


def _check_maps(names: list[str]) -> int:
    from .maps import MapError, available_maps, load_map
    from .render.pictures import ArtError, check_art, load_art

    status = 0
    for name in names or available_maps():
        try:
            m = load_map(name)
            problems = check_art(load_art(m), m)
        except (MapError, ArtError, KeyError) as exc:
            print(f"{name}: {exc}")
            status = 1
            continue
        for problem in problems:
            print(f"{m.name}: art: {problem}")
        status = status or (1 if problems else 0)
        centres = len(m.supply_centres)
        homes = sum(len(p.home) for p in m.powers)
        units = sum(len(p.units) for p in m.powers)
        print(f"{m.name}: {len(m.provinces)} provinces, {centres} centres ({homes} home), "
              f"{len(m.powers)} powers, {units} starting units, victory at {m.victory}: "
              f"{'ok' if not problems else 'art does not fit'}")
    return status


def _draw_phase(args: argparse.Namespace) -> int:
    from .config import ConfigError, load_config
    from .engine.phase import Phase, PhaseError
    from .game.clocks import default_clocks
    from .render.pictures import phase_picture
    from .store.base import make_engine, make_sessionmaker
    from .store.games import find_game
    from .web.archive import phase_detail

    try:
        config = load_config(args.config, check_clocks=default_clocks)
    except ConfigError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 2
    name = args.args[0]
    with make_sessionmaker(make_engine(config.database_url))() as session:
        game = find_game(session, name)
        if game is None:
            print(f"judge map: no game called {name!r}", file=sys.stderr)
            return 1
        try:
            code = Phase.parse(args.args[1]).code if len(args.args) > 1 else (game.phase or "")
        except PhaseError as exc:
            print(f"judge map: {exc}", file=sys.stderr)
            return 2
        detail = phase_detail(session, game, code, public=False) if code else None
        if detail is None:
            print(f"judge map: game {game.name} has no phase {code or '(not started)'} to draw", file=sys.stderr)
            return 1
        picture = phase_picture(detail.board, detail.position, detail.adjudication, game=game.name)
    svg = args.format == "svg" or (args.format is None and (args.output or "").endswith(".svg"))
    data = picture.svg.encode("utf-8") if svg else picture.png
    out = args.output or f"{game.name}-{code}.{'svg' if svg else 'png'}"
    if out == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(out).write_bytes(data)
        print(f"{out}: {game.name} {code}{', with its orders' if detail.adjudication else ''}")
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    from .web.app import serve

    config = _server_config(args)
    if config is None:
        return 2
    if not config.web_enabled:
        print("judge web: the web archive is off: add a [web] section to the configuration "
              "(see config.example.toml)", file=sys.stderr)
        return 2
    serve(config)
    return 0


def _server_config(args: argparse.Namespace) -> Config | None:
    """The configuration named by ``--config``, with logging set up; None (reported) if bad."""
    from .config import ConfigError, load_config
    from .game.clocks import default_clocks
    from .logs import setup_logging

    setup_logging()
    try:
        return load_config(args.config, check_clocks=default_clocks)
    except ConfigError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return None


def cmd_serve(args: argparse.Namespace) -> int:
    from .server import run
    from .store.migrate import upgrade

    config = _server_config(args)
    if config is None:
        return 2
    upgrade(config.database_url, data_dir=config.data_dir)
    run(config)
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from .store.migrate import upgrade

    config = _server_config(args)
    if config is None:
        return 2
    upgrade(config.database_url, data_dir=config.data_dir)
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    """``judge ratings rebuild``: every rating computed again from the recorded games, in
    order; ``judge ratings export``: the ratings' inputs as JSON, for anyone to check."""
    import json

    from .game.ratings import export, rebuild
    from .store.base import make_engine, make_sessionmaker, utcnow

    config = _server_config(args)
    if config is None:
        return 2
    engine = make_engine(config.database_url)
    try:
        with make_sessionmaker(engine)() as session, session.begin():
            if args.ratings_command == "rebuild":
                count = rebuild(session, utcnow())
                print(f"judge ratings: rebuilt from {count} rated games")
            else:
                text = json.dumps(export(session), indent=2, sort_keys=True)
                if args.output and args.output != "-":
                    Path(args.output).write_text(text + "\n", encoding="utf-8")
                else:
                    print(text)
    finally:
        engine.dispose()
    return 0


def cmd_operator(args: argparse.Namespace) -> int:
    from .mailcli import run

    config = _server_config(args)
    if config is None:
        return 2
    return run(args, config, sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    from .version import VERSION

    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    parser.add_argument("--version", action="version", version=f"judge {VERSION}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("datc", help="run adjudicator test cases (jDip DATC text format)")
    p.add_argument("files", nargs="*", help="case files (default: the bundled DATC 3.0 file)")
    p.set_defaults(func=cmd_datc)
    p = sub.add_parser("adjudicate", help="adjudicate phases given as JSON Lines on standard input")
    p.set_defaults(func=cmd_adjudicate)
    p = sub.add_parser("bot", help="the judge's bot: orders for powers in phases given as JSON Lines on standard input")
    p.set_defaults(func=cmd_bot)
    p = sub.add_parser("map", help="draw a phase of a game (judge map <game> [<phase>]), or check the "
                                   "bundled maps and their art (judge map check [NAME...])")
    p.add_argument("args", nargs="*", metavar="GAME [PHASE] | check [NAME...]",
                   help="a game and a phase code (default: its current phase), or check and map names")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--svg", dest="format", action="store_const", const="svg", help="write SVG")
    kind.add_argument("--png", dest="format", action="store_const", const="png", help="write PNG (the default)")
    p.add_argument("-o", "--output", metavar="FILE", help="where to write (default <game>-<phase>.png; - for stdout)")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: built-in defaults)")
    p.set_defaults(func=cmd_map, format=None)
    p = sub.add_parser("serve", help="run the mail judge: SMTP listener, deadlines and sender")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: built-in defaults)")
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("web", help="run the read-only web archive (needs a [web] section in the configuration)")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: built-in defaults)")
    p.set_defaults(func=cmd_web)
    p = sub.add_parser("db", help="database maintenance")
    db = p.add_subparsers(dest="db_command", required=True)
    p = db.add_parser("upgrade", help="migrate the database to the newest schema (alembic upgrade head)")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: built-in defaults)")
    p.set_defaults(func=cmd_db_upgrade)
    p = sub.add_parser("ratings", help="the skill ratings: rebuild them from the finished games, or export their inputs")
    ratings = p.add_subparsers(dest="ratings_command", required=True)
    p = ratings.add_parser("rebuild", help="compute every rating again from the rated games, in order")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: built-in defaults)")
    p.set_defaults(func=cmd_ratings)
    p = ratings.add_parser("export", help="write the rated games (ranks, who played each power, shares) as JSON")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: built-in defaults)")
    p.add_argument("-o", "--output", metavar="FILE", help="where to write (default: standard output)")
    p.set_defaults(func=cmd_ratings)
    from .mailcli import add_parsers

    add_parsers(sub, "TOML configuration (default: built-in defaults)")
    for name in ("status", "mail"):
        sub.choices[name].set_defaults(func=cmd_operator)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
