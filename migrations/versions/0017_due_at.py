"""Due games as a queue: ``game.due_at``, the next moment anything is due for a game
(reminder, late notice, deadline, end of grace, processing), indexed: the deadline job claims
the games whose moment has come and sleeps until the earliest (:mod:`judge.game.due`), in
place of one scheduler job per game kept in step with the deadlines.

Filled here by the rule itself (:func:`judge.game.due.due_at`, read from the columns it
depends on); the judge's sweep at start computes it again all the same.

Revision ID: 0017_due_at
Revises: 0016_ratings
Create Date: 2026-12-03
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import sqlalchemy as sa
from alembic import op

revision = "0017_due_at"
down_revision = "0016_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from judge.game.due import due_at

    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_game_due_at", "game", ["due_at"])
    game = sa.table("game", sa.column("id", sa.Integer()), sa.column("status", sa.String()),
                    *(sa.column(name, sa.DateTime(timezone=True))
                      for name in ("deadline", "grace", "process_at", "reminded_for", "due_at")),
                    sa.column("reminder", sa.Float()), sa.column("late_notices", sa.Integer()))
    bind = op.get_bind()
    rows = bind.execute(sa.select(game).where(game.c.status == "active", game.c.deadline.is_not(None))).all()
    sqlite = bind.dialect.name == "sqlite"
    for row in rows:
        columns = {name: _aware(value) for name, value in row._asdict().items()}
        moment = due_at(SimpleNamespace(**columns))  # type: ignore[arg-type]
        if sqlite and moment is not None:  # stored naive in UTC, as judge.store.base.UTCDateTime does
            moment = moment.astimezone(UTC).replace(tzinfo=None)
        bind.execute(game.update().where(game.c.id == row.id).values(due_at=moment))


def _aware(value: object) -> object:
    """SQLite gives naive UTC datetimes back; the rule compares aware ones."""
    return value.replace(tzinfo=UTC) if isinstance(value, datetime) and value.tzinfo is None else value


def downgrade() -> None:
    op.drop_index("ix_game_due_at", table_name="game")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("due_at")
