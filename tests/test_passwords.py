"""Issue 12, item 8: passwords are salted scrypt hashes, migrated from plain text by
0004_mail_path, checked in constant time, and signing on over SMTP works with them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import test_e2e_harness as harness
from sqlalchemy import text
from test_e2e_harness import LiveJudge

from judge.store.base import make_engine, make_sessionmaker
from judge.store.games import Player
from judge.store.migrate import upgrade
from judge.store.passwords import COST_ENV, check_password, hash_password, is_hashed

live = harness.live


def test_hash_is_salted_and_checks() -> None:
    first, second = hash_password("secret"), hash_password("secret")
    assert first != second and is_hashed(first) and "secret" not in first
    assert check_password("secret", first) and check_password("secret", second)
    assert not check_password("Secret", first) and not check_password("secret", "secret")
    assert not check_password("x", "scrypt$1$8$1$!!$!!")


def test_the_cost_is_the_interactive_one_unless_the_environment_lowers_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge hashes at N = 2**14; the tests' lower N (conftest) is chosen, not a default,
    and a hash made at either cost checks wherever the other is in force."""
    monkeypatch.delenv(COST_ENV, raising=False)
    strong = hash_password("secret")
    assert strong.startswith("scrypt$16384$8$1$")
    for unusable in ("9", "21", "x", ""):
        monkeypatch.setenv(COST_ENV, unusable)
        assert hash_password("secret").startswith("scrypt$16384$")
    monkeypatch.setenv(COST_ENV, "10")
    light = hash_password("secret")
    assert light.startswith("scrypt$1024$8$1$") and check_password("secret", strong)
    monkeypatch.delenv(COST_ENV)
    assert check_password("secret", light) and not check_password("Secret", light)


def test_migration_hashes_plain_text_passwords(empty_database_url: str) -> None:
    upgrade(empty_database_url, "0003_grace_draws_press")
    engine = make_engine(empty_database_url)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO game (id, name, map_name, options, status, seq, moves_hours, "
                              "retreats_hours, builds_hours, press, winners, created_at, updated_at) VALUES "
                              "(1, 'old', 'standard', '{}', 'forming', 0, 72, 24, 24, 'white', '[]', :t, :t)"),
                         {"t": now})
            conn.execute(text("INSERT INTO player (game_id, email, password, role, wait, preferences, status, "
                              "joined_at) VALUES (1, 'ann@example.org', 'plainpw', 'player', false, '', "
                              "'active', :t)"), {"t": now})
        upgrade(empty_database_url)
        with make_sessionmaker(engine)() as session:
            (player,) = session.query(Player).all()
    finally:
        engine.dispose()
    assert is_hashed(player.password_hash) and "plainpw" not in player.password_hash
    assert check_password("plainpw", player.password_hash)


def test_signon_over_smtp_with_a_hashed_password(live: LiveJudge) -> None:
    live.reply("gm@players.test", "create ?hashed gmpw standard")
    live.reply("ann@players.test", "signon ?hashed s3cret")
    engine = make_engine(live.url)
    try:
        with engine.connect() as conn:
            stored = [row[0] for row in conn.execute(text("SELECT password_hash FROM player"))]
    finally:
        engine.dispose()
    assert len(stored) == 2 and all(is_hashed(s) for s in stored)
    assert not any("s3cret" in s or "gmpw" in s for s in stored)
    assert "Invalid password" not in live.reply("gm@players.test", "signon Mhashed gmpw").body
    assert "Invalid password" in live.reply("gm@players.test", "signon Mhashed wrong").body
