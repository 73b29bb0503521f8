"""Press settings and press options, read as njudge's ``data/press`` and ``data/index`` have them.

A game's press settings are one :class:`PressRules` value (stored in the ``Game`` columns
named in :data:`COLUMNS`):

- ``kind``: ``white`` (press names its sender, the default), ``white/grey`` (grey allowed
  with ``GREY``), ``grey/white`` (grey unless ``WHITE``), ``grey`` (all press grey) or
  ``none`` (press only to and from the master);
- ``partial``: press to some powers allowed (``PRESS TO FG``);
- ``fake``: ``no`` (No Fake), ``may`` (Partial may be Faked: ``FAKE`` shows a message to
  some as a broadcast, or as sent to another group), ``default`` (Partial Fakes Broadcast
  by default: press to some is shown as a broadcast unless ``NOFAKE``), ``always`` (Partial
  Fakes Broadcast: all press is shown as a broadcast); press to the master is never faked;
- ``postal``: ``POSTAL PRESS`` (held back, delivered with the next results) allowed;
- ``observer``: ``any`` (observers as players), ``partial`` (observers may also press to
  some when players may not), ``white`` (observers' press is always white), ``none``
  (observers press only to the master);
- ``must_order``: a player whose power must order sends press (except to the master) only
  once its orders are submitted;
- ``minor``, ``late``, ``grace``: press from players in retreat and adjustment phases, from
  late players, and from anyone while a power is late after the deadline (njudge's
  ``MINOR``, ``LATE`` and ``GRACE PRESS``);
- ``blank``: empty press may be sent;
- ``all_press``: the master gets a copy of press to some powers (``SET ALL PRESS``, our
  default; ``SET NORMAL PRESS`` stops it).

Press to the master alone is always allowed, and the master may always send any press.

The master's ``SET`` words (:func:`apply_settings`) are njudge's: ``WHITE``, ``NO GREY``,
``GREY``, ``NO WHITE``, ``WHITE/GREY``, ``GREY/WHITE``, ``DEFAULT GREY|WHITE``, ``NO PRESS``
(``PRESS NONE``), ``[NO] PARTIAL``, ``FAKE``, ``NO FAKE [BROADCAST]``, ``PARTIAL MAY [BE
FAKED]``, ``PARTIAL FAKES [BROADCAST] [BY DEFAULT]``, ``[NO] POSTAL [PRESS]``, ``OBSERVER
ANY|PARTIAL|WHITE|NO [PRESS]``, ``[NO] MUST ORDER``, ``[NO] MINOR|LATE|GRACE|BLANK PRESS``,
``ALL PRESS`` and ``NORMAL PRESS``; a trailing ``PRESS`` is allowed and several settings go
on one line, separated by commas.

The options of a ``PRESS``/``BROADCAST`` line (:func:`read_options`): ``WHITE`` or ``GREY``
(and njudge's synonyms), ``TO letters`` or ``+letters``, ``TO ALL``, ``TO ALL BUT letters``
or ``-letters``, and the fake addressees: ``FAKE [BROADCAST]``, ``FAKE [PARTIAL] TO [ALL
BUT] letters``, ``FAKE +letters``, ``FAKE -letters``, ``NOFAKE``. As njudge reads them, the
real readers come first and ``FAKE`` names what the readers are shown: ``PRESS FAKE TO FRG``
is a broadcast shown as sent to France, Russia and Germany, ``PRESS TO FRG FAKE`` (or
``PRESS FAKE BROADCAST TO FRG``) is press to those three shown as a broadcast.

Gunboat games never show a player's or an observer's address in press while they go on
(:func:`judge.game.disclosure.press_author`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from .. import render
from ..store.games import Game
from .errors import GameError

WHITE, GREY, WHITE_GREY, GREY_WHITE, NONE = "white", "grey", "white/grey", "grey/white", "none"
PRESS_KINDS = (WHITE, GREY, WHITE_GREY, GREY_WHITE, NONE)
NO_FAKE, MAY_FAKE, FAKE_BY_DEFAULT, FAKE_ALWAYS = "no", "may", "default", "always"
OBSERVER_ANY, OBSERVER_PARTIAL, OBSERVER_WHITE, OBSERVER_NONE = "any", "partial", "white", "none"

_LABELS = {WHITE: "White", GREY: "Grey", WHITE_GREY: "White/Grey", GREY_WHITE: "Grey/White"}
_FAKE_LABELS = {NO_FAKE: "No Fake", MAY_FAKE: "Partial may be Faked",
                FAKE_BY_DEFAULT: "Partial Fakes Broadcast by default", FAKE_ALWAYS: "Partial Fakes Broadcast"}
_WHITE_WORDS = frozenset({"WHITE", "UNANONYMOUS", "UNANONYMOUSLY"})
_GREY_WORDS = frozenset({"GREY", "GRAY", "ANONYMOUS", "ANONYMOUSLY"})


class PressSettingError(GameError):
    """A setting or option the judge does not read; the message is for the sender."""


@dataclass(frozen=True, slots=True)
class PressRules:
    """A game's press settings (see the module docstring)."""

    kind: str = WHITE
    partial: bool = True
    fake: str = NO_FAKE
    postal: bool = False
    observer: str = OBSERVER_ANY
    must_order: bool = False
    minor: bool = True
    late: bool = True
    grace: bool = True
    blank: bool = False
    all_press: bool = True


