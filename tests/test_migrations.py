"""The migrations build the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from judge.store.base import Base, make_engine
from judge.store.migrate import alembic_config, at_newest, import_models, upgrade

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def database_url(empty_database_url: str) -> str:
    """The migrations run on a database with no tables at all."""
    return empty_database_url


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


def test_a_database_one_migration_behind_is_not_taken_for_the_newest(database_url: str) -> None:
    """``upgrade`` skips Alembic at the newest migration (its heads read once per process):
    one migration short of them, it must still run the last one."""
    (head,) = ScriptDirectory.from_config(alembic_config()).get_revisions("head")
    assert isinstance(head.down_revision, str)
    upgrade(database_url, head.down_revision)
    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            assert not at_newest(conn)
        upgrade(database_url)
        with engine.begin() as conn:
            assert at_newest(conn)
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    finally:
        engine.dispose()
    assert version == head.revision


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


def test_0007_keeps_players_and_records_and_lets_a_phase_be_played_again(database_url: str) -> None:
    """The master's columns come with their defaults, no player or phase record is lost
    (SQLite rebuilds the tables), and the phase record key takes the rollback number: the
    same turn may be recorded again once withdrawn, never twice live."""
    import json
    from datetime import UTC, datetime

    import pytest
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    upgrade(database_url, "0005_orders_clocks")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO game (id, name, map_name, options, status, seq, clocks, press, "
                              "partial_press, late_notice_sent, winners, created_at, updated_at) VALUES (1, 'old', "
                              "'standard', '{}', 'active', 2, '{}', 'white', true, false, '[]', :t, :t)"), {"t": now})
            conn.execute(text("INSERT INTO player (game_id, email, password_hash, role, power, wait, preferences, "
                              "status, nmr_count, draw_vote, joined_at) VALUES (1, 'ann@example.org', 'x', 'player', "
                              "'France', false, '', 'active', 0, true, :t)"), {"t": now})
            conn.execute(text("INSERT INTO phase_record (game_id, seq, phase, position, orders, results, created_at) "
                              "VALUES (1, 1, 'S1901M', :pos, '{}', 'R', :t)"),
                         {"t": now, "pos": json.dumps({"phase": "S1901M"})})
        upgrade(database_url)
        with engine.connect() as conn:
            game = conn.execute(text("SELECT dias, concessions, gunboat, listed, manual_start, rollbacks FROM game")).one()
            player = conn.execute(text("SELECT email, draw_vote, draw_powers, concede_to FROM player")).one()
            record = conn.execute(text("SELECT seq, withdrawn, options FROM phase_record")).one()
        assert [bool(v) for v in game[:5]] == [True, True, False, True, False] and game[5] == 0
        powers = json.loads(player[2]) if isinstance(player[2], str) else player[2]
        assert (player[0], bool(player[1]), powers, player[3]) == ("ann@example.org", True, [], None)
        assert (record[0], record[1], record[2]) == (1, 0, None)
        insert = text("INSERT INTO phase_record (game_id, seq, phase, position, orders, results, withdrawn, "
                      "created_at) VALUES (1, 1, 'S1901M', '{}', '{}', 'R2', :w, :t)")
        with engine.begin() as conn:
            conn.execute(text("UPDATE phase_record SET withdrawn = 1"))
            conn.execute(insert, {"w": 0, "t": now})
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(insert, {"w": 0, "t": now})
    finally:
        engine.dispose()
