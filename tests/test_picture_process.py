"""Pictures made in processes of their own (judge/picture_process.py): the same PNG as made
in the judge's process, niced, and no picture process outlives a judge killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from judge.engine import initial_position
from judge.maps import load_board
from judge.picture_process import NICENESS, PicturePool
from judge.render.pictures import phase_picture, svg_to_png

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads processes from Linux's /proc")

ROOT = Path(__file__).resolve().parent.parent


def _svgs() -> list[str]:
    board = load_board("standard")
    position = initial_position(board.map)
    return [phase_picture(board, position, None, game=f"g{n}").svg for n in range(3)]


def test_a_picture_process_makes_the_same_png_in_order() -> None:
    svgs = _svgs()
    pool = PicturePool(1)
    try:
        assert list(pool.draw(svgs)) == [svg_to_png(svg) for svg in svgs]
    finally:
        pool.close()


def _marked(mark: str) -> list[int]:
    """The processes whose environment holds ``mark``."""
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if mark.encode() in environ.read_bytes():
                found.append(int(environ.parent.name))
        except OSError:
            continue
    return found


def _niceness(pid: int) -> int:
    """Process ``pid``'s nice value (field 19 of /proc/<pid>/stat)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[16])


PARENT = """
import sys
from judge.picture_process import NICENESS, PicturePool
from judge.engine import initial_position
from judge.maps import load_board
from judge.render.pictures import phase_picture
board = load_board("standard")
svg = phase_picture(board, initial_position(board.map), None, game="killed").svg
pool = PicturePool(1)
assert len(list(pool.draw([svg]))) == 1
print("drawn", flush=True)
sys.stdin.read()
"""


def test_no_picture_process_outlives_a_judge_killed_with_sigkill() -> None:
    mark = f"JUDGE_TEST_MARK={uuid.uuid4().hex}"
    env = {**os.environ, "JUDGE_TEST_MARK": mark.partition("=")[2], "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env=env, text=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "drawn"
        children = [pid for pid in _marked(mark) if pid != parent.pid]
        assert children, "the picture process (and its forkserver) run beside the judge"
        assert NICENESS in {_niceness(pid) for pid in children}, "the picture process runs niced"
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 20
        while _marked(mark) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _marked(mark), f"left behind: {_marked(mark)}"
    finally:
        if parent.poll() is None:
            parent.kill()
        for pid in _marked(mark):
            os.kill(pid, signal.SIGKILL)
