"""Giving powers to the players of a forming game, by preference lists, then at random.

A preference list is power letters, most wanted first; letters in square brackets are
wanted equally (``E[FGR][TAI]``), and ``*`` alone asks for a random power. In a list, ``*``
means any power (njudge's help): every power the list does not name, wanted equally at
that place (``FG*``: France, then Germany, then any other). As in njudge, the
first choice weighs as many points as there are powers, the next one less, a bracket the
average of its places, and powers left out share the remaining places equally. The
assignment maximising the total weight wins; ties are broken by a random order seeded from
the game's name, so the same game always gets the same assignment.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
from collections.abc import Sequence

from .. import render
from .errors import GameError

MAX_EXACT = 8
_PREF = re.compile(r"^(\*|(?:[A-Za-z]|\[[A-Za-z]+\]|\*)+)$")


class PreferenceError(GameError):
    """A preference list that cannot be read."""


def read_preferences(text: str, letters: Sequence[str]) -> list[list[str]]:
    """Groups of letters in order of preference; ``[]`` for ``*`` alone, a ``*`` in a list
    the group of the letters it does not name. Unknown or repeated letters are an error."""
    text = text.strip().upper()
    if not _PREF.match(text):
        raise PreferenceError(render.refusal("preference_unreadable", text=text))
    if text == "*":
        return []
    known = {x.upper() for x in letters}
    groups = [list(g.strip("[]")) for g in re.findall(r"\[[A-Z]+\]|[A-Z*]", text)]
    seen: set[str] = set()
    for group in groups:
        for letter in group:
            if letter == "*":
                continue
            if letter not in known:
                raise PreferenceError(render.refusal("preference_unknown_letter", letter=letter, letters=letters))
            if letter in seen:
                raise PreferenceError(render.refusal("preference_letter_twice", letter=letter, text=text))
            seen.add(letter)
    rest = [x.upper() for x in letters if x.upper() not in seen]
    groups = [rest if group == ["*"] else group for group in groups]
    return [group for i, group in enumerate(groups) if group and group not in groups[:i]]


def weights(groups: list[list[str]], letters: Sequence[str]) -> dict[str, float]:
    """Each power letter's weight for one player (see the module docstring)."""
    n = len(letters)
    out: dict[str, float] = {}
    place = 0
    for group in groups:
        places = range(place, place + len(group))
        w = sum(n - p for p in places) / len(group)
        for letter in group:
            out[letter] = w
        place += len(group)
    rest = [x for x in letters if x not in out]
    if rest:
        w = sum(n - p for p in range(place, n)) / len(rest)
        for letter in rest:
            out[letter] = w
    return out


def seed_for(name: str) -> int:
    """A stable random seed for a game."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")


def assign(players: Sequence[str], preferences: Sequence[str], letters: Sequence[str], seed: int) -> list[str]:
    """The letter each player gets (same order as ``players``). ``preferences`` are the
    players' lists as written (``""`` for none). There may be fewer players than letters (a
    master's FORCE BEGIN), never more."""
    if len(players) > len(letters):
        raise ValueError("more players than powers")
    rng = random.Random(seed)
    tables: list[dict[str, float]] = []
    for text in preferences:
        try:
            groups = read_preferences(text, letters) if text else None
        except PreferenceError:
            groups = None
        if groups == []:  # '*': a random power, before the lists are looked at
            tables.append({x: 0.0 for x in letters})
        else:
            tables.append(weights(groups or [], letters))
    order = list(range(len(players)))
    rng.shuffle(order)
    pool = list(letters)
    rng.shuffle(pool)
    if len(pool) <= MAX_EXACT:
        best = max(
            itertools.permutations(pool, len(players)),
            key=lambda perm: sum(tables[i][perm[k]] for k, i in enumerate(order)),
        )
    else:
        best = _greedy(order, pool, tables)
    result = [""] * len(players)
    for k, i in enumerate(order):
        result[i] = best[k]
    return result


def _greedy(order: list[int], pool: list[str], tables: list[dict[str, float]]) -> tuple[str, ...]:
    left = list(pool)
    chosen: list[str] = []
    for i in order:
        pick = max(left, key=lambda x: tables[i][x])
        left.remove(pick)
        chosen.append(pick)
    return tuple(chosen)
