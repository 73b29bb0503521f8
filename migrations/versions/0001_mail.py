"""The mail tables: inbox (every message received) and outbox (every message sent, the archive).

Revision ID: 0001_mail
Revises:
Create Date: 2024-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_mail"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbox_message",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("message_id", sa.String(255), nullable=False),
        sa.Column("envelope_sender", sa.String(320), nullable=False),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("message_id", name="uq_inbox_message_message_id"),
    )
    op.create_index("ix_inbox_message_status", "inbox_message", ["status", "id"])
    op.create_table(
        "outbox_message",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("to_addr", sa.String(320), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("game", sa.String(64), nullable=True),
        sa.Column("phase", sa.String(32), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("message_id", sa.String(255), nullable=False),
        sa.UniqueConstraint("message_id", name="uq_outbox_message_message_id"),
    )
    op.create_index("ix_outbox_message_due", "outbox_message", ["status", "next_attempt_at", "id"])
    op.create_index("ix_outbox_message_game", "outbox_message", ["game"])


def downgrade() -> None:
    op.drop_index("ix_outbox_message_game", table_name="outbox_message")
    op.drop_index("ix_outbox_message_due", table_name="outbox_message")
    op.drop_table("outbox_message")
    op.drop_index("ix_inbox_message_status", table_name="inbox_message")
    op.drop_table("inbox_message")
