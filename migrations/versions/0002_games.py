"""The game tables: games, players (and observers and masters), order sets, phase records.

Revision ID: 0002_games
Revises: 0001_mail
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_games"
down_revision = "0001_mail"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("map_name", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("phase", sa.String(16), nullable=True),
        sa.Column("position", sa.JSON(), nullable=True),
        _when("deadline", nullable=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("moves_hours", sa.Float(), nullable=False),
        sa.Column("retreats_hours", sa.Float(), nullable=False),
        sa.Column("builds_hours", sa.Float(), nullable=False),
        sa.Column("press", sa.String(16), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        _when("created_at"),
        _when("updated_at"),
        sa.UniqueConstraint("name", name="uq_game_name"),
    )
    op.create_index("ix_game_deadline", "game", ["deadline"])
    op.create_index("ix_game_status", "game", ["status"])
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("power", sa.String(32), nullable=True),
        sa.Column("password", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("wait", sa.Boolean(), nullable=False),
        sa.Column("preferences", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        _when("joined_at"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_player_game_id_game", ondelete="CASCADE"),
    )
    op.create_index("ix_player_game_id", "player", ["game_id"])
    op.create_table(
        "order_set",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(32), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        _when("updated_at"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_order_set_game_id_game", ondelete="CASCADE"),
        sa.UniqueConstraint("game_id", "power", "phase", name="uq_order_set_game_power_phase"),
    )
    op.create_index("ix_order_set_game_id", "order_set", ["game_id"])
    op.create_table(
        "phase_record",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("position", sa.JSON(), nullable=False),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("results", sa.Text(), nullable=False),
        _when("created_at"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_phase_record_game_id_game",
                                ondelete="CASCADE"),
        sa.UniqueConstraint("game_id", "seq", name="uq_phase_record_game_seq"),
    )
    op.create_index("ix_phase_record_game_id", "phase_record", ["game_id"])


def downgrade() -> None:
    for table in ("phase_record", "order_set", "player"):
        op.drop_index(f"ix_{table}_game_id", table_name=table)
        op.drop_table(table)
    op.drop_index("ix_game_status", table_name="game")
    op.drop_index("ix_game_deadline", table_name="game")
    op.drop_table("game")
