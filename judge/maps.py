"""Finding and loading the bundled map files (``maps/<name>.toml``), once per process."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from .engine.map import Map
from .engine.mapfile import MapError, parse_map
from .resources import data_dir

__all__ = ["MapError", "available_maps", "load_map", "maps_dir"]


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


def load_map(name: str) -> Map:
    """The map called ``name`` (case-insensitive; also its aliases), parsed and checked once."""
    key = name.strip().lower()
    folder = maps_dir()
    path = folder / f"{key}.toml"
    if path.is_file():
        return _load(str(path))
    for stem in available_maps():
        m = _load(str(folder / f"{stem}.toml"))
        if key in (m.name, m.title.lower(), *m.map_aliases):
            return m
    raise KeyError(f"no map called {name!r}; the maps are: {', '.join(available_maps())}")
