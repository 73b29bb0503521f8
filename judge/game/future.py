"""Orders entered in advance: ``PHASE <season> <year> <kind>`` and the orders after it, kept
until that phase starts (njudge ``data/syntax``, "SUBMITTING ORDERS IN ADVANCE" and
"CONDITIONAL ORDERS").

- :func:`target` reads the phase of a ``PHASE`` line: a phase of the game's calendar, not
  past, at most :data:`MAX_YEARS` years on (njudge: "up to five years into the future"). The
  current phase itself is allowed: its orders (conditions read on the position now) are the
  current orders.
- :func:`enter` checks the lines as far as they can be checked before the phase comes (the
  ``IF`` structure and its conditions fully, each order as if the unit it names stood where
  it says, and whether a move or retreat can reach its destination at all: njudge "some
  syntax checking will be done ... but the full list of errors can't be determined until
  the actual phase occurs") and keeps them, after any entered before for
  that phase; lines with errors are kept too, and reported. Each order is read by the
  engine's parser, as the current phase's orders are: :func:`judge.engine.parser.named_unit`
  finds the unit it orders, and :func:`judge.engine.parser.parse_orders` reads it in a
  position where that unit stands; no word splitter of this module's own. A structure
  written on one line is cut into its lines first (:func:`judge.game.conditions.expand`).
- :func:`set_wait` keeps a ``SET WAIT``/``SET NOWAIT`` given after a ``PHASE`` line for that
  phase (njudge: "propagated to the future phase"); :func:`clear` drops what was entered
  (``CLEAR``).
- :func:`release` runs when a phase starts (from :func:`judge.game.held.released`): the
  conditions are read on the new position, the chosen lines become the power's orders as if
  the player had mailed them then, the wait is set, and the player gets a mail with the
  orders as they now read (their errors included). Orders for a phase that passed without
  coming (a retreat phase that did not happen) are dropped and the player is told in the
  same mail. When every power's orders are then in, the phase is processed after the
  clock's delay, as for orders by mail.

Orders entered in advance belong to the player who wrote them: a player who takes the power
over later does not inherit them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .. import render
from ..config import Config
from ..engine import (
    Board,
    Dislodged,
    Move,
    Order,
    OrderError,
    Phase,
    PhaseError,
    Position,
    Retreat,
    Unit,
)
from ..engine.calendar import Calendar
from ..engine.map import ARMY, FLEET, SEA
from ..engine.parser import Named, named_unit, parse_orders, split_orders
from ..engine.phase import ADJUSTMENT, RETREAT
from ..engine.validation import check_order
from ..store.games import ACTIVE, Player
from ..store.held import FutureOrders
from . import conditions, lateness, orders
from .errors import GameError
from .mails import Mail, context
from .orders import LineResult
from .view import GameView

log = logging.getLogger(__name__)

MAX_YEARS = 5


class FutureError(GameError):
    """A ``PHASE`` line the judge cannot take; the message is for the player."""


# -- the phase ---------------------------------------------------------------------------------


def _phases(calendar: Calendar, now: Phase, years: int) -> list[Phase]:
    """The phases that may come from ``now`` on, for ``years`` years, in order."""
    movement = now if now.kind == "M" else calendar.next_movement(now)
    out = [now]
    while movement.year <= now.year + years:
        out.append(movement)
        out.append(movement.retreat())
        if calendar.closes_year(movement):
            out.append(calendar.adjustment_phase(movement))
        movement = calendar.next_movement(movement)
    return sorted({p for p in out if p.key >= now.key}, key=lambda p: p.key)


def target(view: GameView, text: str) -> Phase:
    """The phase a ``PHASE`` line names; raises :class:`FutureError`."""
    try:
        phase = Phase.parse(text)
    except PhaseError:
        raise FutureError(render.refusal("phase_unreadable", text=text.strip())) from None
    now = view.phase
    calendar = view.board.rules.calendar
    if phase.key < now.key:
        raise FutureError(render.refusal("phase_past", phase=calendar.long_name(phase), now=now.code))
    if phase.year > now.year + MAX_YEARS:
        raise FutureError(render.refusal("phase_too_far", years=MAX_YEARS, last=now.year + MAX_YEARS))
    if phase not in _phases(calendar, now, MAX_YEARS):
        raise FutureError(render.refusal("phase_not_in_calendar", phase=phase.code))
    return phase


# -- entering ----------------------------------------------------------------------------------


def _trials(board: Board, power: str, phase: Phase, named: Named) -> list[Position]:
    """Positions of ``phase`` in which the unit an order names stands where it says."""
    m = board.map
    if named.location is None or (phase.kind == ADJUSTMENT and named.action == "build"):
        return [Position.build(phase, [])]
    where = named.location
    locations = [where] if "/" in where else [where, *m.fleet_locations(where)]
    units = [Unit(power, t, loc) for loc in dict.fromkeys(locations) for t in (ARMY, FLEET) if m.can_hold(t, loc)]
    if phase.kind == RETREAT:
        return [Position.build(phase, [], [Dislodged(u, tuple(sorted(
            (m.army_adj if u.type == ARMY else m.fleet_adj).get(u.location, ()))))]) for u in units]
    return [Position.build(phase, [u]) for u in units] or [Position.build(phase, [])]


def _piece_errors(board: Board, power: str, phase: Phase, piece: str) -> list[str]:
    """The errors of one order for ``phase``, read by the engine's parser (as the current
    phase's orders are) in each position where the unit it names stands where it says."""
    try:
        named = named_unit(board.map, piece, phase.kind)
    except OrderError as exc:
        return [exc.message]
    if phase.kind == ADJUSTMENT and named.action is None:
        return [render.refusal("future_adjustment_word")]
    if named.action == "waive":
        return []
    best: list[str] = []
    for trial in _trials(board, power, phase, named):
        read = parse_orders(board, trial, power, piece)
        errors = [item.message for item in read if isinstance(item, OrderError)]
        errors += [e for item in read if not isinstance(item, OrderError) for e in _reach_errors(board, trial, item)]
        if not errors:
            return []
        best = best or errors
    return best


