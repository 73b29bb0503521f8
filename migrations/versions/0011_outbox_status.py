"""The outbox's status index in id order: ``(status, id)`` in place of ``(status,
next_attempt_at, id)``.

SQLite's planner, with no statistics, takes an index whose first column the WHERE pins by
equality over one it must scan, and it did so for the sender's claim (``status =
'pending' AND claimed_by IS NULL ... ORDER BY id LIMIT 16``): it read every pending row
through the old index and sorted them all (``USE TEMP B-TREE FOR ORDER BY``) to keep 16.
With 40,000 mails queued by 5,000 games due at once, a claim cost 38-58 ms, and the
2,500 claims of that burst most of its sending time. In ``(status, id)`` order the rows
come out sorted: the claim reads the few claimed rows at the front and stops at its 16th.
Nothing else read ``next_attempt_at`` through the index.

Revision ID: 0011_outbox_status
Revises: 0010_outbox_queue
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0011_outbox_status"
down_revision = "0010_outbox_queue"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_outbox_message_due", table_name="outbox_message")
    op.create_index("ix_outbox_message_status", "outbox_message", ["status", "id"])


def downgrade() -> None:
    op.drop_index("ix_outbox_message_status", table_name="outbox_message")
    op.create_index("ix_outbox_message_due", "outbox_message", ["status", "next_attempt_at", "id"])
