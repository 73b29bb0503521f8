"""Seeded random play: legal orders for every power, phase after phase.

Used by the benchmark and by the tests that round-trip whole games through ``judge
adjudicate``. Orders come out as text in the plain form every judge reads
(``A par - bur``, ``F nth C A lon - nwy``, ``A mun S A ber - sil``), so the same game can be
fed to another engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from .engine import ARMY, FLEET, Board, Map, Order, Position, Unit, adjudicate, province_of
from .engine.adjustments import adjustments_due, build_sites
from .engine.parser import parse_orders
from .engine.phase import ADJUSTMENT, MOVEMENT
from .engine.results import Adjudication
from .engine.validation import Legality


@dataclass(frozen=True)
class PlayedPhase:
    """One phase of a random game: the position, the orders given (text, by power), and the
    adjudication."""

    position: Position
    orders: dict[str, list[str]]
    adjudication: Adjudication


def random_orders(board: Board, position: Position, rng: random.Random) -> dict[str, list[str]]:
    """Legal orders (as text) for every power in ``position``."""
    kind = position.phase.kind
    if kind == MOVEMENT:
        return _movement(board, position, rng)
    if kind == ADJUSTMENT:
        return _adjustment(board, position, rng)
    out: dict[str, list[str]] = {}
    for d in position.dislodged.values():
        u = d.unit
        text = f"{u.type} {u.location} - {rng.choice(d.retreats)}" if d.retreats and rng.random() < 0.8 \
            else f"{u.type} {u.location} disband"
        out.setdefault(u.power, []).append(text)
    return out


def _movement(board: Board, position: Position, rng: random.Random) -> dict[str, list[str]]:
    m = board.map
    moves: dict[str, str] = {}
    for prov, u in position.units.items():
        if rng.random() < 0.7:
            adj = m.army_adj if u.type == ARMY else m.fleet_adj
            options = sorted(adj.get(u.location, ()))
            if options:
                moves[prov] = rng.choice(options)
    out: dict[str, list[str]] = {}
    convoyed: set[str] = set()
    for prov, u in position.units.items():
        text = None
        if prov in moves:
            text = f"{u.type} {u.location} - {moves[prov]}"
        elif u.type == FLEET and m.provinces[prov].is_water and rng.random() < 0.5:
            text = _convoy(m, position, u, rng, moves, convoyed, out)
        if text is None and prov not in moves and rng.random() < 0.6:
            text = _support(m, position, u, rng, moves)
        out.setdefault(u.power, []).append(text or f"{u.type} {u.location} H")
    return out


def _convoy(
    m: Map, position: Position, fleet: Unit, rng: random.Random, moves: dict[str, str], convoyed: set[str],
    out: dict[str, list[str]],
) -> str | None:
    """A fleet at sea convoys an adjacent army of its power to another coast it touches."""
    reach = m.fleet_reach.get(fleet.location, ())
    armies = sorted(p for p in reach if (a := position.units.get(p)) is not None and a.type == ARMY
                    and a.power == fleet.power and p not in convoyed and p not in moves)
    if not armies:
        return None
    army = rng.choice(armies)
    near = m.army_adj.get(army, ())
    dests = sorted(p for p in reach if p != army and m.provinces[p].holds_armies and p not in near)
    if not dests:
        return None
    dest = rng.choice(dests)
    convoyed.add(army)
    moves[army] = dest
    a = position.units[army]
    # replace the army's order (it may already be listed as a hold) with the convoyed move
    lines = out.setdefault(a.power, [])
    lines[:] = [x for x in lines if not x.startswith(f"A {army} ")]
    lines.append(f"A {army} - {dest}")
    return f"F {fleet.location} C A {army} - {dest}"


def _support(m: Map, position: Position, u: Unit, rng: random.Random, moves: dict[str, str]) -> str | None:
    candidates = []
    for prov, other in position.units.items():
        if prov == u.province:
            continue
        if prov in moves:
            dest = province_of(moves[prov])
            if dest != u.province and m.reaches(u.type, u.location, dest):
                candidates.append(f"{u.type} {u.location} S {other.type} {other.location} - {dest}")
        elif m.reaches(u.type, u.location, prov):
            candidates.append(f"{u.type} {u.location} S {other.type} {other.location}")
    return rng.choice(candidates) if candidates else None


def _adjustment(board: Board, position: Position, rng: random.Random) -> dict[str, list[str]]:
    m = board.map
    out: dict[str, list[str]] = {}
    for power, n in adjustments_due(board, position).items():
        lines = out.setdefault(power, [])
        if n > 0:
            sites = build_sites(m, position, power)
            rng.shuffle(sites)
            for site in sites[:n]:
                fleets = m.fleet_locations(site)
                if fleets and (not m.provinces[site].holds_armies or rng.random() < 0.4):
                    lines.append(f"build F {rng.choice(fleets)}")
                elif m.provinces[site].holds_armies:
                    lines.append(f"build A {site}")
        else:
            units = sorted(position.units_of(power), key=lambda u: u.province)
            for u in rng.sample(units, -n):
                lines.append(f"remove {u.type} {u.location}")
    return out


def parse_legal(board: Board, position: Position, orders: dict[str, list[str]]) -> list[Order]:
    """Parse and check order texts; refused ones are left out (the unit gets its default)."""
    parsed: list[Order] = []
    legality = Legality(board, position)
    for power, lines in orders.items():
        for item in parse_orders(board, position, power, "\n".join(lines)):
            if isinstance(item, Exception):
                continue
            try:
                legality.check(item)
            except ValueError:
                continue
            parsed.append(item)
    return parsed


def play(board: Board, position: Position, seed: int, phases: int) -> Iterator[PlayedPhase]:
    """Play ``phases`` phases of random legal orders from ``position``; stops at a victory."""
    rng = random.Random(seed)
    for _ in range(phases):
        orders = random_orders(board, position, rng)
        result = adjudicate(board, position, parse_legal(board, position, orders))
        yield PlayedPhase(position, orders, result)
        if result.winners:
            return
        position = result.next
