"""Result mails: movement, retreat and adjustment results in njudge's layout.

The layout is what jDip and the other mappers read (``mapper-compat.md``): one line per
unit grouped by power in map order, result notes only in the allowed words, the dislodged
block, the ownership block and count table after a season that closes a year, and the next
phase with its deadline (or the end of the game).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..engine.map import UNIT_NAMES, Map
from ..engine.notation import adjective, describe
from ..engine.orders import Disband, Move
from ..engine.phase import ADJUSTMENT, MOVEMENT, RETREAT
from ..engine.position import Dislodged, Position, Unit
from ..engine.results import BOUNCE, NO_CONVOY, VOID, Adjudication, OrderResult, Tally
from .context import GameContext, Rendered
from .environment import render


@dataclass(frozen=True, slots=True)
class OrderLine:
    """One results line: ``power``, and either the described order (``text``) or, for a
    unit without an order in a movement phase, ``unordered`` with the unit's name."""

    power: str
    text: str
    notes: tuple[str, ...] = ()
    unordered: bool = False


@dataclass(frozen=True, slots=True)
class CountLine:
    """One row of the count table (the engine's numbers, :class:`~judge.engine.adjustments.Tally`)."""

    power: str
    centres: int
    units: int
    victory: bool = False

    @property
    def delta(self) -> int:
        return self.centres - self.units


def unit_sort_key(m: Map, unit: Unit) -> tuple[int, str]:
    """Armies before fleets, then by place name (njudge's order listings)."""
    return (0 if unit.type == "A" else 1, m.location_name(unit.location).lower())


def _notes(order_result: OrderResult) -> tuple[str, ...]:
    """The notes, with a failed variant route (a blocked railway move) reported as a
    bounce: the only failure word the mappers accept for a move."""
    notes = order_result.notes
    order = order_result.order
    if isinstance(order, Move) and order.via and NO_CONVOY in notes:
        notes = tuple(BOUNCE if n == NO_CONVOY else n for n in notes)
    return notes


def _one_per_unit(results: Sequence[OrderResult]) -> dict[Unit, list[OrderResult]]:
    by_unit: dict[Unit, list[OrderResult]] = {}
    for r in results:
        by_unit.setdefault(r.order.unit, []).append(r)  # type: ignore[union-attr]
    return by_unit


def movement_lines(m: Map, phase: Position, results: Sequence[OrderResult]) -> list[list[OrderLine]]:
    """One line per unit of ``phase``, grouped by power in map order. A unit the engine
    reports twice (two different orders, DATC 4.D.3: it holds) prints as unordered."""
    by_unit = _one_per_unit(results)
    groups: list[list[OrderLine]] = []
    for pw in m.powers:
        units = sorted(phase.units_of(pw.name), key=lambda u: unit_sort_key(m, u))
        lines = []
        for unit in units:
            rs = by_unit.get(unit, [])
            name = f"{UNIT_NAMES[unit.type]} {m.location_name(unit.location)}"
            if len(rs) == 1 and not rs[0].default:
                lines.append(OrderLine(pw.name, describe(m, rs[0].order), _notes(rs[0])))
            else:
                notes = tuple(dict.fromkeys(n for r in rs for n in r.notes if n != VOID))
                lines.append(OrderLine(pw.name, name, notes, unordered=True))
        if lines:
            groups.append(lines)
    return groups


def retreat_lines(m: Map, phase: Position, results: Sequence[OrderResult]) -> list[list[OrderLine]]:
    """One line per dislodged unit; an unordered one is ``DISBAND.`` (mapper-compat 8).
    Orders for units that were not dislodged are left out."""
    by_unit = _one_per_unit(results)
    groups: list[list[OrderLine]] = []
    for pw in m.powers:
        units = sorted((d.unit for d in phase.dislodged.values() if d.unit.power == pw.name),
                       key=lambda u: unit_sort_key(m, u))
        lines = []
        for unit in units:
            rs = by_unit.get(unit, [])
            real = [r for r in rs if r.notes != (VOID,)] or rs
            if not real or real[-1].default:
                lines.append(OrderLine(pw.name, describe(m, Disband(unit))))
            else:
                lines.append(OrderLine(pw.name, describe(m, real[-1].order), _notes(real[-1])))
        if lines:
            groups.append(lines)
    return groups


def adjustment_lines(m: Map, results: Sequence[OrderResult]) -> list[list[OrderLine]]:
    """The builds, removals and waives, grouped by power in map order."""
    groups: list[list[OrderLine]] = []
    for pw in m.powers:
        lines = [OrderLine(pw.name, describe(m, r.order), r.notes) for r in results if r.power == pw.name]
        if lines:
            groups.append(lines)
    return groups


def ownership(m: Map, position: Position) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """Per power (map order) its centres' full names, sorted; and the unowned centres."""
    owned = [
        (pw.name, sorted(m.provinces[c].name for c in position.centres_of(pw.name)))
        for pw in m.powers
    ]
    unowned = sorted(m.provinces[c].name for c in m.supply_centres if c not in position.owners)
    return [(p, cs) for p, cs in owned if cs], unowned


