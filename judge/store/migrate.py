"""Run the Alembic migrations from code: ``upgrade(url)`` brings a database to ``head``.

The migrations folder is found next to the ``judge`` package (the repository root), not
through the current folder, so ``judge db upgrade`` works from anywhere.
"""

from __future__ import annotations

import importlib
import logging
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig

from .base import make_engine

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent.parent
MIGRATIONS = ROOT / "migrations"
MODEL_MODULES = ("judge.store.mail", "judge.store.games", "judge.store.nodes", "judge.store.ratelimit")


def import_models() -> None:
    """Import every model module so ``Base.metadata`` knows all tables (games only if present)."""
    for name in MODEL_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def alembic_config() -> AlembicConfig:
    """An Alembic configuration pointing at the judge's migrations folder."""
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Upgrade the database at ``url`` to ``revision`` (default: the newest)."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
    finally:
        engine.dispose()
    log.info("database upgraded to %s", revision)
