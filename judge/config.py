"""The judge's configuration: one TOML file, every key documented in ``config.example.toml``.

Contract::

    from judge.config import Config, load_config
    config = load_config("judge.toml")     # or load_config(None) for the defaults
    config = load_config("judge.toml", check_clocks=judge.game.clocks.default_clocks)

Sections and keys (a key not listed here is an error naming it)::

    [judge]     code, address, keeper, timezone, data_dir, stop_seconds, health_seconds, secret,
                pictures, game_process, picture_processes
    [database]  url
    [smtp]      host, port, max_message_bytes
    [relay]     host, port, user, password, starttls, timeout
    [sender]    poll_seconds, retry_base_seconds, retry_max_seconds, max_attempts, connections,
                node_timeout_seconds
    [inbox]     poll_seconds, max_attempts, retry_seconds
    [limits]    sender_mails_per_minute, game_mails_per_minute, commands_per_mail,
                reply_max_bytes, press_max_bytes
    [scheduler] sync_seconds
    [status]    overdue_minutes, recent_hours   (what ``judge status`` and /metrics call unhealthy)
    [clocks]    moves, retreats, builds   (njudge deadline settings new games start with)
    [games]     nmr, reminder_hours, max_absence_days   (what new games start with)
    [web]       host, port, base_url   (the read-only web archive; off without this section)

A relative ``data_dir`` is taken relative to the configuration file's folder (to the current
folder when no file is given). ``database_url`` defaults to the SQLite file
``<data_dir>/judge.db`` and ``maildir`` to ``<data_dir>/outbox-maildir``. The web archive
(``judge web``) is on only when the file has a ``[web]`` section (``web_enabled``).

``secret`` signs the players' reply addresses; it is never printed (not in the ``repr``), and
when the file has none the judge keeps one in the database (:mod:`judge.store.keys`).
The judge's address in tagged form (``judge+tag@domain``, :meth:`Config.is_own`) is its own.

The configuration knows no game: ``[clocks]`` is read as text, and checked by the reader of
clock settings the caller passes (``check_clocks``; the ``judge`` command passes the game
layer's), whose ``ValueError`` becomes a :class:`ConfigError`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class ConfigError(ValueError):
    """The configuration file is unreadable or holds a bad or unknown key."""


@dataclass(frozen=True)
class Config:
    """Everything the judge server reads from its configuration file."""

    code: str = "PYJD"
    address: str = "judge@localhost"
    keeper: str = "judgekeeper@localhost"
    timezone: str = "UTC"
    data_dir: Path = Path("./data")
    stop_seconds: float = 5.0
    health_seconds: float = 300.0
    database_url: str = ""
    smtp_host: str = "127.0.0.1"
    smtp_port: int = 2525
    max_message_bytes: int = 1_000_000
    relay_host: str | None = None
    relay_port: int = 25
    relay_user: str | None = None
    relay_password: str | None = None
    relay_starttls: bool = False
    relay_timeout: float = 30.0
    sender_poll_seconds: float = 5.0
    sender_retry_base_seconds: float = 60.0
    sender_retry_max_seconds: float = 3600.0
    sender_max_attempts: int = 12
    sender_connections: int = 4
    node_timeout_seconds: float = 10.0
    inbox_poll_seconds: float = 30.0
    inbox_max_attempts: int = 3
    inbox_retry_seconds: float = 60.0
    sender_mails_per_minute: int = 30
    game_mails_per_minute: int = 120
    commands_per_mail: int = 300
    reply_max_bytes: int = 250_000
    press_max_bytes: int = 20_000
    scheduler_sync_seconds: float = 60.0
    maildir: Path = field(default=Path(""))
    clocks: dict[str, str] = field(default_factory=dict)
    nmr: bool = False
    reminder_hours: float = 8.0
    max_absence_days: int = 15
    web_enabled: bool = False
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    web_base_url: str = ""
    secret: str = field(default="", repr=False)
    pictures: bool = True
    status_overdue_minutes: float = 15.0
    status_recent_hours: float = 24.0
    game_process: bool | None = None  # None: in a process of its own on PostgreSQL only
    picture_processes: int | None = None  # None: one where there is a core to spare

    def __post_init__(self) -> None:
        object.__setattr__(self, "data_dir", Path(self.data_dir))
        if not self.database_url:
            object.__setattr__(self, "database_url", f"sqlite:///{self.data_dir / 'judge.db'}")
        if not str(self.maildir) or str(self.maildir) == ".":
            object.__setattr__(self, "maildir", self.data_dir / "outbox-maildir")
        object.__setattr__(self, "maildir", Path(self.maildir))

    @property
    def domain(self) -> str:
        """The domain of the judge's address (used for Message-IDs and the SMTP greeting)."""
        return self.address.rpartition("@")[2] or "localhost"

    def is_own(self, address: str) -> bool:
        """Whether ``address`` (bare, any case) is the judge's own: its address, or that
        address with a tag after ``+`` (``judge+tag@domain``, the reply addresses)."""
        local, _, domain = address.strip().lower().rpartition("@")
        own_local, _, own_domain = self.address.lower().rpartition("@")
        return domain == own_domain and (local == own_local or local.startswith(own_local + "+"))


