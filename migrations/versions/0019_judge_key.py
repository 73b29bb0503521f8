"""The judge's keys in the database, so that a backup of the database is all a restore needs
(issue 27, item 2).

- ``judge_key``: name -> value; ``reply`` signs the players' reply addresses
  (:mod:`judge.store.keys`). Filled here from ``<data_dir>/secret`` when the judge that runs
  the migration (``judge db upgrade``, ``judge serve``) has that file; otherwise the first
  process that needs the key makes it.

Revision ID: 0019_judge_key
Revises: 0018_confirmations
Create Date: 2026-12-03
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import context, op

revision = "0019_judge_key"
down_revision = "0018_confirmations"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "judge_key",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_judge_key"),
    )
    data_dir = context.config.attributes.get("data_dir")
    if data_dir is None:
        return
    path = Path(data_dir) / "secret"
    value = path.read_text().strip() if path.is_file() else ""
    if value:
        op.bulk_insert(table, [{"name": "reply", "value": value}])


def downgrade() -> None:
    op.drop_table("judge_key")
