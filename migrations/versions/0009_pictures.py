"""Map pictures in result mails: files attached to outgoing mail, and the switches.

- ``attachment``: a file (the PNG of a phase) stored once by its SHA-256; ``outbox_file``
  links it to every outbox row that carries it. A picture is queued as its SVG
  (``source``, ``ready`` false) and its rows wait as ``held`` until the PNG is made.
- ``game.pictures`` (the master's switch) and ``player.pictures`` (``SET NOPICTURES``).

Revision ID: 0009_pictures
Revises: 0008_press_orders
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_pictures"
down_revision = "0008_press_orders"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attachment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("ready", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_attachment"),
        sa.UniqueConstraint("digest", name="uq_attachment_digest"),
    )
    op.create_table(
        "outbox_file",
        sa.Column("outbox_id", sa.Integer(), nullable=False),
        sa.Column("attachment_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["outbox_id"], ["outbox_message.id"], name="fk_outbox_file_outbox_id_outbox_message",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["attachment_id"], ["attachment.id"], name="fk_outbox_file_attachment_id_attachment",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("outbox_id", "attachment_id", name="pk_outbox_file"),
    )
    op.create_index("ix_outbox_file_attachment_id", "outbox_file", ["attachment_id"])
    op.create_index("ix_attachment_ready", "attachment", ["ready"])
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("pictures", sa.Boolean(), nullable=False, server_default=sa.true()))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("pictures", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("pictures")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("pictures")
    op.drop_index("ix_attachment_ready", table_name="attachment")
    op.drop_index("ix_outbox_file_attachment_id", table_name="outbox_file")
    op.drop_table("outbox_file")
    op.drop_table("attachment")
