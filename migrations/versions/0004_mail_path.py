"""The mail path: inbox retries and quarantine, outbox claims by process, the processes
themselves, rate-limit buckets, and passwords as salted hashes instead of plain text.

Revision ID: 0004_mail_path
Revises: 0003_grace_draws_press
Create Date: 2026-12-05

Every stored plain-text password is replaced by its scrypt hash
(:mod:`judge.store.passwords`); there is no way back to the plain text, so the downgrade
refuses rather than leave players unable to sign on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from judge.store.passwords import hash_password, is_hashed

revision = "0004_mail_path"
down_revision = "0003_grace_draws_press"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbox_message") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("outbox_message") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(64), nullable=True))
        batch.create_index("ix_outbox_message_claimed_by", ["claimed_by"])
    op.create_table(
        "mail_node",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rate_limit",
        sa.Column("key", sa.String(400), primary_key=True),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("told", sa.Boolean(), nullable=False),
    )
    with op.batch_alter_table("player") as batch:
        batch.alter_column("password", new_column_name="password_hash", type_=sa.String(255),
                           existing_type=sa.String(64), existing_nullable=False)
    player = sa.table("player", sa.column("id", sa.Integer()), sa.column("password_hash", sa.String(255)))
    conn = op.get_bind()
    for row_id, value in conn.execute(sa.select(player.c.id, player.c.password_hash)).all():
        if not is_hashed(value):
            conn.execute(player.update().where(player.c.id == row_id).values(password_hash=hash_password(value)))


def downgrade() -> None:
    raise RuntimeError("0004_mail_path cannot be undone: the plain-text passwords are gone "
                       "(only their hashes are stored); restore a backup taken before the upgrade")
