"""Web archive speed while clients fetch the current phase's picture.

Makes a started Standard game in a fresh SQLite file, serves the archive (``judge web``'s
app under uvicorn on loopback) and measures the time of ``GET /`` alone, then while
``--clients`` threads fetch ``/games/bench/S1901M.png`` over and over, and the time of the
picture requests themselves; it prints how many pictures the app drew (its
``app.state.pictures.drawn``): one, since each phase's picture is drawn once and kept.
Run: ``python bench/web_pictures.py [--clients N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import uvicorn  # noqa: E402

from judge.config import Config  # noqa: E402
from judge.game import joining  # noqa: E402
from judge.maps import load_map  # noqa: E402
from judge.store.base import make_engine, make_sessionmaker, utcnow  # noqa: E402
from judge.store.migrate import upgrade  # noqa: E402
from judge.web.app import create_app  # noqa: E402


def _game(config: Config) -> None:
    engine = make_engine(config.database_url)
    with make_sessionmaker(engine)() as s, s.begin():
        view = joining.create(s, config, "bench", "gmpw", ["standard"], "gm@bench.test")
        for pw in load_map("standard").powers:
            joining.join(view, f"{pw.name.lower()}@bench.test", "pw")
        joining.start_if_full(view, config, utcnow())
    engine.dispose()


def _times(url: str, seconds: float) -> list[float]:
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.perf_counter()
        with urllib.request.urlopen(url, timeout=30) as resp:
            resp.read()
        out.append(time.perf_counter() - t)
    return out


def _line(what: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return (f"{what:34} {len(ms):6d} {statistics.median(ms):8.1f}ms {ms[min(len(ms) - 1, int(len(ms) * 0.99))]:8.1f}ms "
            f"{ms[-1]:8.1f}ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4, help="threads fetching the picture (default 4)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measure (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.sqlite"
        upgrade(url)
        config = Config(database_url=url, data_dir=Path(tmp))
        _game(config)
        app = create_app(config)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        print(f"{'':34} {'count':>6} {'p50':>10} {'p99':>10} {'max':>10}")
        print(_line("GET / alone", _times(base + "/", args.seconds)))
        pictures: list[float] = []
        stop = time.monotonic() + args.seconds

        def fetch() -> None:
            pictures.extend(_times(base + "/games/bench/S1901M.png", max(0.1, stop - time.monotonic())))

        clients = [threading.Thread(target=fetch) for _ in range(args.clients)]
        for c in clients:
            c.start()
        index = _times(base + "/", args.seconds)
        for c in clients:
            c.join()
        print(_line(f"GET / with {args.clients} picture clients", index))
        print(_line("GET the current phase's PNG", pictures))
        drawn = getattr(app.state, "pictures", None)
        print(f"pictures drawn: {drawn.drawn if drawn is not None else 'not counted (this app draws on every request)'}")
        server.should_exit = True
        thread.join(10)


if __name__ == "__main__":
    main()
