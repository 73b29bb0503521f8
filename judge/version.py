"""The installed judge's version: the one its build took from the repository's tags
(setuptools-scm; ``pyproject.toml`` says how), read from the installed package's metadata;
``0.0.0`` when the code runs from a folder that was never installed."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

FALLBACK = "0.0.0"


def _installed() -> str:
    try:
        return version("judge")
    except PackageNotFoundError:
        return FALLBACK


VERSION = _installed()
