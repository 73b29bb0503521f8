"""Statuses are ``StrEnum``s (issue 24 item 4): the game's, a member's role and status, the
inbox's and the outbox's; no code compares a status or a role with a string literal, or
writes one."""

from __future__ import annotations

import ast
from pathlib import Path

from judge.store.games import ACTIVE, MASTER, RESIGNED, GameStatus, PlayerStatus, Role
from judge.store.mail import INBOX_STATUSES, OUTBOX_STATUSES, InboxStatus, OutboxStatus

ROOT = Path(__file__).resolve().parent.parent
FIELDS = {"status", "role"}
#: Every word a status or a role is stored as.
WORDS = {str(v) for enum in (GameStatus, Role, PlayerStatus, InboxStatus, OutboxStatus) for v in enum}


def _word(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in WORDS


def _literal_uses(tree: ast.AST) -> list[int]:
    """Lines that compare ``x.status``/``x.role`` with a string, or assign one to it."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr in FIELDS:
            for right in node.comparators:
                items = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
                if any(_word(i) for i in items):
                    lines.append(node.lineno)
        elif isinstance(node, ast.Assign) and _word(node.value):
            if any(isinstance(t, ast.Attribute) and t.attr in FIELDS for t in node.targets):
                lines.append(node.lineno)
        elif isinstance(node, ast.keyword) and node.arg in FIELDS and _word(node.value):
            lines.append(node.value.lineno)
    return lines


def test_no_status_or_role_is_a_string_literal() -> None:
    found = []
    for path in sorted((ROOT / "judge").rglob("*.py")):
        if "engine" in path.parts:
            continue
        found += [f"{path.relative_to(ROOT)}:{n}" for n in _literal_uses(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []


def test_the_enums_are_the_stored_words() -> None:
    assert ACTIVE is GameStatus.ACTIVE and MASTER is Role.MASTER and RESIGNED is PlayerStatus.RESIGNED
    assert [str(s) for s in GameStatus] == ["forming", "active", "paused", "finished", "terminated"]
    assert PlayerStatus.ACTIVE == "active" and f"{OutboxStatus.PENDING}" == "pending"
    assert set(INBOX_STATUSES) == {"new", "done", "ignored", "failed", "quarantined", "dropped"} == set(InboxStatus)
    assert set(OUTBOX_STATUSES) == {"held", "pending", "sent", "failed", "dropped"} == set(OutboxStatus)
