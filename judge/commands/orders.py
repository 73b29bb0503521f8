"""ORDERS: a run of order lines after a sign-on, checked and stored together.

A player's lines are for their power. The master's lines may be for any power (njudge: "The
BECOME command is not necessary to submit a power's orders"): each line goes to the one
power whose order it can be (``France: A par - bur`` names it; otherwise the unit's owner),
and the reply shows each power's set. Every line is echoed with its own errors and warnings;
the power's whole set follows, with whether it is complete and the time left.
"""

from __future__ import annotations

from .. import render
from ..game import orders as game_orders
from ..game.view import GameView
from ..store.games import MASTER
from .outcome import Call, Outcome


def orders(call: Call) -> Outcome:
    lines = [line.text for line in call.cmd.body]
    if call.me.role == MASTER:
        return _for_any_power(call, lines)
    power = call.me.power
    assert power is not None
    merge = _store(call.view, power, lines)
    sections = [render.order_lines_text([(r.text, r.errors, r.warnings) for r in merge.lines])]
    sections.extend(_after(call, power, merge))
    return Outcome(reply=tuple(sections), errors=merge.errors, changed=True)


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
    view = call.view
    board, position = view.board, view.position
    entries = view.entries(power)
    need = game_orders.required(board, position).get(power, 0)
    game = view.game
    return render.orders_text(call.context(view), power, game_orders.echo(board, position, power, entries),
                              game_orders.is_complete(board, position, power, entries), call.now,
                              needed=need > 0, errors=view.errors(power), grace=game.grace_end,
                              at_grace="process" if game.nmr else "abandon")


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
            shown.append((line, (NO_OWNER,), ()))
        else:
            result = next(checked[owner])
            shown.append((line, result.errors, result.warnings))
    sections = [render.order_lines_text(shown)]
    for power in sorted(merges, key=view.power_rank):
        sections.extend(_after(call, power, merges[power]))
    errors = sum(1 for _, errs, _ in shown if errs)
    return Outcome(reply=tuple(sections), errors=errors, changed=bool(merges))


NO_OWNER = "No power's units fit this order; name the power, like 'France: A par - bur'."