# (section, key) -> (Config field, accepted types)
_KEYS: dict[tuple[str, str], tuple[str, tuple[type, ...]]] = {
    ("judge", "code"): ("code", (str,)),
    ("judge", "address"): ("address", (str,)),
    ("judge", "keeper"): ("keeper", (str,)),
    ("judge", "timezone"): ("timezone", (str,)),
    ("judge", "data_dir"): ("data_dir", (str,)),
    ("judge", "stop_seconds"): ("stop_seconds", (int, float)),
    ("judge", "health_seconds"): ("health_seconds", (int, float)),
    ("judge", "secret"): ("secret", (str,)),
    ("judge", "pictures"): ("pictures", (bool,)),
    ("judge", "game_process"): ("game_process", (bool,)),
    ("judge", "picture_processes"): ("picture_processes", (int,)),
    ("database", "url"): ("database_url", (str,)),
    ("smtp", "host"): ("smtp_host", (str,)),
    ("smtp", "port"): ("smtp_port", (int,)),
    ("smtp", "max_message_bytes"): ("max_message_bytes", (int,)),
    ("relay", "host"): ("relay_host", (str,)),
    ("relay", "port"): ("relay_port", (int,)),
    ("relay", "user"): ("relay_user", (str,)),
    ("relay", "password"): ("relay_password", (str,)),
    ("relay", "starttls"): ("relay_starttls", (bool,)),
    ("relay", "timeout"): ("relay_timeout", (int, float)),
    ("sender", "poll_seconds"): ("sender_poll_seconds", (int, float)),
    ("sender", "retry_base_seconds"): ("sender_retry_base_seconds", (int, float)),
    ("sender", "retry_max_seconds"): ("sender_retry_max_seconds", (int, float)),
    ("sender", "max_attempts"): ("sender_max_attempts", (int,)),
    ("sender", "connections"): ("sender_connections", (int,)),
    ("sender", "node_timeout_seconds"): ("node_timeout_seconds", (int, float)),
    ("inbox", "poll_seconds"): ("inbox_poll_seconds", (int, float)),
    ("inbox", "max_attempts"): ("inbox_max_attempts", (int,)),
    ("inbox", "retry_seconds"): ("inbox_retry_seconds", (int, float)),
    ("limits", "sender_mails_per_minute"): ("sender_mails_per_minute", (int,)),
    ("limits", "game_mails_per_minute"): ("game_mails_per_minute", (int,)),
    ("limits", "commands_per_mail"): ("commands_per_mail", (int,)),
    ("limits", "reply_max_bytes"): ("reply_max_bytes", (int,)),
    ("limits", "press_max_bytes"): ("press_max_bytes", (int,)),
    ("scheduler", "sync_seconds"): ("scheduler_sync_seconds", (int, float)),
    ("status", "overdue_minutes"): ("status_overdue_minutes", (int, float)),
    ("status", "recent_hours"): ("status_recent_hours", (int, float)),
    ("games", "nmr"): ("nmr", (bool,)),
    ("games", "reminder_hours"): ("reminder_hours", (int, float)),
    ("games", "max_absence_days"): ("max_absence_days", (int,)),
    ("web", "host"): ("web_host", (str,)),
    ("web", "port"): ("web_port", (int,)),
    ("web", "base_url"): ("web_base_url", (str,)),
}
#: ``[clocks]`` keys -> phase kinds.
CLOCK_KEYS = {"moves": "M", "retreats": "R", "builds": "B"}


