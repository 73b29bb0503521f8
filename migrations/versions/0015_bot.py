"""The judge's bot in the game life.

- ``game``: ``cd_mode`` (``hold``, njudge's behaviour and the default, or ``bot``: what a
  civil-disorder or abandoned power does, ``SET CD BOT`` / ``SET CD HOLD``), ``bot_powers``
  (the seats the master gave the bot, ``SET BOT power``, and a practice game's);
- ``phase_record``: ``bot_powers`` (the powers whose orders the bot wrote in that phase, as
  the results and the archive say).

Revision ID: 0015_bot
Revises: 0014_game_changed_at
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_bot"
down_revision = "0014_game_changed_at"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("cd_mode", sa.String(length=8), nullable=False, server_default="hold"))
        batch.add_column(sa.Column("bot_powers", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("phase_record") as batch:
        batch.add_column(sa.Column("bot_powers", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("phase_record") as batch:
        batch.drop_column("bot_powers")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("bot_powers")
        batch.drop_column("cd_mode")
