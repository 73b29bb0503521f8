"""Conditional orders: the ``IF``/``ELSE``/``ENDIF`` structure of orders entered for a later
phase, and its conditions (njudge ``data/syntax``, "CONDITIONAL ORDERS").

Lines are read into a tree (:func:`read_lines`): order lines, and ``IF`` items whose branches
hold lines and ``IF`` items of their own::

    IF <condition> [THEN]
      <orders>
    ELSE IF <condition> [THEN]      (also ELSEIF)
      <orders>
    [ELSE]
      <orders>
    [ENDIF]                         (also END IF)

or on one line, ``IF <condition> THEN <orders> ELSE <orders> ENDIF`` (:func:`expand` cuts it
into the lines above before anything else reads it).

A condition is ``[NOT] [<power>] [<type>] <prov>`` (power, type and province in any order,
the power spelled out, as an adjective or abbreviated to two letters or more), combined with
``AND`` and ``OR`` evaluated left to right; parentheses change that, and the end of a line
closes any left open; the end of the lines closes any ``IF`` left open, without an error.
Nesting is bounded (:data:`MAX_DEPTH`, :data:`MAX_TESTS`), so no mail can exhaust the stack.
It is true when a unit of that type and power stands in the province at the beginning of the
phase (:func:`holds`). A condition that cannot be read is reported, and is never true.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import render
from ..engine import ARMY, FLEET, Map, OrderError, Position, province_of
from ..engine.parser import find_location
from .errors import GameError

_TOKEN = re.compile(r"[()]|[^\s()]+")
#: How deep parentheses, NOT and IF may nest, and how many tests one condition may join: far
#: beyond any real order, and short of Python's recursion limit.
MAX_DEPTH = 20
MAX_TESTS = 50
_TYPES = {"a": ARMY, "army": ARMY, "f": FLEET, "fleet": FLEET}
_JOINS = ("AND", "OR")


class ConditionError(GameError):
    """A condition that cannot be read; the message is for the player."""


@dataclass(frozen=True, slots=True)
class Test:
    """A unit of ``type`` (None: any) and ``power`` (None: any) stands in ``province``."""

    province: str
    power: str | None = None
    type: str | None = None


@dataclass(frozen=True, slots=True)
class Not:
    inner: Condition


@dataclass(frozen=True, slots=True)
class Join:
    """``left AND right`` or ``left OR right``."""

    op: str
    left: Condition
    right: Condition


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A condition that could not be read: never true."""


Condition = Test | Not | Join | Unreadable


def holds(condition: Condition, position: Position) -> bool:
    """Whether ``condition`` is true in ``position``."""
    if isinstance(condition, Test):
        unit = position.units.get(condition.province)
        return (unit is not None and condition.power in (None, unit.power)
                and condition.type in (None, unit.type))
    if isinstance(condition, Not):
        return not holds(condition.inner, position)
    if isinstance(condition, Join):
        left = holds(condition.left, position)
        right = holds(condition.right, position)
        return left and right if condition.op == "AND" else left or right
    return False


def _power(m: Map, word: str) -> str | None:
    """The power a word names: its name or adjective, or two letters or more of one only."""
    if len(word) < 2:
        return None
    found = m.find_power(word)
    if found is not None:
        return found.name
    starts = {p.name for p in m.powers if p.name.lower().startswith(word) or p.adjective.lower().startswith(word)}
    return starts.pop() if len(starts) == 1 else None


def _is_place(m: Map, word: str) -> bool:
    try:
        find_location(m, word)
    except OrderError:
        return False
    return True


def _named_power(m: Map, words: list[str]) -> tuple[str | None, list[str]]:
    """A power spelled out in more than one word at the start of ``words`` (``New Zealander``,
    ``Marshall Islands``), and the words after it; else None and ``words`` as they are."""
    for n in range(len(words) - 1, 1, -1):
        spelled = " ".join(words[:n]).lower()
        for p in m.powers:
            if spelled in (p.name.lower(), p.adjective.lower()):
                return p.name, words[n:]
    return None, words