def count_lines(tally: Sequence[Tally], winners: Sequence[str] = ()) -> list[CountLine]:
    """The count table: powers that still have centres or units, with the numbers the
    engine gives (:func:`judge.engine.adjustments.tally`), never counted here."""
    solo = winners[0] if len(winners) == 1 else None
    return [CountLine(t.power, t.centres, t.units, t.power == solo) for t in tally if t.centres or t.units]


def stopped_entries(m: Map, adjudication: Adjudication) -> list[str]:
    """Variant moves that ended short of their destination (a blocked railway army): where
    each stopped. The order line itself keeps the plain ``(*bounce*)`` that mapping tools
    read (mapper-compat item 5), so this block says where the army really is."""
    entries = []
    for r in adjudication.results:
        order = r.order
        if r.stopped is None or not isinstance(order, Move):
            continue
        unit = order.unit
        entries.append(
            f"The {adjective(m, unit.power)} {UNIT_NAMES[unit.type]} from {m.location_name(unit.location)} "
            f"stopped in {m.location_name(r.stopped)}, short of {m.location_name(order.dest)}."
        )
    return entries


def dislodged_entries(m: Map, adjudication: Adjudication) -> list[dict[str, object]]:
    """The dislodged block's entries: adjective, unit, place (with "the" for a sea), retreats."""
    return dislodged_list(m, adjudication.dislodged)


def dislodged_list(m: Map, dislodged: Iterable[Dislodged]) -> list[dict[str, object]]:
    return [
        {
            "adjective": adjective(m, d.unit.power),
            "unit": UNIT_NAMES[d.unit.type],
            "place": m.location_name(d.unit.location, article=True),
            "retreats": [m.location_name(r) for r in d.retreats],
        }
        for d in dislodged
    ]


def closes_year(ctx: GameContext, adjudication: Adjudication) -> bool:
    """True after the Fall movement without retreats, or after the Fall retreats."""
    phase = adjudication.phase.phase
    if not ctx.calendar.closes_year(phase) or phase.kind == ADJUSTMENT:
        return False
    return adjudication.next.phase.kind != RETREAT


def game_over_text(m: Map, winners: Sequence[str], *, predicted: bool = False) -> str:
    """The closing line for a finished game: a solo victory, or a draw among ``winners``
    (empty: the game simply ended); ``predicted``: the line of a PREDICT mail."""
    return render("all/game_over.txt.j2", winners=list(winners), predicted=predicted).rstrip("\n")


def results_mail(
    ctx: GameContext,
    adjudication: Adjudication,
    seq: int,
    next_deadline: datetime | None,
    *,
    game_over: str | None = None,
    link: str = "",
    prediction: bool = False,
    bot_powers: Sequence[str] = (),
) -> Rendered:
    """The result mail of one adjudicated phase, to everyone in the game.

    ``seq`` is the number of the phase just adjudicated (``game.001``); ``next_deadline`` the
    next phase's deadline (None: no ``:: Deadline:`` line); ``game_over`` ends the mail with
    ``The game is over.`` and that text instead of the next phase; ``link`` (the phase's page
    in the web archive, when there is one) is the last line. A ``prediction`` (the master's
    PREDICT) says so at its head and foot, and its subject is ``... Prediction`` (not
    ``Results``, so that no mapping tool takes it for a phase played). ``bot_powers`` are
    the powers whose orders the judge's bot wrote (``Orders for Russia were written by the
    judge's bot.``).
    """
    m = ctx.m
    done = adjudication.phase
    kind = done.phase.kind
    if kind == MOVEMENT:
        groups = movement_lines(m, done, adjudication.results)
    elif kind == RETREAT:
        groups = retreat_lines(m, done, adjudication.results)
    else:
        groups = adjustment_lines(m, adjudication.results)
    nxt = adjudication.next
    owned, unowned = ownership(m, nxt)
    year_closed = closes_year(ctx, adjudication)
    body = render(
        "all/results.txt.j2",
        header=ctx.header_for(None if game_over else nxt.phase, None if game_over else next_deadline),
        kind=kind,
        season=ctx.calendar.season_name(done.phase),
        game=ctx.game,
        seq=seq,
        groups=groups,
        dislodged=dislodged_entries(m, adjudication) if kind == MOVEMENT else [],
        stopped=stopped_entries(m, adjudication) if kind == MOVEMENT else [],
        ownership=owned if year_closed else [],
        unowned=unowned,
        counts=count_lines(adjudication.tally, adjudication.winners) if year_closed else [],
        next_title=ctx.calendar.phase_title(nxt.phase),
        deadline=ctx.when(next_deadline) if next_deadline else None,
        game_over=game_over,
        link=link,
        prediction=prediction,
        bot_powers=list(bot_powers),
    )
    what = "Prediction" if prediction else "Results"
    return Rendered(f"{ctx.judge_code}:{ctx.game} - {done.phase.code} {what}", body)
