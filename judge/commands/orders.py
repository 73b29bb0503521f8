"""ORDERS: a run of order lines after a sign-on, checked and stored together; PHASE and
CLEAR, for orders entered in advance (njudge ``data/syntax``).

A player's lines are for their power. The master's lines may be for any power (njudge: "The
BECOME command is not necessary to submit a power's orders"): each line goes to the one
power whose order it can be (``France: A par - bur`` names it; otherwise the unit's owner),
and the reply shows each power's set. Every line is echoed with its own errors and warnings;
the power's whole set follows, with whether it is complete and the time left, and the
orders the player has entered in advance for later phases, if any.

After a ``PHASE season year kind`` line (the reader gives the commands after it that phase,
``Command.phase``) the lines are for that phase: kept with their conditions
(``IF``...``ENDIF``) until it starts (:mod:`judge.game.future`), or, when it is the current
phase, read on the current position and stored at once. ``CLEAR`` drops what was entered in
advance (after a ``PHASE`` line, for that phase only); ``SET WAIT``/``SET NOWAIT`` after a
``PHASE`` line are kept for that phase (:func:`wait_later`).
"""

from __future__ import annotations

from .. import render
from ..engine import Phase
from ..game import future
from ..game import orders as game_orders
from ..game.future import FutureError
from ..game.view import GameView
from ..store.games import MASTER
from .outcome import Call, Outcome, said


def orders(call: Call) -> Outcome:
    lines = [line.text for line in call.cmd.body]
    if call.cmd.phase:
        return _later(call, lines)
    if call.me.role == MASTER:
        return _for_any_power(call, lines)
    power = call.me.power
    assert power is not None
    merge = _store(call.view, power, lines)
    sections = [render.order_lines_text([(r.text, r.errors, r.warnings) for r in merge.lines])]
    sections.extend(_after(call, power, merge))
    return Outcome(reply=(*sections, *_pending(call)), errors=merge.errors, changed=True)


def _pending(call: Call) -> tuple[str, ...]:
    """The orders the player has entered in advance, if any (njudge: "Your pending orders
    will be listed in replies to intervening order submissions")."""
    pending = future.pending(call.view, call.me)
    return (render.section("player/future_pending", pending=pending),) if pending else ()


def _target(call: Call) -> Phase | Outcome:
    """The phase of the PHASE line in force, or the error outcome."""
    try:
        return future.target(call.view, call.cmd.phase)
    except FutureError as exc:
        return call.error(render.refusal("phase_line_unusable", why=str(exc)))


def _later(call: Call, lines: list[str]) -> Outcome:
    """Orders after a PHASE line."""
    view, me = call.view, call.me
    if me.role == MASTER:
        return call.error(render.refusal("master_phase_line"))
    target = _target(call)
    if isinstance(target, Outcome):
        return target
    power = me.power
    assert power is not None
    if target == view.phase:
        merge, shown, errors = future.read_now(view, power, lines)
        view.store_orders(power, merge.entries, errors)
        sections = [render.order_lines_text([(r.text, r.errors, r.warnings) for r in shown])]
        sections.extend(_after(call, power, merge))
        return Outcome(reply=tuple(sections), errors=errors, changed=True)
    results = future.enter(view, me, target, lines)
    errors = sum(1 for r in results if r.errors)
    kept = next(p for p in future.pending(view, me) if p.phase == target.code)
    sections = [render.order_lines_text([(r.text, r.errors, r.warnings) for r in results]),
                render.section("player/future_kept", title=kept.title, phase=kept.phase, lines=len(kept.lines),
                               wait=kept.wait)]
    return Outcome(reply=tuple(sections), errors=errors, errors_kept=True)


def phase(call: Call) -> Outcome:
    """``PHASE season year kind``: the orders (and SET WAIT) after it are for that phase."""
    view = call.view
    target = future.target(view, call.cmd.text)
    title = view.board.rules.calendar.long_name(target)
    return said(render.section("player/future_entered", phase=target.code, title=title, now=target == view.phase))


def clear(call: Call) -> Outcome:
    """``CLEAR``: drop the orders entered in advance (after a PHASE line: for that phase)."""
    target = None
    if call.cmd.phase:
        found = _target(call)
        if isinstance(found, Outcome):
            return found
        target = found
    dropped = future.clear(call.view, call.me, target)
    return said(render.section("player/future_cleared", phases=dropped, phase=target.code if target else ""))


def wait_later(call: Call, wait: bool) -> Outcome:
    """``SET WAIT``/``SET NOWAIT`` after a PHASE line: kept for that phase (njudge: "the SET
    WAIT and SET NOWAIT directives will be propagated to the future phase")."""
    target = _target(call)
    if isinstance(target, Outcome):
        return target
    if target == call.view.phase:
        call.me.wait = wait
        return said(render.wait_text(wait), changed=True)
    future.set_wait(call.view, call.me, target, wait)
    return said(render.section("player/future_wait", wait=wait, phase=target.code))


def _store(view: GameView, power: str, lines: list[str]) -> game_orders.Merge:
    merge = game_orders.merge(view.board, view.position, power, view.entries(power), lines)
    view.store_orders(power, merge.entries, merge.errors)
    return merge


def _after(call: Call, power: str, merge: game_orders.Merge) -> list[str]:
    """What follows the echoed lines for one power: dropped adjustments, the whole set."""
    out = []
    if merge.dropped and merge.allowed is not None:
        out.append(render.adjustments_text(power, merge.allowed, [e.line for e in merge.entries],
                                           [e.line for e in merge.dropped]))
    out.append(power_set_text(call, power))
    return out


def power_set_text(call: Call, power: str) -> str:
    """The power's whole order set as it stands, with completeness and the time left."""
    return game_orders.set_text(call.view, call.config, power, call.now, call.reader())


def _for_any_power(call: Call, lines: list[str]) -> Outcome:
    view = call.view
    owners = [game_orders.owner_of_line(view.board, view.position, line) for line in lines]
    by_power: dict[str, list[str]] = {}
    for line, owner in zip(lines, owners, strict=True):
        if owner is not None:
            by_power.setdefault(owner, []).append(line)
    merges = {power: _store(view, power, power_lines) for power, power_lines in by_power.items()}
    checked = {power: iter(merge.lines) for power, merge in merges.items()}
    shown: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    for line, owner in zip(lines, owners, strict=True):
        if owner is None:
            shown.append((line, (render.refusal("order_without_owner"),), ()))
        else:
            result = next(checked[owner])
            shown.append((line, result.errors, result.warnings))
    sections = [render.order_lines_text(shown)]
    for power in sorted(merges, key=view.power_rank):
        sections.extend(_after(call, power, merges[power]))
    errors = sum(1 for _, errs, _ in shown if errs)
    return Outcome(reply=tuple(sections), errors=errors, changed=bool(merges))
