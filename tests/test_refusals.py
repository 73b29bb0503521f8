"""Game errors share one base (issue 24 item 4): every error a game module raises for the
sender to read is a :class:`judge.game.errors.GameError`, the command runner turns it into
the command's error reply, and no handler catches one only to do the same."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

from test_game_grace import GM, _master
from test_game_helpers import Judge, start_standard

from judge.game.errors import GameError

ROOT = Path(__file__).resolve().parent.parent


def test_every_game_error_is_a_game_error() -> None:
    found = []
    for path in sorted((ROOT / "judge" / "game").glob("*.py")):
        module = importlib.import_module(f"judge.game.{path.stem}")
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, Exception) and value.__module__ == module.__name__
                    and value is not GameError):
                found.append(name)
                assert issubclass(value, GameError), f"{module.__name__}.{name}"
    assert {"DeadlineError", "StatusError", "JoinError", "PhaseUnknown"} <= set(found)


def test_no_handler_catches_an_error_only_to_reply_with_it() -> None:
    copies = []
    for path in sorted((ROOT / "judge" / "commands").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.ExceptHandler) and len(node.body) == 1 and isinstance(node.body[0], ast.Return)
                    and ast.unparse(node.body[0]) == "return call.error(str(exc))"):
                copies.append(f"{path.name}:{node.lineno}")
    assert copies == []


def test_a_refusal_is_the_commands_error_and_the_mail_goes_on(tmp_path: Path) -> None:
    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(judge)
    reply = judge.reply(GM, "signon Mdt gmpw\nset deadline someday soon\nset grace 24")
    assert reply.subject.endswith("[Error Flag]")
    assert "set deadline someday soon" in reply.body.lower()
    _master(judge, "set grace 24")
    assert judge.game("dt").grace is not None
