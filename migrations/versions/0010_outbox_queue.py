"""The sender's queue as a partial index: the outbox rows it may claim, in id order.

Without it a claim (``status = 'pending' AND claimed_by IS NULL ... ORDER BY id LIMIT 16``)
read and sorted every pending row: 5,000 games due at once queue 40,000 mails, and each of
their 2,500 claims cost tens of milliseconds on PostgreSQL. ``ix_outbox_message_claimed_by``
now holds only the claimed rows: with every sent row in it, SQLite chose it for the claim.

Revision ID: 0010_outbox_queue
Revises: 0009_pictures
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_outbox_queue"
down_revision = "0009_pictures"
branch_labels = None
depends_on = None

QUEUE_WHERE = "status = 'pending' AND claimed_by IS NULL"
CLAIMED = "claimed_by IS NOT NULL"


def upgrade() -> None:
    op.create_index("ix_outbox_message_queue", "outbox_message", ["id"], sqlite_where=sa.text(QUEUE_WHERE),
                    postgresql_where=sa.text(QUEUE_WHERE))
    op.drop_index("ix_outbox_message_claimed_by", table_name="outbox_message")
    op.create_index("ix_outbox_message_claimed_by", "outbox_message", ["claimed_by"], sqlite_where=sa.text(CLAIMED),
                    postgresql_where=sa.text(CLAIMED))


def downgrade() -> None:
    op.drop_index("ix_outbox_message_claimed_by", table_name="outbox_message")
    op.create_index("ix_outbox_message_claimed_by", "outbox_message", ["claimed_by"])
    op.drop_index("ix_outbox_message_queue", table_name="outbox_message")
