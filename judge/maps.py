"""Finding and loading the bundled map files (``maps/<name>.toml``), once per process, and
the boards games play on them (one per map and option set)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from .engine.board import Board
from .engine.map import Map
from .engine.mapfile import MapError, parse_map
from .engine.options import Options
from .resources import data_dir

__all__ = ["MapError", "available_maps", "load_board", "load_map", "maps_dir"]


def maps_dir() -> Path:
    """The folder of map files: ``$JUDGE_MAPS`` if set, else the bundled ``maps/``
    (:func:`judge.resources.data_dir`)."""
    env = os.environ.get("JUDGE_MAPS")
    if env:
        return Path(env)
    return data_dir("maps")


def available_maps() -> list[str]:
    """Names of the bundled maps."""
    return sorted(p.stem for p in maps_dir().glob("*.toml"))


@cache
def _load(path: str) -> Map:
    return parse_map(Path(path).read_text(encoding="utf-8"), source=path)


def _path(name: str) -> str:
    """The file of the map called ``name`` (case-insensitive; also its aliases)."""
    return _find(name.strip().lower(), maps_dir())


@cache
def _find(key: str, folder: Path) -> str:
    path = folder / f"{key}.toml"
    if path.is_file():
        return str(path)
    stems = sorted(p.stem for p in folder.glob("*.toml"))
    for stem in stems:
        candidate = str(folder / f"{stem}.toml")
        m = _load(candidate)
        if key in (m.name, m.title.lower(), *m.map_aliases):
            return candidate
    raise KeyError(f"no map called {key!r}; the maps are: {', '.join(stems)}")


def load_map(name: str) -> Map:
    """The map called ``name`` (case-insensitive; also its aliases), parsed and checked once."""
    return _load(_path(name))


@cache
def _board(path: str, options: Options) -> Board:
    return Board.of(_load(path), options)


def load_board(name: str, options: Options | None = None) -> Board:
    """The board of map ``name`` under ``options`` (the defaults if None), built once per
    map file and option set (options compare by value) and then shared."""
    return _board(_path(name), options if options is not None else Options())
