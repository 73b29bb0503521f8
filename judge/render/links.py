"""Stable addresses of the web archive's pages, for the app's routes and for result mails.

``/`` lists the games, ``/games/<game>`` is a game's page, ``/games/<game>/<phase>`` a
phase's (judge phase code, ``S1901M``), with its picture at ``.../<phase>.png`` and
``.../<phase>.svg``.
"""

from __future__ import annotations

from urllib.parse import quote


def game_path(game: str) -> str:
    return f"/games/{quote(game.lower(), safe='')}"


def phase_path(game: str, phase: str) -> str:
    return f"{game_path(game)}/{quote(phase.upper(), safe='')}"


def ratings_path(ladder: str | None = None) -> str:
    """The archive's ratings page: overall, or of the map ``ladder``."""
    return "/ratings" if ladder is None else f"/ratings/{quote(ladder.lower(), safe='')}"


def phase_url(base_url: str, game: str, phase: str) -> str:
    """The full address of a phase's page under ``base_url`` (``[web] base_url``), e.g.
    ``https://judge.example.org/games/mygame/S1901M``; empty when ``base_url`` is empty (the
    archive is not published)."""
    if not base_url:
        return ""
    return base_url.rstrip("/") + phase_path(game, phase)