def _test(m: Map, words: list[str]) -> Test:
    power, rest = _named_power(m, words)
    utype: str | None = None
    place: list[str] = []
    for word in rest:
        low = word.lower()
        if low in _TYPES and utype is None:
            utype = _TYPES[low]
        elif power is None and len(low) > 1 and (exact := m.find_power(low)) is not None:
            power = exact.name
        elif power is None and (named := _power(m, low)) is not None and not _is_place(m, low):
            power = named
        else:
            place.append(word)
    if not place:
        raise ConditionError(render.refusal("condition_no_province", condition=" ".join(words)))
    try:
        where = find_location(m, " ".join(place))
    except OrderError as exc:
        raise ConditionError(render.refusal("condition_place_unknown", condition=" ".join(words),
                                            why=exc.message)) from None
    return Test(province_of(where), power, utype)


@dataclass
class _Reader:
    m: Map
    tokens: list[str]
    i: int = 0

    def peek(self) -> str:
        return self.tokens[self.i].upper() if self.i < len(self.tokens) else ""

    tests: int = 0

    def expr(self, depth: int = 0) -> Condition:
        left = self.term(depth)
        while self.peek() in _JOINS:
            op = self.peek()
            self.i += 1
            left = Join(op, left, self.term(depth))
        return left

    def term(self, depth: int) -> Condition:
        word = self.peek()
        if depth > MAX_DEPTH:
            raise ConditionError(render.refusal("condition_too_deep", most=MAX_DEPTH))
        if word == "NOT":
            self.i += 1
            return Not(self.term(depth + 1))
        if word == "(":
            self.i += 1
            inner = self.expr(depth + 1)
            if self.peek() == ")":
                self.i += 1
            return inner
        words: list[str] = []
        while self.i < len(self.tokens) and self.peek() not in ("AND", "OR", "NOT", "(", ")"):
            words.append(self.tokens[self.i])
            self.i += 1
        if not words:
            raise ConditionError(render.refusal("condition_missing", word=word))
        self.tests += 1
        if self.tests > MAX_TESTS:
            raise ConditionError(render.refusal("condition_too_many_tests", most=MAX_TESTS))
        return _test(self.m, words)


def read_condition(m: Map, text: str) -> Condition:
    """The condition of an ``IF`` line (without ``IF``); raises :class:`ConditionError`."""
    tokens = _TOKEN.findall(text)
    if tokens and tokens[-1].upper() == "THEN":
        tokens.pop()
    if not tokens:
        raise ConditionError(render.refusal("condition_empty"))
    reader = _Reader(m, tokens)
    condition = reader.expr()
    while reader.peek() == ")":
        reader.i += 1
    if reader.i < len(tokens):
        raise ConditionError(render.refusal("condition_unreadable_from", word=tokens[reader.i]))
    return condition


# -- the structure -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OrderLine:
    """An order line and its index in the lines read."""

    text: str
    index: int


@dataclass(slots=True)
class Branch:
    condition: Condition | None  # None: ELSE
    items: list[Item] = field(default_factory=list)


@dataclass(slots=True)
class If:
    branches: list[Branch]


Item = OrderLine | If


@dataclass(slots=True)
class Reading:
    """Lines read: the tree, and the structure and condition errors by line index."""

    items: list[Item]
    errors: dict[int, list[str]]


def _after(line: str, words: int) -> str:
    parts = line.split(maxsplit=words)
    return parts[words] if len(parts) > words else ""


def keyword(line: str) -> tuple[str, str] | None:
    """``("IF", condition)``, ``("ELSEIF", condition)``, ``("ELSE", "")`` or ``("ENDIF", "")``
    for a line of the structure, else None."""
    upper = [w.upper() for w in line.split()]
    if upper[:1] == ["IF"] or upper[:1] == ["ELSEIF"]:
        return upper[0], _after(line, 1)
    if upper[:2] == ["ELSE", "IF"]:
        return "ELSEIF", _after(line, 2)
    if upper == ["ELSE"]:
        return "ELSE", ""
    if upper in (["ENDIF"], ["END", "IF"]):
        return "ENDIF", ""
    return None