ClockCheck = Callable[[Mapping[str, str]], object]


def _values(data: dict[str, Any], check_clocks: ClockCheck | None) -> dict[str, Any]:
    """Map the TOML tables onto Config field names, checking every key and type."""
    sections = {s for s, _ in _KEYS}
    values: dict[str, Any] = {}
    for section, table in data.items():
        if section == "clocks" and isinstance(table, dict):
            values["clocks"] = _clocks(table, check_clocks)
            continue
        if section not in sections:
            raise ConfigError(f"unknown section [{section}]")
        if not isinstance(table, dict):
            raise ConfigError(f"[{section}] must be a table")
        for key, value in table.items():
            if (section, key) not in _KEYS:
                raise ConfigError(f"unknown key {key!r} in [{section}]")
            name, types = _KEYS[(section, key)]
            if isinstance(value, bool) and bool not in types or not isinstance(value, types):
                wanted = " or ".join(t.__name__ for t in types)
                raise ConfigError(f"[{section}] {key} must be {wanted}, not {value!r}")
            values[name] = value
    return values


def _clocks(table: dict[str, Any], check: ClockCheck | None) -> dict[str, str]:
    """``[clocks]``: njudge deadline settings per phase kind, checked by ``check``."""
    out: dict[str, str] = {}
    for key, value in table.items():
        if key not in CLOCK_KEYS:
            raise ConfigError(f"unknown key {key!r} in [clocks] (moves, retreats, builds)")
        if not isinstance(value, str):
            raise ConfigError(f"[clocks] {key} must be a string like \"next 71 clock 23:30 grace 167\"")
        out[CLOCK_KEYS[key]] = value
    if check is not None:
        try:
            check(out)
        except ValueError as exc:
            raise ConfigError(f"[clocks]: {exc}") from None
    return out


def _check(config: Config) -> None:
    try:
        ZoneInfo(config.timezone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"[judge] timezone: unknown time zone {config.timezone!r}") from exc
    if "@" not in config.address:
        raise ConfigError(f"[judge] address must be a mail address, not {config.address!r}")
    if config.web_base_url and not config.web_base_url.startswith(("http://", "https://")):
        raise ConfigError(f"[web] base_url must start with http:// or https://, not {config.web_base_url!r}")
    if config.picture_processes is not None and not 0 <= config.picture_processes <= 64:
        raise ConfigError("[judge] picture_processes is 0 (pictures made in the judge's process) to 64")
    if config.reminder_hours < 0 or not 0 <= config.max_absence_days <= 31:
        raise ConfigError("[games] reminder_hours must not be negative, max_absence_days is 0 to 31")
    for name in ("smtp_port", "relay_port", "max_message_bytes", "sender_max_attempts", "sender_connections",
                 "inbox_max_attempts", "sender_mails_per_minute",
                 "game_mails_per_minute", "commands_per_mail", "reply_max_bytes", "press_max_bytes", "node_timeout_seconds", "health_seconds",
                 "web_port", "status_overdue_minutes", "status_recent_hours"):
        if getattr(config, name) <= 0:
            raise ConfigError(f"{name} must be positive")


def load_config(path: str | Path | None = None, *, check_clocks: ClockCheck | None = None) -> Config:
    """Read the TOML file at ``path`` (None: all defaults) into a checked :class:`Config`;
    ``check_clocks`` reads ``[clocks]`` (see the module's docstring)."""
    if path is None:
        config = Config()
        _check(config)
        return config
    path = Path(path)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    values = _values(data, check_clocks)
    values["web_enabled"] = "web" in data
    data_dir = Path(values.pop("data_dir", "./data")).expanduser()
    if not data_dir.is_absolute():
        data_dir = path.resolve().parent / data_dir
    config = Config(data_dir=data_dir, **values)
    _check(config)
    return config


SECRET_FILE = "secret"


def file_secret(config: Config) -> str | None:
    """The reply-address key earlier judges kept in ``<data_dir>/secret``, if that file exists
    (the key now lives in the database: :mod:`judge.store.keys`; this seeds it)."""
    folder = config.data_dir if config.data_dir.is_absolute() else config.data_dir.resolve()
    path = folder / SECRET_FILE
    try:
        value = path.read_text().strip()
    except FileNotFoundError:
        return None
    if not value:
        raise ConfigError(f"{path} is empty: delete it, or set [judge] secret")
    return value
