"""Press settings and press options, read as njudge's ``press`` help has them.

A game's ``press`` is one of:

- ``white``: press names its sender's power (the default);
- ``white/grey``: players may also send grey (anonymous) press with ``PRESS GREY``;
- ``grey/white``: both, grey unless the sender writes ``WHITE``;
- ``grey``: all press is grey;
- ``none``: players may send press to the master only.

``partial_press`` says whether players may send press to some powers (``PRESS TO FG``);
press to the master alone is always allowed, and the master may always send any press.

The master's ``SET`` words (:func:`apply_settings`): ``WHITE`` (and ``NO GREY``) make press
white only; ``GREY`` (as njudge) and ``NO WHITE`` make all press grey (press to the master
stays white);
``WHITE/GREY`` and ``GREY/WHITE`` name both; ``NO PRESS`` (or ``PRESS NONE``) stops press;
``PARTIAL`` and ``NO PARTIAL`` switch press to some powers. A trailing ``PRESS`` is allowed
(``SET GREY PRESS``); several settings go on one line, separated by commas. Fake press,
postal press and njudge's observer settings are not supported.

The options of a ``PRESS``/``BROADCAST`` line (:func:`read_options`): ``WHITE`` or
``GREY`` (and njudge's synonyms), ``TO letters`` or ``+letters``, ``TO ALL``, and
``TO ALL BUT letters`` or ``-letters``.
"""

from __future__ import annotations

from dataclasses import dataclass

WHITE, GREY, WHITE_GREY, GREY_WHITE, NONE = "white", "grey", "white/grey", "grey/white", "none"
PRESS_KINDS = (WHITE, GREY, WHITE_GREY, GREY_WHITE, NONE)

_LABELS = {WHITE: "White", GREY: "Grey", WHITE_GREY: "White/Grey", GREY_WHITE: "Grey/White"}
_WHITE_WORDS = frozenset({"WHITE", "UNANONYMOUS", "UNANONYMOUSLY"})
_GREY_WORDS = frozenset({"GREY", "GRAY", "ANONYMOUS", "ANONYMOUSLY"})


class PressSettingError(ValueError):
    """A setting or option the judge does not read; the message is for the sender."""


@dataclass(frozen=True, slots=True)
class PressRequest:
    """The options of one press command.

    ``grey`` is True for ``GREY``, False for ``WHITE``, None when not given; ``letters`` are
    the signon letters named (upper case), None for everyone; ``all_but`` means everyone
    except ``letters``."""

    grey: bool | None = None
    letters: str | None = None
    all_but: bool = False

    @property
    def broadcast(self) -> bool:
        return self.letters is None


def grey_allowed(press: str) -> bool:
    return press in (GREY, WHITE_GREY, GREY_WHITE)


def white_allowed(press: str) -> bool:
    return press in (WHITE, WHITE_GREY, GREY_WHITE)


def grey_by_default(press: str) -> bool:
    return press in (GREY, GREY_WHITE)


def describe(press: str, partial: bool) -> str:
    """The ``Press:`` line of ``LIST game``: ``White, Partial Allowed, No Fake``."""
    if press == NONE:
        return "None (only to and from the Master)"
    return f"{_LABELS.get(press, press.capitalize())}, {'Partial Allowed' if partial else 'No Partial'}, No Fake"


def _clause(words: list[str]) -> list[str]:
    """One comma-separated setting as upper-case words, ``GRAY`` read as ``GREY``, and the
    optional ``PRESS`` word around it dropped (but ``NO PRESS`` kept)."""
    out = [w.upper().replace("GRAY", "GREY") for w in words]
    if out in (["NO", "PRESS"], ["NOPRESS"]):
        return ["NONE"]
    if out[:1] == ["PRESS"]:
        out = out[1:]
    if out[-1:] == ["PRESS"]:
        out = out[:-1]
    return out


def apply_settings(text: str, press: str, partial: bool) -> tuple[str, bool]:
    """The press settings after the master's ``SET`` text (``GREY``, ``NO PARTIAL``,
    ``WHITE/GREY, NO PARTIAL``...); raises :class:`PressSettingError`."""
    clauses = [part.split() for part in text.split(",")]
    if not any(clauses):
        raise PressSettingError("Name the press setting: SET WHITE, SET GREY, SET NO PRESS, SET NO PARTIAL...")
    for raw in clauses:
        if not raw:
            continue
        key = "".join(_clause(raw))
        if key in ("WHITE", "NOGREY"):
            press = WHITE
        elif key == "GREY":
            press = GREY  # njudge: "Only grey press is allowed in this game"
        elif key == "NOWHITE":
            press = GREY
        elif key in ("WHITE/GREY", "GREY/WHITE"):
            press = WHITE_GREY if key == "WHITE/GREY" else GREY_WHITE
        elif key == "NONE":
            press = NONE
        elif key in ("PARTIAL", "NOPARTIAL"):
            partial = key == "PARTIAL"
        else:
            raise PressSettingError(
                f"This judge does not read the press setting {' '.join(raw)!r}: it knows WHITE, GREY, "
                "NO WHITE, NO GREY, WHITE/GREY, GREY/WHITE, NO PRESS, PARTIAL and NO PARTIAL "
                "(no fake, postal or observer press settings). Send 'GET press'.")
    return press, partial


def read_options(words: tuple[str, ...] | list[str]) -> PressRequest:
    """The options of a ``PRESS``/``BROADCAST`` line; raises :class:`PressSettingError`."""
    grey: bool | None = None
    letters: str | None = None
    all_but = named = False
    upper = [w.upper() for w in words]
    i = 0
    while i < len(upper):
        word = upper[i]
        i += 1
        if word in _WHITE_WORDS or word in _GREY_WORDS:
            grey = word in _GREY_WORDS
            continue
        if word.startswith(("FAKE", "NOFAKE")):
            raise PressSettingError("Fake press is not supported by this judge; nothing was sent.")
        if named or word not in ("TO", "ALL") and not (word[:1] in ("+", "-") and len(word) > 1):
            raise PressSettingError(
                f"Cannot read the press option {word!r}: write PRESS TO letters, PRESS TO ALL, "
                "PRESS TO ALL BUT letters, and GREY or WHITE; nothing was sent.")
        named = True
        if word[:1] in ("+", "-"):
            letters, all_but = word[1:], word[0] == "-"
            continue
        rest = upper[i:] if word == "TO" else ["ALL", *upper[i:]]
        i -= 0 if word == "TO" else 1
        if rest[:2] == ["ALL", "BUT"]:
            if len(rest) < 3:
                raise PressSettingError("Name the powers left out (PRESS TO ALL BUT G); nothing was sent.")
            letters, all_but = rest[2], True
            i += 3
        elif rest[:1] == ["ALL"]:
            i += 1
        elif rest:
            letters = rest[0]
            i += 1
        else:
            raise PressSettingError("Name the readers' letters (PRESS TO FG); nothing was sent.")
    return PressRequest(grey, letters, all_but)