#: :class:`PressRules` field -> the ``Game`` column that stores it.
COLUMNS = {"kind": "press", "partial": "partial_press", "fake": "fake_press", "postal": "postal_press",
           "observer": "observer_press", "must_order": "must_order", "minor": "minor_press",
           "late": "late_press", "grace": "grace_press", "blank": "blank_press", "all_press": "all_press"}


def rules_of(game: Game) -> PressRules:
    """The game's press settings."""
    return PressRules(**{f.name: getattr(game, COLUMNS[f.name]) for f in fields(PressRules)})


def store_rules(game: Game, rules: PressRules) -> None:
    """Make ``rules`` the game's press settings."""
    for f in fields(PressRules):
        setattr(game, COLUMNS[f.name], getattr(rules, f.name))




@dataclass(frozen=True, slots=True)
class Addressees:
    """A group press is for, or is shown as for: ``letters`` the signon letters named (upper
    case; ``M`` the master, ``O`` the observers), None for everyone; ``all_but`` everyone
    except ``letters``."""

    letters: str | None = None
    all_but: bool = False

    @property
    def broadcast(self) -> bool:
        return self.letters is None


@dataclass(frozen=True, slots=True)
class PressRequest:
    """The options of one press command.

    ``grey`` is True for ``GREY``, False for ``WHITE``, None when not given; ``letters`` and
    ``all_but`` name the real readers (``letters`` None: everyone); ``fake`` the addressees
    the readers are shown (``FAKE ...``), None when not faked; ``no_fake`` is ``NOFAKE``."""

    grey: bool | None = None
    letters: str | None = None
    all_but: bool = False
    fake: Addressees | None = None
    no_fake: bool = False

    @property
    def broadcast(self) -> bool:
        return self.letters is None

    @property
    def readers(self) -> Addressees:
        return Addressees(self.letters, self.all_but)


def grey_allowed(press: str) -> bool:
    return press in (GREY, WHITE_GREY, GREY_WHITE)


def white_allowed(press: str) -> bool:
    return press in (WHITE, WHITE_GREY, GREY_WHITE)


def grey_by_default(press: str) -> bool:
    return press in (GREY, GREY_WHITE)


