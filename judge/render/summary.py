"""SUMMARY of a game and the summary in its final mail: who played each power and when,
the deadlines each player missed, and the supply centres by year (njudge ``data/index``,
SUMMARY)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine.phase import Phase
from .context import GameContext
from .environment import render


@dataclass(frozen=True, slots=True)
class Tenure:
    """One player's time with a power, for SUMMARY and the final mail: the address (or
    ``someone@somewhere`` in a gunboat game), the first and last phase they played it
    (``end`` None: they still do), the deadlines they missed, and how they left
    (``resigned``, ``ejected``, ``abandoned``, ``eliminated``; ``""``: they did not)."""

    power: str
    address: str
    start: str
    end: str | None
    missed: int
    left: str = ""


@dataclass(frozen=True, slots=True)
class Summary:
    """SUMMARY of a game: the phase it has reached (None: forming), the supply centre
    counts of each year, who played each power and when, the masters, and how it ended."""

    through: Phase | None
    centres: Sequence[tuple[Phase, Mapping[str, int]]]
    tenures: Sequence[Tenure] = ()
    masters: Sequence[str] = ()
    ended: str | None = None


def summary_values(ctx: GameContext, summary: Summary) -> dict[str, object]:
    """The values of the ``all/_summary`` part (SUMMARY's reply and the final mail)."""
    powers = [p.name for p in ctx.m.powers]
    short = [p[:3] for p in powers]
    if len(set(short)) < len(short):
        short = [p.letter for p in ctx.m.powers]
    return {
        "game": ctx.game,
        "variant": ctx.variant,
        "through": ctx.calendar.long_name(summary.through) if summary.through is not None else None,
        "tenures": list(summary.tenures),
        "masters": list(summary.masters),
        "powers": powers,
        "short": short,
        "rows": [(phase.code, [counts.get(p, 0) for p in powers]) for phase, counts in summary.centres],
        "ended": summary.ended,
    }


def summary_text(ctx: GameContext, summary: Summary) -> str:
    """``SUMMARY``: how the game ended, who played each power and when (with the deadlines
    each player missed), and per phase (each Spring, and now) the centre counts."""
    return render("player/summary.txt.j2", **summary_values(ctx, summary))
