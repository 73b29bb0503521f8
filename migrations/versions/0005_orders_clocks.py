"""Orders stored as the engine's values; njudge clocks per phase kind; the processing delay.

- ``order_set.lines`` (order text, parsed again at every use) becomes ``entries``: each
  accepted order in ``judge.store.codec`` form with the line as written; ``errors`` counts
  the errors of the last mail that gave the power's orders. ``phase_record.orders`` is
  converted the same way.
- ``game.moves_hours``/``retreats_hours``/``builds_hours`` and the three ``*_grace`` columns
  become one ``clocks`` JSON column (a game keeps its hours, with no clock time, so its
  deadlines do not move); ``process_at`` is when a phase whose orders are all in is
  processed (njudge's ``delay``); ``ending`` says how a finished game ended.
- ``outbox_message.archived`` marks the one copy of each public mail that HISTORY shows
  (a mail to many recipients is a row per recipient); for mail already sent, the first row
  of each distinct (game, kind, subject, body) is marked.

Revision ID: 0005_orders_clocks
Revises: 0004_mail_path
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005_orders_clocks"
down_revision = "0004_mail_path"
branch_labels = None
depends_on = None

_KINDS = (("M", "moves"), ("R", "retreats"), ("B", "builds"))


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _entries(board: Any, position: Any, power: str, lines: list[str]) -> list[dict[str, Any]]:
    from judge.engine import OrderError
    from judge.engine.parser import parse_orders
    from judge.store.codec import order_to_json

    out = []
    for line in lines:
        for item in parse_orders(board, position, power, line):
            if not isinstance(item, OrderError):
                out.append({"line": line, "order": order_to_json(item)})
    return out


def _board(map_name: str, options: Any) -> Any:
    from judge.engine import Options
    from judge.maps import load_board

    return load_board(map_name, Options(_json(options) or {}))


def upgrade() -> None:
    from judge.engine import Position

    conn = op.get_bind()
    games = {row.id: row for row in conn.execute(sa.text(
        "SELECT id, map_name, options, position, moves_hours, retreats_hours, builds_hours, "
        "moves_grace, retreats_grace, builds_grace FROM game"))}
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("clocks", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("process_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("ending", sa.String(length=16), nullable=True))
    with op.batch_alter_table("outbox_message") as batch:
        batch.add_column(sa.Column("archived", sa.Boolean(), nullable=False, server_default=sa.false()))
    seen: set[tuple[str, str, str, str]] = set()
    outbox_t = sa.table("outbox_message", sa.column("id", sa.Integer), sa.column("archived", sa.Boolean))
    for mid, game_name, kind, subject, body in conn.execute(sa.text(
            "SELECT id, game, kind, subject, body FROM outbox_message WHERE game IS NOT NULL ORDER BY id")):
        key = (game_name, kind, subject, body)
        if key not in seen:
            seen.add(key)
            conn.execute(outbox_t.update().where(outbox_t.c.id == mid).values(archived=True))
    with op.batch_alter_table("order_set") as batch:
        batch.add_column(sa.Column("entries", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("errors", sa.Integer(), nullable=False, server_default="0"))
    game_t = sa.table("game", sa.column("id", sa.Integer), sa.column("clocks", sa.JSON))
    for gid, row in games.items():
        clocks = {k: {"next": getattr(row, f"{name}_hours"), "grace": getattr(row, f"{name}_grace"),
                      "clock": None} for k, name in _KINDS}
        conn.execute(game_t.update().where(game_t.c.id == gid).values(clocks=clocks))
    order_t = sa.table("order_set", sa.column("id", sa.Integer), sa.column("entries", sa.JSON))
    for oid, gid, power, lines in conn.execute(sa.text("SELECT id, game_id, power, lines FROM order_set")).all():
        game = games[gid]
        entries: list[dict[str, Any]] = []
        if game.position is not None:
            board = _board(game.map_name, game.options)
            entries = _entries(board, Position.from_json(board.map, _json(game.position)), power,
                               list(_json(lines) or []))
        conn.execute(order_t.update().where(order_t.c.id == oid).values(entries=entries))
    record_t = sa.table("phase_record", sa.column("id", sa.Integer), sa.column("orders", sa.JSON))
    for rid, gid, position, orders in conn.execute(sa.text(
            "SELECT id, game_id, position, orders FROM phase_record")).all():
        game = games[gid]
        board = _board(game.map_name, game.options)
        pos = Position.from_json(board.map, _json(position))
        converted = {power: _entries(board, pos, power, list(lines)) for power, lines in (_json(orders) or {}).items()}
        conn.execute(record_t.update().where(record_t.c.id == rid).values(orders=converted))
    with op.batch_alter_table("order_set") as batch:
        batch.alter_column("entries", nullable=False)
        batch.drop_column("lines")
    with op.batch_alter_table("game") as batch:
        batch.alter_column("clocks", nullable=False)
        for _, name in _KINDS:
            batch.drop_column(f"{name}_hours")
            batch.drop_column(f"{name}_grace")


def downgrade() -> None:
    raise NotImplementedError("0005 converts stored order text into order values; it cannot be undone")
