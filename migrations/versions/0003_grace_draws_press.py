"""Grace periods, late notices, missed-order counts, draw votes and press settings.

Revision ID: 0003_grace_draws_press
Revises: 0002_games
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_grace_draws_press"
down_revision = "0002_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("moves_grace", sa.Float(), nullable=False, server_default="168"))
        batch.add_column(sa.Column("retreats_grace", sa.Float(), nullable=False, server_default="72"))
        batch.add_column(sa.Column("builds_grace", sa.Float(), nullable=False, server_default="72"))
        batch.add_column(sa.Column("grace", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("late_notice_sent", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("partial_press", sa.Boolean(), nullable=False, server_default=sa.true()))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("nmr_count", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("draw_vote", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("draw_vote")
        batch.drop_column("nmr_count")
    with op.batch_alter_table("game") as batch:
        for name in ("partial_press", "late_notice_sent", "grace", "builds_grace", "retreats_grace",
                     "moves_grace"):
            batch.drop_column(name)
