"""The migrations build the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from judge.store.base import Base, make_engine
from judge.store.migrate import alembic_config, import_models, upgrade

ROOT = Path(__file__).resolve().parent.parent


def test_upgrade_head_matches_models(database_url: str) -> None:
    import_models()
    upgrade(database_url)
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, Base.metadata)
            tables = set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    assert diff == []
    assert {"inbox_message", "outbox_message", "alembic_version"} <= tables


def test_upgrade_twice_is_harmless(database_url: str) -> None:
    upgrade(database_url)
    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO game (name, map_name, options, status, seq, clocks, press, partial_press, "
                              "late_notice_sent, winners, created_at, updated_at) VALUES ('kept', 'standard', '{}', "
                              "'forming', 0, '{}', 'white', true, false, '[]', :t, :t)"), {"t": datetime(2026, 1, 1)})
        upgrade(database_url)
        with engine.connect() as conn:
            names = [row[0] for row in conn.execute(text("SELECT name FROM game"))]
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    finally:
        engine.dispose()
    assert names == ["kept"], "a second upgrade keeps the data"
    assert version == ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_judge_db_upgrade_command(tmp_path: Path) -> None:
    (tmp_path / "judge.toml").write_text('[judge]\ndata_dir = "state"\n')
    done = subprocess.run([sys.executable, "-m", "judge", "db", "upgrade", "--config", str(tmp_path / "judge.toml")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    engine = make_engine(f"sqlite:///{tmp_path / 'state' / 'judge.db'}")
    try:
        with engine.connect() as conn:
            assert {"inbox_message", "outbox_message"} <= set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    bad = subprocess.run([sys.executable, "-m", "judge", "db", "upgrade", "--config", str(tmp_path / "nope.toml")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "cannot read" in bad.stderr


def test_0005_converts_stored_orders_and_clocks_and_keeps_every_row(database_url: str) -> None:
    """Order text becomes order values, the hour columns become clocks, the archive copy of
    each mail is marked, and no player or order is lost (SQLite rebuilds the game table: with
    foreign keys on, that would cascade to the players)."""
    import json
    from datetime import UTC, datetime

    from sqlalchemy import text

    from judge.engine import initial_position
    from judge.maps import load_board
    from judge.store.codec import order_from_json

    upgrade(database_url, "0004_mail_path")
    board = load_board("standard")
    position = json.dumps(initial_position(board.map).to_json(board.map))
    now = datetime(2026, 1, 1, tzinfo=UTC)
    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO game (id, name, map_name, options, status, phase, position, seq, "
                              "moves_hours, retreats_hours, builds_hours, moves_grace, retreats_grace, builds_grace, "
                              "press, winners, created_at, updated_at) VALUES (1, 'old', 'standard', '{}', 'active', "
                              "'S1901M', :pos, 1, 48, 24, 24, 96, 48, 48, 'white', '[]', :t, :t)"),
                         {"t": now, "pos": position})
            conn.execute(text("INSERT INTO player (game_id, email, password_hash, role, power, wait, preferences, "
                              "status, joined_at) VALUES (1, 'ann@example.org', 'x', 'player', 'France', false, '', "
                              "'active', :t)"), {"t": now})
            conn.execute(text("INSERT INTO order_set (game_id, power, phase, lines, updated_at) VALUES "
                              "(1, 'France', 'S1901M', :lines, :t)"),
                         {"t": now, "lines": json.dumps(["A par - bur", "F bre - mao"])})
            for n in range(3):
                conn.execute(text("INSERT INTO outbox_message (to_addr, subject, body, headers, game, kind, "
                                  "created_at, status, attempts, message_id) VALUES (:to, 'S', 'B', '{}', 'old', "
                                  "'result', :t, 'sent', 1, :mid)"), {"to": f"p{n}@x", "t": now, "mid": f"<{n}@x>"})
        upgrade(database_url)
        with engine.connect() as conn:
            players = conn.execute(text("SELECT email FROM player")).fetchall()
            (entries,) = conn.execute(text("SELECT entries FROM order_set")).one()
            (clocks,) = conn.execute(text("SELECT clocks FROM game")).one()
            archived = conn.execute(text("SELECT archived FROM outbox_message ORDER BY id")).fetchall()
    finally:
        engine.dispose()
    assert players == [("ann@example.org",)]
    entries = json.loads(entries) if isinstance(entries, str) else entries
    assert [e["line"] for e in entries] == ["A par - bur", "F bre - mao"]
    assert str(order_from_json(entries[0]["order"]).unit) == "A par"
    clocks = json.loads(clocks) if isinstance(clocks, str) else clocks
    assert clocks["M"] == {"next": 48, "grace": 96, "clock": None}
    assert [bool(a) for (a,) in archived] == [True, False, False]