def _reach_errors(board: Board, trial: Position, order: Order) -> list[str]:
    """Whether a move or retreat can reach its destination at all, whatever the other units
    will be: an army's move is checked with fleets of its power on every sea, so that a
    move by convoy passes where one could be made."""
    if isinstance(order, Move):
        m = board.map
        fleets = [Unit(order.unit.power, FLEET, p.abbr) for p in m.provinces.values()
                  if p.kind == SEA and p.abbr != order.unit.province] if order.unit.type == ARMY else []
        trial = Position.build(trial.phase, [*trial.units.values(), *fleets])
    elif not isinstance(order, Retreat):
        return []
    try:
        check_order(board, trial, order)
    except OrderError as exc:
        return [exc.message]
    return []


def check_lines(board: Board, power: str, phase: Phase, lines: Sequence[str]) -> list[LineResult]:
    """Each line as it can be checked before ``phase`` comes (see the module docstring)."""
    reading = conditions.read_lines(board.map, lines)
    out = []
    for index, line in enumerate(lines):
        errors = list(reading.errors.get(index, []))
        if conditions.keyword(line) is None:
            for piece in split_orders(line):
                errors.extend(_piece_errors(board, power, phase, piece))
        out.append(LineResult(line, tuple(dict.fromkeys(errors))))
    return out


def _row(view: GameView, me: Player, phase: Phase) -> FutureOrders:
    found = next((r for r in view.future_orders(me) if r.phase == phase.code), None)
    if found is None:
        assert me.power is not None
        found = FutureOrders(game_id=view.game.id, player_id=me.id, power=me.power, phase=phase.code, lines=[],
                             wait=None)
        view.keep_future(found)
    return found


def enter(view: GameView, me: Player, phase: Phase, lines: Sequence[str]) -> list[LineResult]:
    """Check ``lines`` for ``phase`` and keep them after those entered before; each line's
    result."""
    assert me.power is not None
    lines = conditions.expand(lines)
    checked = check_lines(view.board, me.power, phase, lines)
    row = _row(view, me, phase)
    row.lines = [*row.lines, *conditions.closed(list(lines))]
    log.info("%s: %s entered %d line(s) for %s", view.name, me.power, len(lines), phase.code)
    return checked


def set_wait(view: GameView, me: Player, phase: Phase, wait: bool) -> None:
    """Keep a SET WAIT (True) or SET NOWAIT (False) for ``phase``."""
    _row(view, me, phase).wait = wait


