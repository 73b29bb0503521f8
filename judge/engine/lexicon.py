"""The words players use in orders, and a cursor that reads them.

The vocabulary (order words in their many spellings, unit types, coasts, filler words),
the tokenizer, the index of a map's names (full names, abbreviations, aliases, and unique
prefixes of three letters or more), and :class:`Cursor`, which the grammar in
``parser.py`` moves along a piece of order text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from .map import ARMY, FLEET, SEA, Map, Province
from .orders import (
    OrderError,
)

# -- vocabulary ---------------------------------------------------------------------------


def _phrases(*texts: str) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(t.split()) for t in texts)


TYPES = {"a": ARMY, "army": ARMY, "f": FLEET, "fleet": FLEET}
WINGS = {"w", "wing"}
HOLD = _phrases("h", "hold", "holds", "stand", "stands")
MOVE = _phrases("-", "m", "move", "moves", "move to", "moves to", "to")
SUPPORT = _phrases("s", "support", "supports", "sup", "supp")
CONVOY = _phrases(
    "c", "convoy", "convoys", "transport", "transports", "t", "fast ferry", "ferry", "ff", "f"
)
PROXY = _phrases("p", "proxy", "proxy to")
TRANSFORM = _phrases("transform", "transforms", "transform to", "transforms to", "trafo", "tr")
VIA_CONVOY = _phrases("via convoy", "by convoy", "via c")
RETREAT_WORDS = _phrases("r", "retreat", "retreats", "retreat to", "retreats to")
DISBAND = _phrases("d", "disband", "disbands")
BUILD = _phrases("b", "build", "builds", "+")
REMOVE = _phrases("r", "remove", "removes", "d", "disband", "disbands", "-", "*")
WAIVE = _phrases("w", "waive", "waives")
FILLERS = {"the", "in", "at", "unit", "from", "of"}
DIRECTIONS = {"n": "n", "north": "n", "s": "s", "south": "s", "e": "e", "east": "e", "w": "w", "west": "w"}
DEFAULT_RAILWAY_WORDS = (
    "tsr",
    "trans siberian railway",
    "trans siberian railroad",
    "trans siberian express railroad",
)
RAILWAY = "<railway>"

_TOKEN = re.compile(r"->|=>|-+>|[-\u2010-\u2015]|[/()+*:]|[a-z0-9'&]+|\S")
_WORD = re.compile(r"[a-z0-9'&]+")
SPLIT = re.compile(r"[\n;,]")


def _norm(text: str) -> str:
    """Lower case, no dots, hyphens and runs of blanks as one space."""
    text = text.lower().replace(".", "")
    text = re.sub(r"[-\u2010-\u2015_]", " ", text)
    return " ".join(text.split())


def _tokens(text: str) -> list[str]:
    """Words and symbols. A hyphen written tight between two words (``mid-atlantic``) is
    ``~``: it may join a name or separate two provinces; every other arrow is ``-``."""
    text = text.lower().replace(".", "")
    out: list[str] = []
    for mo in _TOKEN.finditer(text):
        tok = mo.group()
        if tok in ("->", "=>") or tok.endswith(">") or re.fullmatch(r"[-\u2010-\u2015]", tok):
            start, end = mo.start(), mo.end()
            tight = (
                len(tok) == 1
                and start > 0
                and end < len(text)
                and text[start - 1].isalnum()
                and text[end].isalnum()
            )
            out.append("~" if tight else "-")
        else:
            out.append(tok)
    return out


def _is_word(tok: str | None) -> bool:
    return tok is not None and _WORD.fullmatch(tok) is not None


@dataclass(frozen=True)
class _Names:
    """The map's names, normalised: text -> province, and the longest name in words."""

    names: Mapping[str, str]
    longest: int
    railway: frozenset[str]
    nations: Mapping[str, str]


@cache
def _names(m: Map) -> _Names:
    names: dict[str, str] = {}
    for key, loc in m.aliases.items():
        if "/" in loc or "/" in key or "(" in key:
            continue
        names.setdefault(_norm(key), loc)
    for prov in m.provinces.values():
        names.setdefault(_norm(prov.name), prov.abbr)
        names.setdefault(prov.abbr, prov.abbr)
    railway_data = m.rules.get("railway")
    words: Iterable[str] = DEFAULT_RAILWAY_WORDS
    if isinstance(railway_data, Mapping):
        words = (*DEFAULT_RAILWAY_WORDS, *(str(w) for w in railway_data.get("keywords", ())))
    railway = frozenset(_norm(w) for w in words)
    nations: dict[str, str] = {}
    for pw in m.powers:
        for name in pw.names:
            nations[_norm(name)] = pw.name
    longest = max(len(k.split()) for k in (*names, *railway, *nations))
    return _Names(names, longest, railway, nations)


# -- reading tokens -----------------------------------------------------------------------


@dataclass
class Place:
    province: str
    coast: str | None  # a coast of the province, if one was written and exists
    written: str  # the text as written, for messages
    odd_coast: bool = False  # a coast was written that the province does not have


