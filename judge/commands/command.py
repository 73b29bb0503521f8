"""One command of a mail, as the reader found it: its verb, its words, where it stood.

Commands are plain frozen values; :mod:`.reading` makes them from a mail's text with the
words of :mod:`.table`, and the table's handlers act on them.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Verbs the reader makes itself (they are not rows of the table's vocabulary).
ORDERS = "ORDERS"          # a run of order lines after a sign-on
UNKNOWN = "UNKNOWN"        # a line that is no command, before any sign-on
STRAY_END = "STRAY END"    # ENDPRESS/ENDBROADCAST with no press open


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a mail as written, and its number (from 1)."""

    text: str
    number: int


@dataclass(frozen=True, slots=True)
class Command:
    """One command of a mail.

    ``verb`` is the canonical name of a table row (``SIGNON``, ``SET DEADLINE``) or one of
    the reader's own verbs (``ORDERS``...); ``args`` are the words after the command's
    words and ``text`` the rest of the line as written (dates, options); ``line`` and
    ``lineno`` say where it stood. ``body`` holds a press block's lines, or, for ``ORDERS``,
    the order lines of the run. ``phase`` is the text of the ``PHASE`` line in force (the
    phase the orders and ``SET WAIT`` after it are for, njudge ``data/syntax``), "" for the
    current phase.
    """

    verb: str
    args: tuple[str, ...] = ()
    text: str = ""
    line: str = ""
    lineno: int = 0
    body: tuple[Line, ...] = ()
    phase: str = ""

    @property
    def press_text(self) -> str:
        """A press block's body as one text, without trailing blank lines."""
        return "\n".join(line.text for line in self.body).rstrip()
