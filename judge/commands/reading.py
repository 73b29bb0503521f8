"""Splitting a mail's text into commands (njudge's vocabulary, ``data/index``).

One command per line, case-insensitive. ``SIGN ON``/``SIGNON``, ``END PRESS``/``ENDPRESS``
and ``SEND ME``/``SENDME`` are the same, and ``NO X`` is ``NOX`` (``SET NO WAIT`` is ``SET
NOWAIT``). A line is matched against the spellings of the command table, longest first.

- A press command (``BROADCAST``, ``PRESS``) opens a block that runs to ``ENDPRESS``,
  ``ENDBROADCAST`` or ``SIGNOFF`` (alone on a line) or the end of the mail; its lines are
  the press body, never commands.
- After a sign-on command (``SIGNON``, ``CREATE``, ``OBSERVE``) a line that is no command is
  an order line; a run of order lines is one ``ORDERS`` command, so a mail's orders are
  checked and echoed together. Before a sign-on such a line is ``UNKNOWN``.
- ``SIGNOFF`` and a signature separator ``--`` end the commands; so does ``HELP`` before
  any sign-on (njudge). Blank lines and quoted lines (``>``) are skipped.
- A command that directs orders (``PHASE season year kind``) makes every command after it
  carry its text as ``Command.phase``, until the next such command: the orders after it (and
  a ``SET WAIT``) are for that phase (njudge ``data/syntax``: "All orders until the next
  PHASE directive or the end of the mail message will be saved for the specified phase").
  The ``IF``/``ELSE``/``ENDIF`` lines of conditional orders are order lines of the run.
- A mail that reached the judge at a member's reply address is read as signed on from its
  first line (``signed_on``, reply to play).

This module only reads text: it knows no game, power or password, and no command's
meaning beyond the :class:`Vocabulary` it is given.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from .command import ORDERS, STRAY_END, UNKNOWN, Command, Line

_JOINS = {"SIGN": ("ON", "OFF"), "END": ("PRESS", "BROADCAST"), "SEND": ("ME",), "NO": None}
_PRESS_END = frozenset({"ENDPRESS", "ENDBROADCAST", "SIGNOFF"})
LONGEST = 4


@dataclass(frozen=True)
class Vocabulary:
    """What the reader must know of the command table.

    ``spellings`` maps a spelling (upper-case words in joined form: ``("SET", "NOWAIT")``)
    to its verb; ``blocks`` are verbs that open a press block; ``signs_on`` verbs after
    which lines are orders; ``ends`` verbs that end the mail; ``ends_unsigned`` verbs that
    end it when no sign-on came before (``HELP``); ``directs`` verbs whose text the commands
    after them carry as their phase (``PHASE``).
    """

    spellings: Mapping[tuple[str, ...], str]
    blocks: frozenset[str] = field(default_factory=frozenset)
    signs_on: frozenset[str] = field(default_factory=frozenset)
    ends: frozenset[str] = field(default_factory=frozenset)
    ends_unsigned: frozenset[str] = field(default_factory=frozenset)
    directs: frozenset[str] = field(default_factory=frozenset)


def _joined(text: str, most: int = LONGEST) -> list[tuple[str, int]]:
    """The first ``most`` words of ``text`` in joined upper-case form, each with how many
    written words it took: ``set no wait`` -> ``[("SET", 1), ("NOWAIT", 2)]``."""
    words = text.split()
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(words) and len(out) < most:
        word = words[i].rstrip(",").upper()
        nxt = words[i + 1].rstrip(",").upper() if i + 1 < len(words) else ""
        joins = _JOINS.get(word, ())
        if nxt and (joins is None or nxt in joins):
            out.append((word + nxt, 2))
            i += 2
            continue
        out.append((word, 1))
        i += 1
    return [(w, n) for w, n in out if w]


def spelling(text: str) -> tuple[str, ...]:
    """The joined upper-case words of a spelling or of a line's start (``set no wait`` ->
    ``("SET", "NOWAIT")``)."""
    return tuple(word for word, _ in _joined(text))


def classify(vocabulary: Vocabulary, line: str, joined: list[tuple[str, int]] | None = None) -> tuple[str, str] | None:
    """The verb of a command line and the rest of the line as written, or None (``joined``:
    the line's :func:`_joined` words, when the caller has them)."""
    joined = _joined(line) if joined is None else joined
    words = tuple(word for word, _ in joined)
    for n in range(len(words), 0, -1):
        verb = vocabulary.spellings.get(words[:n])
        if verb is not None:
            taken = sum(count for _, count in joined[:n])
            parts = line.strip().split(maxsplit=taken)
            return verb, parts[taken] if len(parts) > taken else ""
    return None


def _is_press_end(line: str) -> bool:
    words = spelling(line)
    return len(words) == 1 and words[0] in _PRESS_END


def read_commands(vocabulary: Vocabulary, text: str, *, signed_on: bool = False) -> list[Command]:
    """The commands of a mail's text, in order (see the module docstring); ``signed_on``
    reads it as if a sign-on came first."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return list(_commands(vocabulary, lines, signed_on))


def _commands(vocabulary: Vocabulary, lines: list[str], signed_on: bool) -> Iterator[Command]:
    orders: list[Line] = []
    phase = ""
    i = 0

    def flush() -> Iterator[Command]:
        if orders:
            first = orders[0]
            yield Command(ORDERS, (), "", first.text, first.number, tuple(orders), phase)
            orders.clear()

    while i < len(lines):
        raw, lineno = lines[i], i + 1
        i += 1
        line = raw.strip()
        if not line or line.startswith(">"):
            continue
        if line == "--":
            break
        joined = _joined(line)
        found = classify(vocabulary, line, joined)
        if found is None and len(joined) == 1 and joined[0][0] in _PRESS_END:
            found = (STRAY_END, "")
        if found is None:
            if signed_on:
                orders.append(Line(line, lineno))
            else:
                yield Command(UNKNOWN, tuple(line.split()), line, line, lineno)
            continue
        yield from flush()
        verb, rest = found
        if verb in vocabulary.blocks:
            body: list[Line] = []
            ended_by_signoff = False
            while i < len(lines):
                inner, number = lines[i], i + 1
                i += 1
                if inner.strip() and _is_press_end(inner):
                    ended_by_signoff = spelling(inner)[0] == "SIGNOFF"
                    break
                body.append(Line(inner.rstrip(), number))
            while body and not body[0].text.strip():
                body.pop(0)
            yield Command(verb, tuple(rest.split()), rest, line, lineno, tuple(body), phase)
            if ended_by_signoff:
                return
            continue
        if verb in vocabulary.directs:
            phase = rest
        yield Command(verb, tuple(rest.split()), rest, line, lineno, (), phase)
        if verb in vocabulary.ends or (verb in vocabulary.ends_unsigned and not signed_on):
            return
        if verb in vocabulary.signs_on:
            signed_on = True
    yield from flush()
