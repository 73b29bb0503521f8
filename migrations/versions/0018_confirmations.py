"""Requests waiting for an address to confirm it wants the judge's mail: OBSERVE and SET
ADDRESS take effect only when the address answers (``judge.store.confirmations``).

Revision ID: 0018_confirmations
Revises: 0017_due_at
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_confirmations"
down_revision = "0017_due_at"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "confirmation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("nonce", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_confirmation_game_id_game", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_confirmation_player_id_player",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_confirmation"),
    )
    op.create_index("ix_confirmation_address", "confirmation", ["address"])
    op.create_index("ix_confirmation_game_id", "confirmation", ["game_id"])
    op.create_index("ix_confirmation_expires_at", "confirmation", ["expires_at"])


def downgrade() -> None:
    op.drop_table("confirmation")
