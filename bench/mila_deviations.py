"""MILA's known deviations from DATC 3.0 on movement phases, and how the bench tells them.

Found by playing the DATC 3.0 movement cases (``tests/datc/datc_v3.0.txt``) and random
convoy-heavy phases through MILA's ``diplomacy`` 1.1.2 behind the ``judge adjudicate``
contract, and read in its ``engine/game.py``:

- ``fallback`` (DATC 4.A.3, case 6.G.8): a move to an adjacent province meant to go by
  convoy ("via convoy", or an own fleet ordered to convoy it) goes by land when no complete
  chain of convoying fleets is ordered: MILA keeps the DATC 2 preference
  (``_resolve_moves`` step 1A: "No convoy path - Removing VIA and checking if adjacent").
- ``retreats`` (DATC 4.A.5, cases 6.F.21, 6.G.10): a unit dislodged by a convoyed army
  gets every neighbouring place as a retreat, occupied or contested ones too
  (``_move_results``: ``not self.combat.get(where) and where != attacker_site or
  self._is_moving_via_convoy(attacker)``; the ``or`` outranks the ``and``). DATC 4.A.5 frees
  only the attacker's origin.
- ``via_own_support`` (DATC 6.D.13 for a move written "via convoy"): a support given by the
  power of the unit attacked counts toward dislodging it when the move is written VIA
  (``_resolve_moves`` step 2 looks for the occupant at ``coord[-1]``, which is "VIA").
- ``own_support_disrupts`` (DATC 6.F.4 with 6.D.13): an attack on a convoying fleet that a
  support of the fleet's own power makes the strongest disrupts the convoy, although that
  support cannot dislodge the fleet (``_check_disruptions`` compares whole strengths).
- ``paradox_guess`` (DATC 6.F.5, 6.F.14-6.F.25): a convoy is taken for disrupted where
  MILA's shortcuts guess a paradox: a chain of supports from the convoy's destination that
  ends in a support of a convoying fleet, or a convoying fleet attacked in a beleaguered
  garrison when the unit in the convoy's destination moves or supports into the fleet's
  sea (``_detect_paradox`` and the beleaguered-garrison test in ``_check_disruptions``),
  though no decision depends on the convoy: a beleaguered convoy is not disrupted.
- ``support_coast`` (DATC 4.B.4, case 6.B.9): a support naming a coast the move does not
  take still counts. The bench's phases never name a coast in a support.

A divergence between the two engines' next positions is put down to the first of these
that explains it (:func:`explain`); any other is reported as unexplained.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from judge.engine import Board, Move, Position, Support, adjudicate, province_of
from judge.engine.adjudicator import Movement
from judge.engine.convoys import connected
from judge.engine.orders import Convoy, Order
from judge.machine import handle, read_orders

Request = dict[str, Any]
Response = dict[str, Any]

KNOWN = ("fallback", "retreats", "via_own_support", "own_support_disrupts", "paradox_guess", "support_coast")
_MOVE = re.compile(r"^A (\w+) - (\w+)( via convoy)?$")
_CONVOY = re.compile(r"^F (\w+) C A (\w+) - (\w+)$")


def _positions(response: Response) -> tuple[set[tuple[str, str]], dict[tuple[str, str], tuple[str, ...]]]:
    nxt = response["next"]
    units = {(p, u) for p, us in nxt["units"].items() for u in us}
    dislodged = {(p, d["unit"]): tuple(sorted(d["retreats"])) for p, ds in nxt["dislodged"].items() for d in ds}
    return units, dislodged


def same(ours: Response, mila: Response, *, ignore_retreats_of: set[tuple[str, str]] = frozenset()) -> bool:
    """The same next position: units, and dislodged units with their retreats (except the
    retreat lists of ``ignore_retreats_of``, where MILA's may only add places)."""
    our_units, our_dis = _positions(ours)
    their_units, their_dis = _positions(mila)
    if our_units != their_units:
        return False
    for key in our_dis.keys() | their_dis.keys():
        if key in ignore_retreats_of:
            if key not in their_dis or not set(our_dis.get(key, ())) <= set(their_dis[key]):
                return False
        elif our_dis.get(key) != their_dis.get(key):
            return False
    return True


def _by_convoy(board: Board, position: Position, orders: list[Order]) -> dict[str, bool]:
    """Per army province: does its move go by convoy (as our resolver decides)?"""
    chosen = {o.unit.province: o for o in orders if isinstance(o, (Move, Support, Convoy))}
    mv = Movement(board, position, chosen)
    return {p: mv.by_convoy(p) for p in mv.convoy}


def _convoyed_dislodgements(board: Board, request: Request) -> set[tuple[str, str]]:
    """The units our engine has dislodged by a convoyed army: (power, unit text)."""
    position, orders = _read(board, request)
    convoyed = _by_convoy(board, position, orders)
    result = adjudicate(board, position, orders)
    out = set()
    for r in result.results:
        o = r.order
        if isinstance(o, Move) and not r.notes and convoyed.get(o.unit.province):
            victim = position.units.get(province_of(o.dest))
            if victim is not None:
                out.add((victim.power, f"{victim.type} {victim.location}"))
    return out


def _read(board: Board, request: Request) -> tuple[Position, list[Order]]:
    position = Position.from_json(board.map, request)
    orders, _ = read_orders(board, position, request.get("orders") or {})
    return position, orders


def _without_fallback(board: Board, request: Request) -> Request:
    """The request as MILA plays it: a convoy meant for an army going to an adjacent
    province with no complete chain ordered becomes a plain move, its convoys void."""
    m = board.map
    convoys: dict[tuple[str, str], list[str]] = {}
    for lines in request["orders"].values():
        for line in lines:
            c = _CONVOY.match(line)
            if c:
                convoys.setdefault((c.group(2), c.group(3)), []).append(c.group(1))
    placed = Position.from_json(m, request).units
    dropped: set[tuple[str, str]] = set()
    orders: dict[str, list[str]] = {}
    for power, lines in request["orders"].items():
        for line in lines:
            mv = _MOVE.match(line)
            if mv and mv.group(2) in m.army_adj.get(mv.group(1), ()):
                src, dest = mv.group(1), mv.group(2)
                chain = [f for f in convoys.get((src, dest), ())
                         if f in placed and placed[f].type == "F" and m.provinces[f].is_water]
                own = any(placed[f].power == power for f in chain)
                if (mv.group(3) or own) and not connected(m, placed, src, dest, chain):
                    line = f"A {src} - {dest}"
                    dropped.add((src, dest))
            orders.setdefault(power, []).append(line)
    for power, lines in orders.items():
        kept = []
        for line in lines:
            c = _CONVOY.match(line)
            kept.append(f"F {c.group(1)} H" if c and (c.group(2), c.group(3)) in dropped else line)
        orders[power] = kept
    return {**request, "orders": orders}


def _convoys(request: Request) -> dict[str, tuple[str, str]]:
    """Convoying fleet -> (army, destination), from the convoy orders."""
    return {c.group(1): (c.group(2), c.group(3))
            for lines in request["orders"].values() for line in lines if (c := _CONVOY.match(line))}


def _via_own_support(board: Board, request: Request) -> set[str]:
    """Moves written via convoy into a province held by a power that supports them: their
    origins and destinations."""
    held = {u.split()[1]: p for p, us in request["units"].items() for u in us}
    found: set[str] = set()
    for lines in request["orders"].values():
        for line in lines:
            mv = _MOVE.match(line)
            if mv and mv.group(3) and mv.group(2) in held:
                support = re.compile(rf"^[AF] \w+ S A {mv.group(1)} - {mv.group(2)}$")
                if any(support.match(x) for x in request["orders"].get(held[mv.group(2)], ())):
                    found |= {mv.group(1), mv.group(2)}
    return found


def _own_support_disrupts(board: Board, request: Request) -> set[tuple[str, str]]:
    """Convoys (army, destination) whose fleet is attacked with the support of a unit of
    the fleet's own power."""
    held = {u.split()[1]: p for p, us in request["units"].items() for u in us}
    convoys = _convoys(request)
    found: set[tuple[str, str]] = set()
    for power, lines in request["orders"].items():
        for line in lines:
            s = re.match(r"^[AF] \w+ S [AF] \w+ - (\w+)$", line)
            if s and s.group(1) in convoys and held.get(s.group(1)) == power:
                found.add(convoys[s.group(1)])
    return found


def _paradox_guess(board: Board, request: Request) -> set[tuple[str, str]]:
    """Convoys (army, destination) MILA's paradox shortcuts take for disrupted: from the
    destination a chain of supports (each followed to the province it names last) ends in a
    support of a convoying fleet, or the unit there moves or supports into a convoying
    fleet's sea attacked twice or more."""
    orders = {line.split()[1]: line.lower().split() for lines in request["orders"].values() for line in lines}
    attacks: Counter[str] = Counter(w[3] for w in orders.values() if len(w) == 4 and w[2] == "-")
    found: set[tuple[str, str]] = set()
    for fleet, (army, dest) in _convoys(request).items():
        here, seen = orders.get(dest), set()
        if here is not None and here[-1] == fleet and here[2] in ("-", "s") and attacks[fleet] >= 2:
            found.add((army, dest))  # the beleaguered garrison with the destination taking part
        while here is not None and here[1] not in seen:
            seen.add(here[1])
            if here[2] == "s" and here[-3:] == ["s", "f", fleet]:
                found.add((army, dest))
            if here[2] not in ("s", "c"):
                break
            here = orders.get(here[-1].split("/")[0])
    return found


def _without_convoys(request: Request, convoys: set[tuple[str, str]]) -> Request:
    """The request with those convoys disrupted as MILA disrupts them: the army and its
    convoying fleets hold."""
    def keep(line: str) -> str:
        words = line.split()
        mv, c = _MOVE.match(line), _CONVOY.match(line)
        if mv and (mv.group(1), mv.group(2)) in convoys or c and (c.group(2), c.group(3)) in convoys:
            return f"{words[0]} {words[1]} H"
        return line
    return {**request, "orders": {p: [keep(x) for x in lines] for p, lines in request["orders"].items()}}


def _differing(ours: Response, mila: Response) -> set[str]:
    """The provinces where the two next positions differ."""
    our_units, our_dis = _positions(ours)
    their_units, their_dis = _positions(mila)
    changed = {u for _, u in our_units ^ their_units} | {u for _, u in our_dis.keys() ^ their_dis.keys()}
    return {province_of(u.split()[1]) for u in changed}


Disruption = Callable[[Board, Request], "set[tuple[str, str]]"]
_DISRUPTIONS: Mapping[str, Disruption] = {"own_support_disrupts": _own_support_disrupts, "paradox_guess": _paradox_guess}


def explain(board: Board, request: Request, ours: Response, mila: Response) -> str | None:
    """The known deviation that accounts for MILA's answer differing from ours, or None.
    Where the deviation can be played (``fallback``, the disrupted convoys) the request is
    rewritten as MILA reads it and our answer to that must be MILA's; ``via_own_support``,
    which no rewriting plays, must apply where the answers differ."""
    convoyed = _convoyed_dislodgements(board, request)
    if same(ours, mila, ignore_retreats_of=convoyed):
        return "retreats"

    def played(emulated: Request) -> bool:
        again = handle(emulated)
        return same(again, mila, ignore_retreats_of=convoyed | _convoyed_dislodgements(board, emulated))

    emulated = _without_fallback(board, request)
    if emulated != request and played(emulated):
        return "fallback"
    for name, disrupted in _DISRUPTIONS.items():
        convoys = disrupted(board, request)
        if convoys and played(_without_convoys(request, convoys)):
            return name
    if _via_own_support(board, request) & _differing(ours, mila):
        return "via_own_support"
    return None
