"""Players' diaries (njudge ``DIARY``): ``diary_entry``, one row an entry, numbered for its
player (``uq_diary_entry_player_number``), gone with the player's row.

Revision ID: 0012_diary
Revises: 0011_outbox_status
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_diary"
down_revision = "0011_outbox_status"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "diary_entry",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("written", sa.DateTime(timezone=True), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_diary_entry_player_id_player",
                                ondelete="CASCADE"),
        sa.UniqueConstraint("player_id", "number", name="uq_diary_entry_player_number"),
    )
    op.create_index("ix_diary_entry_player_id", "diary_entry", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_diary_entry_player_id", table_name="diary_entry")
    op.drop_table("diary_entry")
