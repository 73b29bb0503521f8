"""Variant rules that map data cannot express, switched on by map and game options.

The registry (:mod:`.registry`: :class:`Ruleset`, :func:`register`, :func:`register_map_edit`,
:func:`board_map`, :func:`ruleset_for`) knows no rule; each rule module (``railway.py``,
``canal.py``, ``hong_kong.py``, ``island_hopping.py``, ``straits.py``, ``colonial.py``)
registers its hooks, map edits and options with it when imported, which this package does.
Importing ``judge.engine.rules`` therefore gives the registry with every rule in it.
"""

from . import canal, colonial, hong_kong, island_hopping, railway, straits
from .registry import (
    AltRoute,
    Contributor,
    MapEdit,
    MoveCheck,
    OrderHook,
    OrderSetCheck,
    Ruleset,
    RulesetPart,
    SupportCheck,
    board_map,
    register,
    register_map_edit,
    ruleset_for,
)

__all__ = [
    "AltRoute", "Contributor", "MapEdit", "MoveCheck", "OrderHook", "OrderSetCheck", "Ruleset", "RulesetPart",
    "SupportCheck", "board_map", "canal", "colonial", "hong_kong", "island_hopping", "railway", "register",
    "register_map_edit", "ruleset_for", "straits",
]
