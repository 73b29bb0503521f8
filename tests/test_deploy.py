"""Issue 27, item 6: what ``docs/deploy.md`` tells an operator to install works as written.
Its two systemd units pass ``systemd-analyze verify`` and rate under 4 in ``systemd-analyze
security --offline=true`` (where systemd is installed; else skipped with the reason); its
backup cron line, run as cron runs it (``\\%`` becomes ``%``), dumps the database into a file
only its owner can read (on PostgreSQL where it answers)."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "deploy.md").read_text()
UNITS = ("judge.service", "judge-web.service")


def block_after(label: str) -> str:
    """The fenced block that follows ``label`` in the guide."""
    found = re.search(re.escape(label) + r"[^\n]*\n\n```[a-z]*\n(.*?)```", GUIDE, re.S)
    assert found, f"deploy.md has no block after {label}"
    return found.group(1)


def unit_file(name: str, tmp_path: Path) -> Path:
    """The guide's unit, its ExecStart pointed at an executable that exists here (``verify``
    checks it; the judge's own path exists only on a server)."""
    text = block_after(f"`/etc/systemd/system/{name}`:")
    assert "ExecStart=/srv/judge/venv/bin/judge " in text
    path = tmp_path / name
    path.write_text(text.replace("/srv/judge/venv/bin/judge", shutil.which("true") or "/bin/true"))
    return path


@pytest.mark.parametrize("name", UNITS)
def test_the_units_verify_and_are_hardened(name: str, tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    path = unit_file(name, tmp_path)
    verified = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert verified.returncode == 0 and not verified.stderr.strip(), verified.stderr
    rated = subprocess.run(["systemd-analyze", "security", "--offline=true", str(path)], capture_output=True,
                           text=True, timeout=60)
    if "--offline" in rated.stderr:
        pytest.skip("this systemd-analyze cannot rate a unit file offline")
    score = re.search(r"Overall exposure level for \S+: ([0-9.]+)", rated.stdout)
    assert score, rated.stdout[-500:] + rated.stderr
    assert float(score.group(1)) < 4, rated.stdout[-300:]


def cron_command(line: str) -> str:
    """What cron runs for a crontab line: the command after the five times and the user,
    ``\\%`` made ``%`` (an unescaped ``%`` would end the command there)."""
    fields = line.split(None, 6)
    assert len(fields) == 7 and fields[5] == "judge", line
    command = fields[6]
    assert "%" not in command.replace("\\%", ""), "an unescaped % in the cron line"
    return command.replace("\\%", "%")


def test_the_backup_line_dumps_for_its_owner_only(pg_database: str, tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    lines = [ln for ln in block_after("`/etc/cron.d/judge-backup`").splitlines() if ln.strip()]
    env_lines = [ln for ln in lines if re.match(r"^[A-Z_]+=", ln)]
    (job,) = [ln for ln in lines if ln not in env_lines]
    command = cron_command(job).replace("/srv/judge/backup", str(tmp_path))
    url = make_url(pg_database)
    env = {**os.environ, "PGHOST": url.host or "127.0.0.1", "PGPORT": str(url.port or 5432),
           "PGUSER": url.username or "postgres", "PGDATABASE": url.database or ""}
    assert "PGDATABASE=judge" in env_lines
    done = subprocess.run(["sh", "-c", command], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    (dump,) = tmp_path.glob("judge-*.dump")
    assert re.fullmatch(r"judge-\d{4}-\d{2}-\d{2}\.dump", dump.name)
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600
    listed = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
