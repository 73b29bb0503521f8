"""``game.changed_at``: the moment the game stands as of, so that a mail is read only
against the game it was written for (issue 23, rule 1).

A mail read for a game sets it to the mail's arrival (never back); a phase turned by the
scheduler or the command line sets it to the time it turned. A mail that arrived before it
(read late: a lock waited for, a retry after a transient failure, an operator's retry) is
not applied and its sender is asked to send it again. Existing games start with none: any
mail may be read for them until one is.

Revision ID: 0014_game_changed_at
Revises: 0013_phase_pictures
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_game_changed_at"
down_revision = "0013_phase_pictures"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("changed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("changed_at")