def clear(view: GameView, me: Player, phase: Phase | None = None) -> list[str]:
    """Drop the orders ``me`` entered in advance (for ``phase`` only, when given); the
    phases dropped."""
    gone = [r for r in view.future_orders(me) if phase is None or r.phase == phase.code]
    for row in gone:
        view.drop_future(row)
    return sorted((r.phase for r in gone), key=lambda code: Phase.parse(code).key)


@dataclass(frozen=True, slots=True)
class Pending:
    """Orders entered for one later phase, for the replies: the phase's name and its lines."""

    phase: str
    title: str
    lines: list[str]
    wait: bool | None


def pending(view: GameView, me: Player) -> list[Pending]:
    """What ``me`` has entered in advance, by phase in game order."""
    calendar = view.board.rules.calendar
    rows = sorted(view.future_orders(me), key=lambda r: Phase.parse(r.phase).key)
    return [Pending(r.phase, calendar.long_name(Phase.parse(r.phase)), list(r.lines), r.wait) for r in rows]


# -- the phase comes -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Due:
    row: FutureOrders | None = None
    dropped: list[str] = field(default_factory=list)


def release(view: GameView, config: Config, now: datetime) -> list[Mail]:
    """Apply the orders entered for the phase that has just started (see the module
    docstring); the mails to the players whose orders were applied or dropped."""
    game = view.game
    rows = view.future_orders()
    if game.status != ACTIVE or not rows:
        return []
    phase = view.phase
    due: dict[int, _Due] = {}
    for row in rows:
        code = Phase.parse(row.phase)
        if code.key > phase.key:
            continue
        view.drop_future(row)
        player = view.player_of(row.power)
        if player is None or player.id != row.player_id:
            continue
        entry = due.setdefault(player.id, _Due())
        if code == phase:
            entry.row = row
        else:
            entry.dropped.append(view.board.rules.calendar.long_name(code))
    mails = []
    for player in [p for p in game.players if p.id in due]:
        mails.append(_apply(view, config, now, player, due[player.id]))
    if mails and lateness.all_in(view, now):
        game.process_at = now + timedelta(hours=max(view.clock().delay, 0))
    return mails


def read_now(view: GameView, power: str, lines: Sequence[str]) -> tuple[orders.Merge, list[LineResult], int]:
    """``lines`` (conditions included) as the current position reads them: the chosen order
    lines added to the power's orders (:func:`judge.game.orders.merge`, not stored), every
    line's result in order (a line the conditions leave out is noted), and the errors.
    A structure written on one line is read as the lines it stands for (they are shown so)."""
    lines = conditions.expand(lines)
    reading = conditions.read_lines(view.map, lines)
    picked = conditions.chosen(reading.items, view.position)
    merge = orders.merge(view.board, view.position, power, view.entries(power), [p.text for p in picked])
    results = dict(zip((p.index for p in picked), merge.lines, strict=True))
    shown = []
    for index, line in enumerate(lines):
        if index in results:
            shown.append(results[index])
        elif conditions.keyword(line) is not None:
            shown.append(LineResult(line, tuple(reading.errors.get(index, ()))))
        else:
            shown.append(LineResult(line, (), (render.refusal("condition_not_chosen"),)))
    return merge, shown, merge.errors + len(reading.errors)


def _apply(view: GameView, config: Config, now: datetime, player: Player, due: _Due) -> Mail:
    power = player.power
    assert power is not None
    ctx = context(config, view, player)
    sections: list[str] = []
    errors = 0
    if due.row is not None:
        merge, shown, errors = read_now(view, power, list(due.row.lines))
        view.store_orders(power, merge.entries, errors)
        if due.row.wait is not None:
            player.wait = due.row.wait
        sections.append(render.order_lines_text([(r.text, r.errors, r.warnings) for r in shown])
                        if shown else render.section("player/future_none"))
        sections.append(orders.set_text(view, config, power, now, player))
        log.info("%s: orders entered in advance applied for %s in %s (%d error(s))", view.name, power,
                 view.phase.code, errors)
    mail = render.future_orders_mail(ctx, power, applied=due.row is not None, sections=sections,
                                     dropped=due.dropped, errors=errors)
    return Mail.of(player.email, mail, "private", view)