class Cursor:
    def __init__(self, m: Map, text: str) -> None:
        self.m = m
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.idx = _names(m)

    # basic
    def peek(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def take_phrase(self, phrases: frozenset[tuple[str, ...]]) -> tuple[str, ...] | None:
        for n in (3, 2, 1):
            got = tuple("-" if t == "~" else t for t in self.toks[self.i : self.i + n])
            if len(got) == n and got in phrases:
                self.i += n
                return got
        return None

    def at_phrase(self, phrases: frozenset[tuple[str, ...]]) -> bool:
        start = self.i
        found = self.take_phrase(phrases) is not None
        self.i = start
        return found

    def expect_end(self) -> None:
        if not self.done():
            raise self.error(f"Unrecognized word {self.peek()!r} at the end of the order.")

    def error(self, message: str) -> OrderError:
        return OrderError(message, self.text)

    # names
    def _spans(self) -> list[tuple[str, int]]:
        """Candidate word runs at the cursor, longest first, with their end index."""
        out: list[tuple[str, int]] = []
        words: list[str] = []
        j = self.i
        while j < len(self.toks) and len(words) < self.idx.longest and _is_word(self.toks[j]):
            words.append(self.toks[j])
            j += 1
            out.append((" ".join(words), j))
            if self.peek(j - self.i) == "~" and _is_word(self.peek(j - self.i + 1)):
                j += 1
        return out[::-1]

    def _exact(self, table: Mapping[str, str]) -> tuple[str, int] | None:
        for text, end in self._spans():
            if text in table:
                return table[text], end
        return None

    def take_railway(self) -> bool:
        for text, end in self._spans():
            if text in self.idx.railway:
                self.i = end
                return True
        return False

    def take_nation(self) -> str | None:
        found = self._exact(self.idx.nations)
        if found is None:
            return None
        self.i = found[1]
        return found[0]

    def starts_place(self) -> bool:
        """True if a province name (exact or a prefix of one) starts at the cursor."""
        if self._exact(self.idx.names) is not None:
            return True
        try:
            return self._prefix() is not None
        except OrderError:
            return True

    def _prefix(self) -> tuple[str, int] | None:
        for text, end in self._spans():
            if len(text.split()[-1]) < 3:
                continue
            found = {loc for name, loc in self.idx.names.items() if name.startswith(text)}
            if len(found) == 1:
                return found.pop(), end
            if found:
                names = sorted(self.m.provinces[p].name for p in found)
                listed = ", ".join(names[:-1]) + " or " + names[-1]
                raise self.error(f"{text!r} is ambiguous: it could be {listed}.")
        return None

    def take_place(self, what: str = "a province") -> Place:
        self.skip_fillers()
        if self.done():
            raise self.error(f"The order ends where {what} was expected.")
        found = self._exact(self.idx.names) or self._prefix()
        if found is None:
            tok = self.peek()
            if not _is_word(tok):
                raise self.error(f"Expected {what}, not {tok!r}.")
            raise self.error(f"Unrecognized province {tok!r}.")
        start = self.i
        province, self.i = found
        written = " ".join(t for t in self.toks[start : self.i] if t != "~")
        prov = self.m.provinces[province]
        if prov.kind == SEA and self.peek() in ("sea", "ocean"):
            self.i += 1  # DPjudge's "fleet nwg sea C norway - edi"
        return self._take_coast(prov, written)

    def _take_coast(self, prov: Province, written: str) -> Place:
        tok = self.peek()
        direction: str | None = None
        if tok in ("/", "("):
            self.i += 1
            word = self.peek()
            code = self._coast_word(prov, word)
            if code is None:
                raise self.error(f"Unrecognized coast {word!r}." if word else "The order ends inside a coast.")
            self.i += 1
            if self.peek() == "coast":
                self.i += 1
            if tok == "(":
                if self.peek() != ")":
                    raise self.error("A coast written '(' needs its ')'.")
                self.i += 1
            direction = code
        elif tok in ("nc", "sc", "ec", "wc") or (tok in prov.coasts and tok is not None):
            self.i += 1
            if self.peek() == "coast":
                self.i += 1
            direction = tok
        elif tok in DIRECTIONS and len(tok) > 1 and (self.peek(1) == "coast" or prov.coasts):
            self.i += 1
            if self.peek() == "coast":
                self.i += 1
            direction = DIRECTIONS[tok] + "c"
        if direction is None:
            return Place(prov.abbr, None, written)
        written = f"{written}/{direction}"
        if direction in prov.coasts:
            return Place(prov.abbr, direction, written)
        return Place(prov.abbr, None, written, odd_coast=True)

    @staticmethod
    def _coast_word(prov: Province, word: str | None) -> str | None:
        if word is None:
            return None
        if word in prov.coasts or word in ("nc", "sc", "ec", "wc"):
            return word
        if word in DIRECTIONS:
            return DIRECTIONS[word] + "c"
        if word.endswith("coast") and word[:-5] in DIRECTIONS:
            return DIRECTIONS[word[:-5]] + "c"
        return None

    def skip_fillers(self) -> None:
        while self.peek() in FILLERS and self._exact(self.idx.names) is None:
            self.i += 1

    def take_type(self) -> str | None:
        tok = self.peek()
        if tok in WINGS and self._exact(self.idx.names) is None:
            raise self.error("Wings are not used in this game.")
        if tok in TYPES and _is_word(self.peek(1)):
            self.i += 1
            return TYPES[tok]
        return None


