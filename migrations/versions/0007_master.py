"""The master's tools, draws and concessions, the end of a game.

- ``game``: ``dias``, ``concessions`` (on), ``gunboat``, ``manual_start`` (off), ``listed``
  (on) and ``rollbacks`` (0): the master's settings and how many times the game was rolled
  back.
- ``player``: ``draw_powers`` (a NoDIAS vote's list), ``concede_to`` (a concession vote),
  ``since_phase`` and ``until_phase`` (the phases in which a player began and stopped playing
  their power).
- ``phase_record``: ``withdrawn`` (0, or the rollback that undid the phase) and ``options``
  (the game options the phase was judged by); the unique key becomes (game, seq, withdrawn),
  so that a phase played again after a rollback gets a record of its own.
- ``outbox_message.withdrawn_at``: when a mail was withdrawn from the archive by a rollback.

Revision ID: 0007_master
Revises: 0006_lateness
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_master"
down_revision = "0006_lateness"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("dias", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("concessions", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("gunboat", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("manual_start", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("rollbacks", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("draw_powers", sa.JSON(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("concede_to", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("since_phase", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("until_phase", sa.String(length=16), nullable=True))
    with op.batch_alter_table("phase_record") as batch:
        batch.add_column(sa.Column("withdrawn", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("options", sa.JSON(), nullable=True))
        batch.drop_constraint("uq_phase_record_game_seq", type_="unique")
        batch.create_unique_constraint("uq_phase_record_game_seq_withdrawn", ["game_id", "seq", "withdrawn"])
    with op.batch_alter_table("outbox_message") as batch:
        batch.add_column(sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox_message") as batch:
        batch.drop_column("withdrawn_at")
    op.execute("DELETE FROM phase_record WHERE withdrawn > 0")
    with op.batch_alter_table("phase_record") as batch:
        batch.drop_constraint("uq_phase_record_game_seq_withdrawn", type_="unique")
        batch.create_unique_constraint("uq_phase_record_game_seq", ["game_id", "seq"])
        batch.drop_column("options")
        batch.drop_column("withdrawn")
    with op.batch_alter_table("player") as batch:
        for name in ("until_phase", "since_phase", "concede_to", "draw_powers"):
            batch.drop_column(name)
    with op.batch_alter_table("game") as batch:
        for name in ("rollbacks", "manual_start", "listed", "gunboat", "concessions", "dias"):
            batch.drop_column(name)
