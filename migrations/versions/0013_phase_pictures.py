"""Phase pictures the web archive drew, kept so that each is drawn once (issue 23, item 10).

- ``phase_picture``: one phase's SVG and PNG, under ``key`` (a digest of what the picture
  shows: game, phase, options, position, orders), unique; deleted with its game.
  ``processed`` false marks the picture of a game's position now (one a game).

Revision ID: 0013_phase_pictures
Revises: 0012_diary
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_phase_pictures"
down_revision = "0012_diary"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "phase_picture",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("processed", sa.Boolean(), nullable=False),
        sa.Column("svg", sa.Text(), nullable=False),
        sa.Column("png", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_phase_picture_game_id_game", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_phase_picture"),
        sa.UniqueConstraint("key", name="uq_phase_picture_key"),
    )
    op.create_index("ix_phase_picture_game_id", "phase_picture", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_phase_picture_game_id", table_name="phase_picture")
    op.drop_table("phase_picture")