def describe(rules: PressRules) -> str:
    """The ``Press:`` line of ``LIST game``: ``White, Partial Allowed, No Fake``, and the
    settings that differ from the usual (``Postal Press``, ``Observer White``...)."""
    if rules.kind == NONE:
        parts = ["None (only to and from the Master)"]
    else:
        parts = [_LABELS.get(rules.kind, rules.kind.capitalize()),
                 "Partial Allowed" if rules.partial else "No Partial", _FAKE_LABELS[rules.fake]]
    flags = [(rules.postal, "Postal Press"), (rules.observer != OBSERVER_ANY, f"Observer {rules.observer.capitalize()}"),
             (rules.must_order, "Must Order"), (not rules.minor, "No Minor Press"), (not rules.late, "No Late Press"),
             (not rules.grace, "No Grace Press"), (rules.blank, "Blank Press"),
             (not rules.all_press, "Normal Press")]
    return ", ".join(parts + [label for on, label in flags if on])


# -- the master's SET words -------------------------------------------------------------------

#: The master's SET words (as :func:`_clause` writes them): the setting each changes, and to what.
_SETTINGS: dict[str, tuple[str, str | bool]] = {
    "WHITE": ("kind", WHITE), "NOGREY": ("kind", WHITE), "GREY": ("kind", GREY), "NOWHITE": ("kind", GREY),
    "WHITE/GREY": ("kind", WHITE_GREY), "GREY/WHITE": ("kind", GREY_WHITE), "DEFAULT GREY": ("kind", GREY_WHITE),
    "DEFAULT WHITE": ("kind", WHITE_GREY), "NONE": ("kind", NONE), "NOPRESS": ("kind", NONE),
    "PARTIAL": ("partial", True), "NOPARTIAL": ("partial", False), "FAKE": ("fake", MAY_FAKE),
    "NOFAKE": ("fake", NO_FAKE), "NOFAKE BROADCAST": ("fake", NO_FAKE), "PARTIAL MAY": ("fake", MAY_FAKE),
    "PARTIAL MAY BE FAKED": ("fake", MAY_FAKE), "PARTIAL FAKES": ("fake", FAKE_ALWAYS),
    "PARTIAL FAKES BROADCAST": ("fake", FAKE_ALWAYS), "PARTIAL FAKES BY DEFAULT": ("fake", FAKE_BY_DEFAULT),
    "PARTIAL FAKES BROADCAST BY DEFAULT": ("fake", FAKE_BY_DEFAULT), "POSTAL": ("postal", True),
    "NOPOSTAL": ("postal", False), "OBSERVER ANY": ("observer", OBSERVER_ANY),
    "OBSERVER PARTIAL": ("observer", OBSERVER_PARTIAL), "OBSERVER WHITE": ("observer", OBSERVER_WHITE),
    "OBSERVER NO": ("observer", OBSERVER_NONE), "OBSERVER NONE": ("observer", OBSERVER_NONE),
    "OBSERVER NOPRESS": ("observer", OBSERVER_NONE), "MUST ORDER": ("must_order", True),
    "NOMUST ORDER": ("must_order", False), "MUSTORDER": ("must_order", True), "NOMUSTORDER": ("must_order", False),
    "MINOR": ("minor", True), "NOMINOR": ("minor", False), "LATE": ("late", True), "NOLATE": ("late", False),
    "GRACE": ("grace", True), "NOGRACE": ("grace", False), "BLANK": ("blank", True), "NOBLANK": ("blank", False),
    "ALL": ("all_press", True), "NORMAL": ("all_press", False),
}


def _clause(words: list[str]) -> str:
    """One comma-separated setting in the form of :data:`_SETTINGS`: upper case, ``GRAY``
    read as ``GREY``, ``NO X`` joined into ``NOX``, ``OBSERVERS`` as ``OBSERVER``, and the
    optional ``PRESS`` word around it dropped (but ``NO PRESS`` kept)."""
    upper = [w.upper().replace("GRAY", "GREY") for w in words]
    out: list[str] = []
    i = 0
    while i < len(upper):
        if upper[i] == "NO" and i + 1 < len(upper):
            out.append("NO" + upper[i + 1])
            i += 2
            continue
        out.append("OBSERVER" if upper[i] == "OBSERVERS" else upper[i])
        i += 1
    if out[:1] == ["PRESS"] and len(out) > 1:
        out = out[1:]
    if out[-1:] == ["PRESS"] and len(out) > 1:
        out = out[:-1]
    return " ".join(out)


