"""The import rules of design.md, checked on the code: no module imports one that imports it
back (directly or round a circle), the engine imports nothing of ours, the mail path knows no
game, and no import runs back up the layers (the top-level modules have their places in
:data:`ALLOWED` too). Every import counts, also those inside functions and those under ``if
TYPE_CHECKING:``: a circle of names for annotations is a circle a reader follows all the same
(the engine's variant rules see the resolver through :mod:`judge.engine.resolver`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "judge"

#: Which of our packages each package may import (besides itself). design.md, "Layers".
ALLOWED = {
    "judge.engine": set(),
    "judge.ratings": set(),
    "judge.worker": set(),
    "judge.clock": set(),
    "judge.resources": set(),
    "judge.config": set(),
    "judge.store": {"judge.engine", "judge.resources", "judge.clock"},
    "judge.render": {"judge.engine", "judge.resources", "judge.maps"},
    "judge.mail": {"judge.store", "judge.config", "judge.worker", "judge.clock"},
    "judge.bots": {"judge.engine"},
    "judge.game": {"judge.store", "judge.engine", "judge.render", "judge.config", "judge.maps", "judge.worker",
                   "judge.bots", "judge.ratings", "judge.clock"},
    "judge.commands": {"judge.game", "judge.render", "judge.engine", "judge.store", "judge.config",
                       "judge.mail.reader", "judge.maps", "judge.ratings"},
    "judge.web": {"judge.render", "judge.store", "judge.engine", "judge.game.view", "judge.game.disclosure",
                  "judge.maps", "judge.config", "judge.ratings"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> Iterator[str]:
    """The modules of ours ``path`` imports (``from . import x`` gives ``pkg.x`` when that is a
    module, else ``pkg``)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("judge"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("judge"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield sub if sub in MODULES else target


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}
GRAPH = {name: {t for t in imports(path) if t in MODULES and t != name} for name, path in MODULES.items()}


def _circles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles() -> None:
    assert _circles() == []


def test_the_graph_is_read() -> None:
    assert "judge.game.view" in GRAPH["judge.game.processing"]
    assert "judge.engine.board" in GRAPH["judge.engine"]
    assert "judge.engine.resolver" in GRAPH["judge.engine.routes"], "imports for annotations count"


def test_a_circle_and_an_upward_import_are_found() -> None:
    """The checks can fail: a made-up import of the resolver's back into the rules is a circle,
    and one from the configuration into the game layer runs up the layers."""
    saved = {name: set(targets) for name, targets in GRAPH.items()}
    try:
        GRAPH["judge.engine.adjudicator"].add("judge.engine.rules.canal")
        GRAPH["judge.engine.rules.canal"].add("judge.engine.adjudicator")
        assert any("judge.engine.adjudicator" in c for c in _circles())
        GRAPH["judge.config"].add("judge.game.clocks")
        assert "judge.config -> judge.game.clocks" in _wrong_imports()
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def _package_of(name: str) -> str | None:
    for pkg in sorted(ALLOWED, key=len, reverse=True):
        if name == pkg or name.startswith(pkg + "."):
            return pkg
    return None


def test_each_layer_imports_only_what_it_may() -> None:
    assert _wrong_imports() == []


def _wrong_imports() -> list[str]:
    wrong = []
    for name, targets in GRAPH.items():
        pkg = _package_of(name)
        if pkg is None:
            continue
        for target in targets:
            if _package_of(target) == pkg:
                continue
            if not any(target == ok or target.startswith(ok + ".") for ok in ALLOWED[pkg]):
                wrong.append(f"{name} -> {target}")
    return wrong
