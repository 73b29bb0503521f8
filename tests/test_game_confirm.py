"""Confirmation requests (issue 23, item 9): a request is confirmed once, only from the
address it was sent to, only before it expires; asking again renews it rather than piling
up tokens; an observer already confirmed signs on with its password as before."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from test_game_helpers import Judge, start_standard

from judge.store.confirmations import LIFETIME

WATCHER = "watcher@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = Judge(f"sqlite:///{tmp_path / 'judge.db'}")
    start_standard(judge)
    return judge


def _token(body: str) -> str:
    found = re.search(r"^\s*CONFIRM (\S+)\s*$", body, re.MULTILINE)
    assert found is not None, body
    return found.group(1)


def _observers(judge: Judge) -> list[str]:
    return [p.email for p in judge.game("dt").players if p.role == "observer"]


def test_a_request_is_confirmed_once_and_only_from_its_address(judge: Judge) -> None:
    asked = judge.reply(WATCHER, "observe dt pw")
    token = _token(asked.body)
    assert _token(judge.reply(WATCHER, "observe dt pw2").body) == token, "asked again: the same request, renewed"
    other = judge.reply("someone@example.org", f"confirm {token}")
    assert "must come from the address the judge sent it to" in other.body and "[Error Flag]" in other.subject
    assert _observers(judge) == []
    assert "observing game 'dt'" in judge.reply(WATCHER, f"confirm {token}").body
    assert _observers(judge) == [WATCHER]
    again = judge.reply(WATCHER, f"confirm {token}")
    assert "No request waits for that confirmation" in again.body
    assert "Invalid password" in judge.reply(WATCHER, "observe dt pw").body, "the newest password was kept"
    reply = judge.reply(WATCHER, "observe dt pw2")
    assert "observing game 'dt'" in reply.body and "CONFIRM" not in reply.body, "a confirmed observer signs on"


def test_a_request_expires(judge: Judge) -> None:
    token = _token(judge.reply(WATCHER, "observe dt pw").body)
    judge.now += LIFETIME + timedelta(minutes=1)
    assert "No request waits for that confirmation" in judge.reply(WATCHER, f"confirm {token}").body
    assert "No request waits" in judge.reply(WATCHER, f"confirm c{token[1:].split('-')[0]}-wrongwrongwrong").body
    assert _observers(judge) == []
