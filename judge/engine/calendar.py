"""The calendar: which phase follows which, when centres change hands, and phase names.

The standard calendar is Spring and Fall movement, each with retreats when needed, and an
adjustment phase after Fall. A variant can replace it (Colonial's adjudicator reading counts
a whole year per turn); the engine only asks the calendar the questions below.
"""

from __future__ import annotations

from .phase import ADJUSTMENT, FALL, KIND_NAMES, MOVEMENT, RETREAT, SEASON_NAMES, SPRING, Phase


class Calendar:
    """The standard calendar."""

    name = "standard"

    def next_movement(self, phase: Phase) -> Phase:
        """The movement phase after the season of ``phase``."""
        if phase.season == SPRING and phase.kind != ADJUSTMENT:
            return Phase(phase.year, FALL, MOVEMENT)
        return Phase(phase.year + 1, SPRING, MOVEMENT)

    def adjustment_phase(self, phase: Phase) -> Phase:
        """The adjustment phase that follows the season of ``phase`` (which closes a year)."""
        return Phase(phase.year, FALL, ADJUSTMENT)

    def closes_year(self, phase: Phase) -> bool:
        """True if centres change hands (and adjustments follow) after this season."""
        return phase.season == FALL

    def season_name(self, phase: Phase) -> str:
        """``Spring of 1901`` / ``Fall of 1901`` / ``Winter of 1901``, as results print it."""
        if phase.kind == ADJUSTMENT:
            return f"Winter of {phase.year}"
        return f"{SEASON_NAMES[phase.season]} of {phase.year}"

    def phase_title(self, phase: Phase) -> str:
        """``Movement`` / ``Retreats`` / ``Adjustments`` + `` for `` + season name."""
        kind = {MOVEMENT: "Movement", RETREAT: "Retreats", ADJUSTMENT: "Adjustments"}[phase.kind]
        return f"{kind} for {self.season_name(phase)}"

    def long_name(self, phase: Phase) -> str:
        """``Spring 1901 Movement``."""
        season = "Winter" if phase.kind == ADJUSTMENT else SEASON_NAMES[phase.season]
        return f"{season} {phase.year} {KIND_NAMES[phase.kind]}"


STANDARD_CALENDAR = Calendar()
