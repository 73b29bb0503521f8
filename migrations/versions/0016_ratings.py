"""Skill ratings (issue 26): the ratings' tables, and two settings of a game.

- ``player_rating``: a player's rating (mu, sigma, games) on a ladder (``overall`` or a map);
- ``rated_game``: each finished game as the ratings took it, in order, with its inputs;
- ``rating_change``: each game's contribution to each player's rating;
- ``game.min_rating`` (``SET MINRATING``) and ``game.irregular`` (why a game is left out).

Revision ID: 0016_ratings
Revises: 0015_bot
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_ratings"
down_revision = "0015_bot"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_rating",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("ladder", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=320), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("ladder", "player", name="uq_player_rating_ladder_player"),
    )
    op.create_index("ix_player_rating_ladder", "player_rating", ["ladder"])
    op.create_index("ix_player_rating_player", "player_rating", ["player"])
    op.create_table(
        "rated_game",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE",
                                                         name="fk_rated_game_game_id_game"), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("map_name", sa.String(length=32), nullable=False),
        sa.Column("ending", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=120), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", name="uq_rated_game_game_id"),
    )
    op.create_table(
        "rating_change",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("rated_game_id", sa.Integer(),
                  sa.ForeignKey("rated_game.id", ondelete="CASCADE", name="fk_rating_change_rated_game_id_rated_game"),
                  nullable=False),
        sa.Column("ladder", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=320), nullable=False),
        sa.Column("powers", sa.JSON(), nullable=False),
        sa.Column("share", sa.Float(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_change_rated_game_id", "rating_change", ["rated_game_id"])
    op.create_index("ix_rating_change_player", "rating_change", ["player"])
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("min_rating", sa.Float(), nullable=True))
        batch.add_column(sa.Column("irregular", sa.String(length=120), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("irregular")
        batch.drop_column("min_rating")
    op.drop_table("rating_change")
    op.drop_table("rated_game")
    op.drop_table("player_rating")
