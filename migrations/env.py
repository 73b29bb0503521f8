"""Alembic environment: the judge's models, batch mode on SQLite, one connection.

The connection comes from ``config.attributes["connection"]`` when the judge runs the
migrations itself (:func:`judge.store.migrate.upgrade`); otherwise an engine is made from
``-x url=...``, the ``sqlalchemy.url`` option, or the judge configuration (``JUDGE_CONFIG``).
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy.engine import Connection

from judge.store.base import Base, make_engine
from judge.store.migrate import import_models

import_models()
target_metadata = Base.metadata
config = context.config


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from judge.config import load_config

    return load_config(os.environ.get("JUDGE_CONFIG")).database_url


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=_url().startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as conn:
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
