"""Splitting a mail's text into judge commands (njudge vocabulary, ``data/index``).

One command per line, case-insensitive; ``SIGN ON``/``SIGNON`` and similar spellings with
or without a space are the same. A ``BROADCAST`` or ``PRESS`` line starts a press block
that runs to ``ENDPRESS``/``ENDBROADCAST``/``SIGNOFF`` or the end of the mail; the block's
lines are its body, never commands. After a ``SIGNON`` (or ``CREATE``/``OBSERVE``), a line
that is not a command is an order line for the signed-on power. ``SIGNOFF`` (and a
signature separator ``--``) ends the command stream; ``HELP`` before a signon does too.

This module only reads text: it knows nothing about games, powers or passwords.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Command", "parse_commands"]

# Verbs (canonical names).
HELP, GET, LIST, HISTORY, SUMMARY, VERSION = "HELP", "GET", "LIST", "HISTORY", "SUMMARY", "VERSION"
CREATE, SIGNON, OBSERVE, SIGNOFF = "CREATE", "SIGNON", "OBSERVE", "SIGNOFF"
ORDER, PRESS, BROADCAST, RESIGN = "ORDER", "PRESS", "BROADCAST", "RESIGN"
SET_WAIT, SET_NOWAIT, SET_PREFERENCE = "SET WAIT", "SET NOWAIT", "SET PREFERENCE"
SET_DEADLINE, SET_OPTION, SET_OTHER = "SET DEADLINE", "SET OPTION", "SET"
SET_GRACE, SET_MOVES, SET_RETREATS, SET_BUILDS = "SET GRACE", "SET MOVES", "SET RETREATS", "SET BUILDS"
SET_DRAW, SET_NODRAW = "SET DRAW", "SET NODRAW"
SET_PRESS = "SET PRESS"
PROCESS, PAUSE, RESUME, TERMINATE, EJECT = "PROCESS", "PAUSE", "RESUME", "TERMINATE", "EJECT"
UNKNOWN, STRAY_END = "UNKNOWN", "STRAY END"

#: Commands that sign the sender on (at most one per mail, as njudge has it).
SIGNON_VERBS = frozenset({CREATE, SIGNON, OBSERVE})
#: Commands a master may give after signing on.
MASTER_VERBS = frozenset({PROCESS, PAUSE, RESUME, TERMINATE, EJECT, SET_DEADLINE, SET_OPTION, SET_GRACE,
                          SET_MOVES, SET_RETREATS, SET_BUILDS, SET_PRESS})

# First words (spaces removed, upper case) -> verb. Longer keys are tried first.
_SIMPLE = {
    "HELP": HELP, "GET": GET, "SEND": GET, "SENDME": GET, "LIST": LIST, "HISTORY": HISTORY,
    "SUMMARY": SUMMARY, "VERSION": VERSION, "CREATE": CREATE, "SIGNON": SIGNON,
    "OBSERVE": OBSERVE, "WATCH": OBSERVE, "SIGNOFF": SIGNOFF, "RESIGN": RESIGN,
    "WITHDRAW": RESIGN, "PROCESS": PROCESS, "PAUSE": PAUSE, "RESUME": RESUME,
    "TERMINATE": TERMINATE, "EJECT": EJECT, "BROADCAST": BROADCAST, "PRESS": PRESS,
    "ENDPRESS": STRAY_END, "ENDBROADCAST": STRAY_END,
}
_SET = {
    "WAIT": SET_WAIT, "NOWAIT": SET_NOWAIT, "PREFERENCE": SET_PREFERENCE,
    "PREFERENCES": SET_PREFERENCE, "PREF": SET_PREFERENCE, "DEADLINE": SET_DEADLINE,
    "OPTION": SET_OPTION, "OPTIONS": SET_OPTION, "GRACE": SET_GRACE,
    "MOVES": SET_MOVES, "MOVE": SET_MOVES, "RETREATS": SET_RETREATS, "RETREAT": SET_RETREATS,
    "BUILDS": SET_BUILDS, "BUILD": SET_BUILDS, "ADJUST": SET_BUILDS, "DRAW": SET_DRAW, "NODRAW": SET_NODRAW,
}
#: ``SET`` words of the press settings: the verb is SET PRESS and the text the whole setting
#: (``SET NO GREY, NO PARTIAL`` -> text ``NO GREY, NO PARTIAL``), read by ``judge.game.press_rules``.
_SET_PRESS_WORDS = frozenset({
    "WHITE", "GREY", "GRAY", "WHITE/GREY", "GREY/WHITE", "WHITE/GRAY", "GRAY/WHITE", "NOWHITE", "NOGREY",
    "NOGRAY", "PRESS", "NOPRESS", "NONE", "PARTIAL", "NOPARTIAL",
})
_PRESS_END = frozenset({"ENDPRESS", "ENDBROADCAST", "SIGNOFF"})
_JOINED = re.compile(r"^(SIGN|END|SEND)\s+(ON|OFF|PRESS|BROADCAST|ME)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Command:
    """One command of a mail.

    ``verb`` is a canonical name (``SIGNON``, ``SET DEADLINE``, ``ORDER``...), ``args`` the
    words after it, ``text`` the rest of the line as written (for dates, options and order
    lines), ``line``/``lineno`` where it came from, and ``body`` a press block's lines.
    """

    verb: str
    args: tuple[str, ...] = ()
    text: str = ""
    line: str = ""
    lineno: int = 0
    body: tuple[str, ...] = ()

    @property
    def press_text(self) -> str:
        """The press body as one text, without trailing blank lines."""
        return "\n".join(self.body).rstrip()


def _join_words(line: str) -> str:
    """``SIGN ON x`` -> ``SIGNON x``; ``END PRESS`` -> ``ENDPRESS``."""
    return _JOINED.sub(lambda m: m.group(1) + m.group(2), line.strip(), count=1)


def _classify(line: str) -> tuple[str, str] | None:
    """The verb of a command line and the rest of the line, or None for a non-command."""
    joined = _join_words(line)
    head, _, rest = joined.partition(" ")
    word = head.upper()
    rest = rest.strip()
    if word == "SET":
        sub, _, tail = rest.partition(" ")
        key = sub.upper()
        if key == "NO" and tail.strip():
            nxt, _, tail = tail.strip().partition(" ")
            key = "NO" + nxt.upper()
        key = key.rstrip(",")
        if key in _SET:
            return _SET[key], tail.strip()
        if key in _SET_PRESS_WORDS:
            return SET_PRESS, rest
        return SET_OTHER, rest
    verb = _SIMPLE.get(word)
    if verb is None:
        return None
    return verb, rest


def _is_press_end(line: str) -> bool:
    words = _join_words(line).upper().split()
    return len(words) == 1 and words[0] in _PRESS_END


def parse_commands(text: str) -> list[Command]:
    """The commands of a mail's text, in order (see the module docstring)."""
    return list(_commands(text.replace("\r\n", "\n").replace("\r", "\n").split("\n")))


def _commands(lines: list[str]) -> Iterator[Command]:
    signed_on = False
    i = 0
    while i < len(lines):
        raw = lines[i]
        lineno = i + 1
        i += 1
        line = raw.strip()
        if not line or line.startswith(">"):
            continue
        if line == "--":
            return
        found = _classify(line)
        if found is None:
            verb = ORDER if signed_on else UNKNOWN
            yield Command(verb, tuple(line.split()), line, line, lineno)
            continue
        verb, rest = found
        if verb in (BROADCAST, PRESS):
            body: list[str] = []
            ended_by_signoff = False
            while i < len(lines):
                inner = lines[i]
                i += 1
                if inner.strip() and _is_press_end(inner):
                    ended_by_signoff = _join_words(inner).upper().startswith("SIGNOFF")
                    break
                body.append(inner.rstrip())
            while body and not body[0].strip():
                body.pop(0)
            yield Command(verb, tuple(rest.split()), rest, line, lineno, tuple(body))
            if ended_by_signoff:
                return
            continue
        yield Command(verb, tuple(rest.split()), rest, line, lineno)
        if verb == SIGNOFF or (verb == HELP and not signed_on):
            return
        if verb in SIGNON_VERBS:
            signed_on = True
