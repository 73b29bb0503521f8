"""The DATC 3.0 chapter 6 cases, each as its own test, the DATC choices played the other
way, plus the runner's own contract."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest

from judge.datc import read_cases, run_case, run_files
from judge.engine import DatcChoices, Options
from judge.engine.options import option_specs

DATC = Path(__file__).parent / "datc" / "datc_v3.0.txt"
CASES = read_cases(DATC.read_text(encoding="utf-8"))
CHOICES = read_cases((DATC.parent / "choices.txt").read_text(encoding="utf-8"))


def test_the_file_holds_every_datc_3_case_once() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)) == 164
    per_section = {s: sum(1 for n in names if n.startswith(f"6.{s}.")) for s in "ABCDEFGHIJ"}
    assert per_section == {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_datc_case(case) -> None:  # type: ignore[no-untyped-def]
    assert run_case(case) is None


@pytest.mark.parametrize("case", CHOICES, ids=[c.name for c in CHOICES])
def test_datc_case_under_another_choice(case) -> None:  # type: ignore[no-untyped-def]
    """The DATC's answer for the alternative it names (the preferred one is in CASES)."""
    assert case.options and run_case(case) is None


def test_every_datc_choice_is_an_option_whose_alternative_changes_a_case_that_names_it() -> None:
    names = [f.name for f in fields(DatcChoices)]
    assert len(names) == 9
    assert DatcChoices.of(Options()) == DatcChoices()  # the defaults are the DATC's preferences
    for name in names:
        assert option_specs()[name].default == getattr(DatcChoices(), name), name
        mine = [c for c in CHOICES if name in c.options]
        changed = [c.name for c in mine if run_case(replace(c, options={})) is not None]
        assert changed, f"no case shows that {name} changes an outcome"


def test_runner_reports_a_wrong_expectation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(
        "VARIANT_ALL Standard\nCASE wrong\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n"
        "England: F nth\nORDERS\nEngland: F nth-nwy\nPOSTSTATE\nEngland: F nth\nEND\n"
        "CASE right\nPRESTATE\nEngland: F nth\nORDERS\nEngland: F nth-nwy\nPOSTSTATE\nEngland: F nwy\nEND\n"
    )
    lines: list[str] = []
    assert run_files([bad], out=lines.append) == (1, 1)
    assert lines[0].startswith("FAIL wrong: units: expected but missing [England F nth], unexpected [England F nwy]")
    assert lines[1] == "PASS right"
    assert lines[-1] == "1 passed, 1 failed"


def test_judge_datc_command_exit_status(tmp_path: Path) -> None:
    ok = subprocess.run([sys.executable, "-m", "judge.cli", "datc", str(DATC)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout[-2000:]
    assert ok.stdout.splitlines()[-1] == "164 passed, 0 failed"
    bad = tmp_path / "bad.txt"
    bad.write_text("CASE x\nPRESTATE\nEngland: F nth\nORDERS\nPOSTSTATE\nEngland: F lon\nEND\n")
    failed = subprocess.run([sys.executable, "-m", "judge.cli", "datc", str(bad)], capture_output=True, text=True)
    assert failed.returncode == 1
    assert failed.stdout.splitlines()[-1] == "0 passed, 1 failed"
