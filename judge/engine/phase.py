"""Phases: the judge codes (``S1901M``, ``F1901R``, ``F1901B``) and their order."""

from __future__ import annotations

import re
from dataclasses import dataclass

SPRING, FALL = "S", "F"
MOVEMENT, RETREAT, ADJUSTMENT = "M", "R", "B"
SEASON_NAMES = {SPRING: "Spring", FALL: "Fall"}
KIND_NAMES = {MOVEMENT: "Movement", RETREAT: "Retreat", ADJUSTMENT: "Adjustment"}
_CODE = re.compile(r"^\s*([SFW])\s*(\d{1,5})\s*([MRBA])\s*$", re.IGNORECASE)


class PhaseError(ValueError):
    """A phase code or name that cannot be read."""


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """One step of the game: a season of a year, and what is ordered in it."""

    year: int
    season: str
    kind: str

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Read a judge code (``S1901M``; ``W1901A``/``F1901A`` mean ``F1901B``) or a name
        such as ``Spring 1901, Movement`` or ``Fall 1901 Adjustment``."""
        m = _CODE.match(text)
        if m:
            season, year, kind = m.group(1).upper(), int(m.group(2)), m.group(3).upper()
            if season == "W" or kind == "A":
                season, kind = FALL, ADJUSTMENT
            return cls(year, season, kind)
        words = re.findall(r"[a-z]+|\d+", text.lower())
        season = {"spring": SPRING, "fall": FALL, "autumn": FALL, "winter": FALL}
        kinds = {"movement": MOVEMENT, "moves": MOVEMENT, "retreat": RETREAT,
                 "retreats": RETREAT, "adjustment": ADJUSTMENT, "adjustments": ADJUSTMENT,
                 "build": ADJUSTMENT, "builds": ADJUSTMENT}
        s = next((season[w] for w in words if w in season), None)
        y = next((int(w) for w in words if w.isdigit()), None)
        k = next((kinds[w] for w in words if w in kinds), None)
        if "winter" in words:
            k = ADJUSTMENT
        if s is None or y is None or k is None:
            raise PhaseError(f"cannot read the phase {text!r}; write it like S1901M")
        return cls(y, s, k)

    @property
    def code(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    def __str__(self) -> str:
        return self.code

    @property
    def key(self) -> tuple[int, int, int]:
        """Sort key in game order."""
        return (self.year, 0 if self.season == SPRING else 1, "MRB".index(self.kind))

    def retreat(self) -> Phase:
        """The retreat phase of this season."""
        return Phase(self.year, self.season, RETREAT)

    def adjustment(self) -> Phase:
        """The adjustment phase that closes this year."""
        return Phase(self.year, FALL, ADJUSTMENT)

    def next_movement(self) -> Phase:
        """The movement phase after this one."""
        if self.season == SPRING:
            return Phase(self.year, FALL, MOVEMENT)
        return Phase(self.year + 1, SPRING, MOVEMENT)
