"""njudge's press settings, postal press, orders entered in advance, and reply to play.

- ``game``: ``fake_press``, ``postal_press``, ``observer_press``, ``must_order``,
  ``minor_press``, ``late_press``, ``grace_press``, ``blank_press``, ``all_press`` (the press
  settings of njudge's ``data/press`` and ``data/index``) and ``reply_play`` (a per-player
  Reply-To on the game's mail); existing games keep today's behaviour: no fake press, no
  postal press, observers as players, the master copied on press to some powers, reply to
  play on.
- ``postal_press``: postal press held until the phase's results.
- ``future_orders``: a player's orders for a later phase (``PHASE season year kind``).

Revision ID: 0008_press_orders
Revises: 0007_master
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_press_orders"
down_revision = "0007_master"
branch_labels = None
depends_on = None

_FLAGS = (("postal_press", False), ("must_order", False), ("minor_press", True), ("late_press", True),
          ("grace_press", True), ("blank_press", False), ("all_press", True), ("reply_play", True))


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("fake_press", sa.String(length=16), nullable=False, server_default="no"))
        batch.add_column(sa.Column("observer_press", sa.String(length=16), nullable=False, server_default="any"))
        for name, value in _FLAGS:
            batch.add_column(sa.Column(name, sa.Boolean(), nullable=False,
                                       server_default=sa.true() if value else sa.false()))
    op.create_table(
        "postal_press",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("author", sa.String(length=320), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("delivered", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_postal_press_game_id_game"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_postal_press")),
    )
    op.create_index(op.f("ix_postal_press_game_id"), "postal_press", ["game_id"])
    op.create_table(
        "future_orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=32), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("wait", sa.Boolean(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_future_orders_game_id_game"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_future_orders_player_id_player"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_future_orders")),
        sa.UniqueConstraint("game_id", "player_id", "phase", name="uq_future_orders_game_player_phase"),
    )
    op.create_index(op.f("ix_future_orders_game_id"), "future_orders", ["game_id"])
    op.create_index(op.f("ix_future_orders_player_id"), "future_orders", ["player_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_future_orders_player_id"), table_name="future_orders")
    op.drop_index(op.f("ix_future_orders_game_id"), table_name="future_orders")
    op.drop_table("future_orders")
    op.drop_index(op.f("ix_postal_press_game_id"), table_name="postal_press")
    op.drop_table("postal_press")
    with op.batch_alter_table("game") as batch:
        for name, _ in reversed(_FLAGS):
            batch.drop_column(name)
        batch.drop_column("observer_press")
        batch.drop_column("fake_press")
