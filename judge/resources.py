"""Where the bundled data is: the maps, the templates, the migrations and the DATC cases.

Contract::

    from judge.resources import data_dir
    data_dir("maps")    # a folder holding standard.toml, colonial.toml, ...

An installed judge (``pip install .`` or a wheel) carries the repository's top-level folders
``maps/``, ``templates/``, ``migrations/`` and ``tests/datc/`` as package data in
``judge/data/<name>/`` (mapped by ``pyproject.toml``), found here with
:mod:`importlib.resources`. A source checkout or an editable install has no such copy and
uses the folders of the checkout itself.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

NAMES = ("maps", "templates", "migrations", "datc")
CHECKOUT = Path(__file__).resolve().parent.parent
IN_CHECKOUT = {"maps": CHECKOUT / "maps", "templates": CHECKOUT / "templates",
               "migrations": CHECKOUT / "migrations", "datc": CHECKOUT / "tests" / "datc"}


@cache
def data_dir(name: str) -> Path:
    """The folder of bundled data ``name`` (one of :data:`NAMES`); looked up once, as every
    game view asks for its map."""
    if name not in NAMES:
        raise KeyError(f"no bundled data called {name!r}")
    packaged = files("judge").joinpath("data", name)
    if packaged.is_dir():
        return Path(str(packaged))
    return IN_CHECKOUT[name]