def expand(lines: Sequence[str]) -> list[str]:
    """``lines`` with each line of the structure written on one line (``IF <condition> THEN
    <orders> ELSE <orders> ENDIF``) cut into the lines it stands for: a new line after
    ``THEN``, and before ``ELSE``, ``ELSE IF`` and ``ENDIF``. Order lines stay as written."""
    out: list[str] = []
    for line in lines:
        out.extend(_pieces(line) if keyword(line) is not None else [line])
    return out


def _pieces(line: str) -> list[str]:
    words = line.split()
    pieces: list[list[str]] = []
    now: list[str] = []
    i = 0
    while i < len(words):
        up, after = words[i].upper(), words[i + 1].upper() if i + 1 < len(words) else ""
        ends = 2 if up == "END" and after == "IF" else 1 if up == "ENDIF" else 0
        if ends or up in ("ELSE", "ELSEIF"):
            if now:
                pieces.append(now)
            now = words[i:i + max(ends, 1)]
            i += len(now)
            if ends or (up == "ELSE" and after != "IF"):
                pieces.append(now)
                now = []
            continue
        now.append(words[i])
        i += 1
        if up == "THEN":
            pieces.append(now)
            now = []
    if now:
        pieces.append(now)
    return [" ".join(p) for p in pieces]


def read_lines(m: Map, lines: Sequence[str]) -> Reading:
    """Read order lines with their conditions (see the module docstring)."""
    root: list[Item] = []
    frames: list[tuple[If, list[Item], bool]] = []  # the IF, the list it belongs to, ELSE seen
    errors: dict[int, list[str]] = {}

    def here() -> list[Item]:
        return frames[-1][0].branches[-1].items if frames else root

    def condition(index: int, text: str) -> Condition:
        try:
            return read_condition(m, text)
        except ConditionError as exc:
            errors.setdefault(index, []).append(str(exc))
            return Unreadable()

    for index, line in enumerate(lines):
        found = keyword(line)
        if found is None:
            here().append(OrderLine(line, index))
            continue
        word, rest = found
        if word == "IF" and len(frames) >= MAX_DEPTH:
            errors.setdefault(index, []).append(render.refusal("ifs_too_deep", most=MAX_DEPTH))
            frames[-1][0].branches[-1].items.append(If([Branch(Unreadable())]))
        elif word == "IF":
            item = If([Branch(condition(index, rest))])
            frames.append((item, here(), False))
        elif not frames:
            errors.setdefault(index, []).append(render.refusal("keyword_without_if",
                                                               keyword="ELSE IF" if word == "ELSEIF" else word))
        elif word == "ENDIF":
            item, parent, _ = frames.pop()
            parent.append(item)
        elif frames[-1][2]:
            errors.setdefault(index, []).append(render.refusal("keyword_after_else",
                                                               keyword="ELSE IF" if word == "ELSEIF" else "ELSE"))
        else:
            item, parent, _ = frames[-1]
            item.branches.append(Branch(condition(index, rest) if word == "ELSEIF" else None))
            frames[-1] = (item, parent, word == "ELSE")
    while frames:
        item, parent, _ = frames.pop()
        parent.append(item)
    return Reading(root, errors)


def chosen(items: Sequence[Item], position: Position) -> list[OrderLine]:
    """The order lines that apply in ``position``: in each ``IF``, the first branch whose
    condition holds (or the ``ELSE``)."""
    out: list[OrderLine] = []
    for item in items:
        if isinstance(item, OrderLine):
            out.append(item)
            continue
        for branch in item.branches:
            if branch.condition is None or holds(branch.condition, position):
                out.extend(chosen(branch.items, position))
                break
    return out


def closed(lines: Sequence[str]) -> list[str]:
    """``lines`` with an ``ENDIF`` added for every ``IF`` left open, so that lines stored
    after them stand outside."""
    depth = 0
    for line in lines:
        found = keyword(line)
        if found is not None and found[0] == "IF":
            depth += 1
        elif found is not None and found[0] == "ENDIF" and depth:
            depth -= 1
    return [*lines, *["ENDIF"] * depth]