def apply_settings(text: str, rules: PressRules) -> PressRules:
    """The press settings after the master's ``SET`` text (``GREY``, ``NO PARTIAL``,
    ``WHITE/GREY, PARTIAL MAY BE FAKED``...); raises :class:`PressSettingError`."""
    clauses = [part.split() for part in text.split(",")]
    if not any(clauses):
        raise PressSettingError(render.refusal("press_setting_missing"))
    for raw in clauses:
        if not raw:
            continue
        found = _SETTINGS.get(_clause(raw))
        if found is None:
            raise PressSettingError(render.refusal("press_setting_unknown", setting=" ".join(raw)))
        name, value = found
        rules = PressRules(**{**asdict(rules), name: value})
    return rules


# -- the options of a press command -----------------------------------------------------------


def _is_target(word: str) -> bool:
    return word in ("TO", "ALL") or (word[:1] in ("+", "-") and len(word) > 1)


def _target(upper: list[str], i: int) -> tuple[Addressees, int]:
    """The addressees starting at ``upper[i]`` (``TO FG``, ``TO ALL``, ``TO ALL BUT G``,
    ``ALL``, ``+FG``, ``-G``) and the index after them."""
    word = upper[i]
    if word[:1] in ("+", "-"):
        return Addressees(word[1:], word[0] == "-"), i + 1
    rest = upper[i + 1:] if word == "TO" else upper[i:]
    start = i + 1 if word == "TO" else i
    if rest[:2] == ["ALL", "BUT"]:
        if len(rest) < 3:
            raise PressSettingError(render.refusal("press_all_but_missing"))
        return Addressees(rest[2], True), start + 3
    if rest[:1] == ["ALL"]:
        return Addressees(), start + 1
    if rest:
        return Addressees(rest[0]), start + 1
    raise PressSettingError(render.refusal("press_readers_missing"))


def read_options(words: tuple[str, ...] | list[str]) -> PressRequest:
    """The options of a ``PRESS``/``BROADCAST`` line; raises :class:`PressSettingError`."""
    grey: bool | None = None
    readers: Addressees | None = None
    fake: Addressees | None = None
    no_fake = False
    upper = [w.upper().rstrip(",") for w in words]
    i = 0
    while i < len(upper):
        word = upper[i]
        nxt = upper[i + 1] if i + 1 < len(upper) else ""
        if word in _WHITE_WORDS or word in _GREY_WORDS:
            grey = word in _GREY_WORDS
            i += 1
        elif word == "NOFAKE" or (word == "NO" and nxt == "FAKE"):
            i += 1 if word == "NOFAKE" else 2
            i += 1 if i < len(upper) and upper[i] == "BROADCAST" else 0
            no_fake = True
        elif word == "FAKE":
            if fake is not None:
                raise PressSettingError(render.refusal("press_fake_twice"))
            i += 1
            if nxt == "BROADCAST":
                fake, i = Addressees(), i + 1
            elif nxt == "PARTIAL" or (nxt and _is_target(nxt)):
                i += 1 if nxt == "PARTIAL" else 0
                if i >= len(upper) or not _is_target(upper[i]):
                    raise PressSettingError(render.refusal("press_fake_partial_syntax"))
                fake, i = _target(upper, i)
            else:
                fake = Addressees()
        elif _is_target(word):
            if readers is not None:
                raise PressSettingError(render.refusal("press_readers_twice"))
            readers, i = _target(upper, i)
        else:
            raise PressSettingError(render.refusal("press_option_unreadable", word=word))
    if fake is not None and no_fake:
        raise PressSettingError(render.refusal("press_fake_and_nofake"))
    readers = readers or Addressees()
    return PressRequest(grey, readers.letters, readers.all_but, fake, no_fake)
