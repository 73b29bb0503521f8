"""Lateness, reminders, time zones, absences and player records.

- ``game``: ``nmr`` (njudge's NMR/NoNMR; games that existed before keep being processed with
  civil-disorder defaults at the end of grace, as they were, so they are set NMR), the
  ``reminder`` hours and the deadline the reminders went out for (``reminded_for``), the count
  of lateness notices of the phase (``late_notices``; 1 where the late notice went out),
  ``start_at`` (no processing before it), the game's ``zone``, ``max_absence`` (days) and the
  minimum record to join (``min_dedication``, ``min_ontime``, ``max_cd_ratio``).
- ``player``: the reader's ``zone``; the record counters ``on_time``, ``late_phases``,
  ``late_notices``, ``abandonments``; ``was_late`` (late in the current phase) and ``took_over``; an index on
  ``email`` for WHOIS.
- ``absence``: the absences players and masters declare.

Revision ID: 0006_lateness
Revises: 0005_orders_clocks
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_lateness"
down_revision = "0005_orders_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("nmr", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("reminder", sa.Float(), nullable=False, server_default="8"))
        batch.add_column(sa.Column("reminded_for", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("late_notices", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("start_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("zone", sa.String(64), nullable=True))
        batch.add_column(sa.Column("max_absence", sa.Integer(), nullable=False, server_default="15"))
        batch.add_column(sa.Column("min_dedication", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("min_ontime", sa.Float(), nullable=True))
        batch.add_column(sa.Column("max_cd_ratio", sa.Float(), nullable=True))
    game = sa.table("game", sa.column("nmr", sa.Boolean), sa.column("late_notices", sa.Integer),
                    sa.column("late_notice_sent", sa.Boolean))
    op.execute(game.update().values(nmr=True))
    op.execute(game.update().where(game.c.late_notice_sent.is_(True)).values(late_notices=1))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("zone", sa.String(64), nullable=True))
        batch.add_column(sa.Column("on_time", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("late_phases", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("late_notices", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("was_late", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("took_over", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("abandonments", sa.Integer(), nullable=False, server_default="0"))
        batch.create_index("ix_player_email", ["email"])
    op.create_table(
        "absence",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("starts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by_master", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_absence_player_id_player",
                                ondelete="CASCADE"),
    )
    op.create_index("ix_absence_player_id", "absence", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_absence_player_id", table_name="absence")
    op.drop_table("absence")
    with op.batch_alter_table("player") as batch:
        batch.drop_index("ix_player_email")
        for name in ("abandonments", "took_over", "was_late", "late_notices", "late_phases", "on_time", "zone"):
            batch.drop_column(name)
    with op.batch_alter_table("game") as batch:
        for name in ("max_cd_ratio", "min_ontime", "min_dedication", "max_absence", "zone", "start_at",
                     "late_notices", "reminded_for", "reminder", "nmr"):
            batch.drop_column(name)
