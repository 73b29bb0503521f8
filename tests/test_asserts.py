"""Every test asserts something (issue 8: a test that asserts nothing cannot fail): each test
function holds an ``assert``, a ``pytest.raises`` or a ``pytest.fail``, or calls a helper of
its module that does."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _asserts(node: ast.AST) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Assert):
            return True
        if isinstance(n, ast.With) and any("raises" in ast.unparse(i.context_expr) for i in n.items):
            return True
        if isinstance(n, ast.Call) and ast.unparse(n.func) in ("pytest.fail", "pytest.skip"):
            return True
    return False


def test_every_test_function_asserts() -> None:
    silent = []
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        helpers = {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and not f.name.startswith("test_")
                   and _asserts(f)}
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef) or not func.name.startswith("test_"):
                continue
            calls = {ast.unparse(c.func) for c in ast.walk(func) if isinstance(c, ast.Call)}
            if not _asserts(func) and not calls & helpers:
                silent.append(f"{path.name}::{func.name}")
    assert silent == []
