"""Run the Alembic migrations from code: ``upgrade(url)`` brings a database to ``head``.

The migrations folder is the bundled one (:func:`judge.resources.data_dir`: package data in
an installed judge, the repository's ``migrations/`` in a checkout), never the current
folder, so ``judge db upgrade`` works from anywhere.
"""

from __future__ import annotations

import functools
import importlib
import logging
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

from ..resources import data_dir
from .base import make_engine

log = logging.getLogger(__name__)

MODEL_MODULES = ("judge.store.mail", "judge.store.games", "judge.store.nodes", "judge.store.ratelimit",
                 "judge.store.held", "judge.store.pictures", "judge.store.ratings",
                 "judge.store.confirmations", "judge.store.keys")


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
    cfg.set_main_option("script_location", str(data_dir("migrations")))
    return cfg


@functools.cache
def newest_revisions() -> frozenset[str]:
    """The heads of the bundled migrations, read once per process: Alembic finds them by
    loading every migration file, a tenth of a second or more that each ``judge serve`` and
    each test's judge paid again for a database already at the newest."""
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def at_newest(conn: Connection) -> bool:
    """Whether the database on ``conn`` stands at the newest migration."""
    return frozenset(MigrationContext.configure(conn).get_current_heads()) == newest_revisions()


def upgrade(url: str, revision: str = "head", *, data_dir: Path | None = None) -> None:
    """Upgrade the database at ``url`` to ``revision`` (default: the newest), in one
    transaction. ``data_dir`` is the judge's data folder, for the migrations that take what
    was kept there into the database (``0019_judge_key``: the reply-address key).

    On SQLite, Alembic's batch mode rebuilds a table to change it (copy, drop, rename); with
    foreign keys enforced, dropping the old ``game`` table would cascade to its players and
    orders. So foreign keys are switched off for the migration (a pragma that only works
    outside a transaction) and the result is checked with ``PRAGMA foreign_key_check`` before
    the commit, as Alembic's batch documentation advises.
    """
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            sqlite = conn.dialect.name == "sqlite"
            if sqlite:
                conn.connection.driver_connection.execute("PRAGMA foreign_keys = OFF")  # type: ignore[union-attr]
            try:
                with conn.begin():
                    if revision == "head" and at_newest(conn):
                        log.info("database already at the newest migration")
                        return
                    cfg = alembic_config()
                    cfg.attributes["connection"] = conn
                    cfg.attributes["data_dir"] = data_dir
                    command.upgrade(cfg, revision)
                    if sqlite:
                        broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                        if broken:
                            raise RuntimeError(f"the migration left rows without their parents: {broken[:5]}")
            finally:
                if sqlite:
                    conn.connection.driver_connection.execute("PRAGMA foreign_keys = ON")  # type: ignore[union-attr]
    finally:
        engine.dispose()
    log.info("database upgraded to %s", revision)
