"""Configuration: defaults, the TOML sections, errors naming the bad key, the example file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.config import _KEYS, CLOCK_KEYS, Config, ConfigError, load_config

ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "judge.toml"
    path.write_text(text)
    return path


def test_defaults() -> None:
    config = load_config(None)
    assert config.code == "PYJD"
    assert config.address == "judge@localhost"
    assert config.smtp_host == "127.0.0.1" and config.smtp_port == 2525
    assert config.max_message_bytes == 1_000_000
    assert config.relay_host is None and config.relay_port == 25
    assert config.database_url == f"sqlite:///{Path('data') / 'judge.db'}"
    assert config.maildir == Path("data") / "outbox-maildir"


def test_every_section(tmp_path: Path) -> None:
    path = write(tmp_path, """
[judge]
code = "TEST"
address = "judge@example.org"
keeper = "keeper@example.org"
timezone = "Europe/Paris"
data_dir = "state"
stop_seconds = 3
health_seconds = 60
[database]
url = "postgresql+psycopg://u@h/db"
[smtp]
host = "0.0.0.0"
port = 25
max_message_bytes = 5000
[relay]
host = "smtp.example.org"
port = 587
user = "u"
password = "p"
starttls = true
timeout = 2.5
[sender]
poll_seconds = 0.1
retry_base_seconds = 1
retry_max_seconds = 8
max_attempts = 3
connections = 2
node_timeout_seconds = 6
[inbox]
poll_seconds = 2
max_attempts = 4
retry_seconds = 9
[limits]
sender_mails_per_minute = 12
[scheduler]
sync_seconds = 5
""")
    config = load_config(path)
    assert config == Config(
        code="TEST", address="judge@example.org", keeper="keeper@example.org", timezone="Europe/Paris",
        data_dir=tmp_path / "state", database_url="postgresql+psycopg://u@h/db", smtp_host="0.0.0.0",
        smtp_port=25, max_message_bytes=5000, relay_host="smtp.example.org", relay_port=587,
        relay_user="u", relay_password="p", relay_starttls=True, relay_timeout=2.5,
        sender_poll_seconds=0.1, sender_retry_base_seconds=1, sender_retry_max_seconds=8,
        sender_max_attempts=3, inbox_poll_seconds=2, scheduler_sync_seconds=5, stop_seconds=3,
        health_seconds=60, sender_connections=2, node_timeout_seconds=6, inbox_max_attempts=4,
        inbox_retry_seconds=9, sender_mails_per_minute=12)
    assert config.maildir == tmp_path / "state" / "outbox-maildir"
    assert config.domain == "example.org"


def test_relative_data_dir_follows_the_file(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[judge]\ndata_dir = "d"\n'))
    assert config.database_url == f"sqlite:///{tmp_path / 'd' / 'judge.db'}"


@pytest.mark.parametrize(("text", "named"), [
    ('[judge]\ncodename = "X"\n', "codename"),
    ('[smtp]\nport = "25"\n', "port"),
    ('[relay]\nstarttls = 1\n', "starttls"),
    ('[mail]\nhost = "x"\n', "mail"),
    ('[judge]\ntimezone = "Mars/Olympus"\n', "Mars/Olympus"),
    ('[judge]\naddress = "nobody"\n', "address"),
    ('[judge\n', "judge.toml"),
])
def test_errors_name_the_key(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(named)):
        load_config(write(tmp_path, text))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "nope.toml")


def test_example_documents_every_key() -> None:
    example = ROOT / "config.example.toml"
    load_config(example)
    lines = example.read_text().splitlines()
    section = ""
    documented: set[tuple[str, str]] = set()
    for i, line in enumerate(lines):
        if m := re.match(r"\[(\w+)\]$", line):
            section = m[1]
        elif m := re.match(r"#? ?(\w+) = ", line):
            above = lines[i - 1]
            assert above.startswith("#") or re.match(r"#? ?\w+ = ", above), f"{m[1]} has no comment above it"
            documented.add((section, m[1]))
    assert documented == set(_KEYS) | {("clocks", key) for key in CLOCK_KEYS}


def test_clock_settings_are_checked_by_the_reader_the_caller_passes(tmp_path: Path) -> None:
    """The configuration imports no game: ``[clocks]`` is checked by the game layer's reader,
    passed in as the ``judge`` command passes it."""
    from judge.game.clocks import default_clocks

    path = write(tmp_path, '[clocks]\nmoves = "next 71 clock 25:99"\n')
    with pytest.raises(ConfigError, match=re.escape("[clocks]")):
        load_config(path, check_clocks=default_clocks)
    good = write(tmp_path, '[clocks]\nmoves = "next 71 clock 23:30 grace 167"\n')
    assert load_config(good, check_clocks=default_clocks).clocks == {"M": "next 71 clock 23:30 grace 167"}
