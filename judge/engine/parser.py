"""Reading orders as players type them.

The grammar is njudge's (``data/syntax.txt``) with DPjudge's leniencies: the unit type is
optional, the order words have many spellings (``-``, ``->``, ``m``, ``moves to``; ``s``,
``supports``; ``c``, ``convoys``, ``transport``), a dash may be left out between two
provinces, and a province is its full name, abbreviation or alias in any case, matched
greedily over several words (``gulf of lyon``) or as the unambiguous start of a name
(``bohem``). Coasts are written ``/nc``, ``(nc)``, `` nc``, ``north coast``, ``/north``,
``n.c.``.

The phase decides what is read: movement (hold, move, support, convoy), retreat (retreat,
disband) or adjustment (build, remove, waive). The unit ordered must be the power's own and
must stand where the order says (in ``position.dislodged`` during retreats). What the
DATC leaves open is decided for its preferred choices: a wrong unit type or a wrong coast of
the ordered unit is ignored (4.C.1, 4.B.5), a coast on an army move or an unknown coast is
ignored (4.B.6), nationality words are ignored (4.C.5, 4.C.6), a fleet moving to a
split-coast province it reaches on one coast only goes there (4.B.2), and an omitted coast
that two coasts would fit (4.B.1) or a coast the fleet cannot reach (4.B.3) is an error.
Nothing is guessed silently: an ambiguous name is an error that lists the candidates.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .lexicon import (
    BUILD,
    CONVOY,
    DISBAND,
    HOLD,
    MOVE,
    PROXY,
    RAILWAY,
    REMOVE,
    RETREAT_WORDS,
    SPLIT,
    SUPPORT,
    TRANSFORM,
    VIA_CONVOY,
    WAIVE,
    Cursor,
    Place,
)
from .map import ARMY, FLEET, Map
from .notation import describe_unit
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderError,
    Remove,
    Retreat,
    Support,
    Waive,
)
from .phase import ADJUSTMENT, MOVEMENT, RETREAT
from .position import Position, Unit
from .shorthand import read_movement, read_retreat_or_adjustment

if TYPE_CHECKING:
    from .board import Board

__all__ = ["Named", "find_location", "named_unit", "parse_order", "parse_orders", "split_orders"]


# -- the unit ordered ---------------------------------------------------------------------


def _where(m: Map, province: str) -> str:
    return m.location_name(province, article=True)


def _own_unit(cur: Cursor, position: Position, power: str, *, dislodged: bool = False) -> Unit:
    """Read ``[type] province [coast]`` and find that unit of ``power``."""
    cur.skip_fillers()
    cur.take_type()  # DATC 4.C.1/4.C.2: a missing or wrong type is ignored
    cur.skip_fillers()
    place = cur.take_place("the unit's province")
    m = cur.m
    if dislodged:
        entry = position.dislodged.get(place.province)
        unit = entry.unit if entry is not None else None
        if unit is None:
            raise cur.error(f"No dislodged unit in {_where(m, place.province)}.")
    else:
        unit = position.units.get(place.province)
        if unit is None:
            raise cur.error(f"No unit in {_where(m, place.province)}.")
    if unit.power != power:
        raise cur.error(f"The unit in {_where(m, place.province)} is not yours.")
    return unit  # DATC 4.B.5: a wrong coast of the ordered unit is ignored


@dataclass
class _Other:
    """A unit referred to in a support or convoy: as written, and what stands there."""

    province: str
    type: str | None
    power: str | None


def _other_unit(cur: Cursor, position: Position) -> _Other:
    cur.skip_fillers()
    nation = None
    if cur._exact(cur.idx.names) is None:
        nation = cur.take_nation()  # DATC 4.C.5/4.C.6: nationality is ignored
    cur.skip_fillers()
    utype = cur.take_type()
    cur.skip_fillers()
    place = cur.take_place("the province of the unit")
    there = position.units.get(place.province)
    if there is not None:
        return _Other(place.province, there.type, there.power)
    return _Other(place.province, utype, nation)


# -- moves and coasts ---------------------------------------------------------------------


def _destination(cur: Cursor, unit: Unit, place: Place, reachable: Iterable[str] | None = None) -> str:
    """The location a unit moving (or retreating) to ``place`` goes to."""
    m = cur.m
    prov = m.provinces[place.province]
    if unit.type == ARMY or not prov.coasts:
        return place.province  # DATC 4.B.6: a coast on an army move is ignored
    if place.coast is not None:
        loc = f"{place.province}/{place.coast}"
        if loc not in m.fleet_adj.get(unit.location, ()):
            raise cur.error(f"{describe_unit(m, unit)} cannot reach {m.location_name(loc)}.")
        return loc
    options = list(reachable) if reachable is not None else []
    fits = [loc for loc in m.fleet_locations(place.province) if loc in options]
    if not fits:
        fits = [loc for loc in m.fleet_locations(place.province) if loc in m.fleet_adj.get(unit.location, ())]
    if len(fits) == 1:
        return fits[0]  # DATC 4.B.2
    if len(fits) > 1:
        coasts = " or ".join(prov.coast_names.get(c, c).lower() for c in prov.coasts)
        raise cur.error(
            f"{describe_unit(m, unit)} must specify a coast to move to {prov.name}: {coasts}."
        )
    return place.province  # unreachable: validation says so


def _chain(cur: Cursor) -> list[Place | str]:
    """``place (move place)*``; the railway keyword may stand for a place."""
    items: list[Place | str] = []
    while True:
        if cur.take_railway():
            items.append(RAILWAY)
        else:
            items.append(cur.take_place("the destination"))
        if cur.done() or cur.at_phrase(VIA_CONVOY):
            return items
        if cur.take_phrase(MOVE) is None and not (cur.starts_place() or _at_railway(cur)):
            return items


def _at_railway(cur: Cursor) -> bool:
    start = cur.i
    found = cur.take_railway()
    cur.i = start
    return found


def _move(cur: Cursor, unit: Unit) -> Move:
    items = _chain(cur)
    via_convoy = cur.take_phrase(VIA_CONVOY) is not None
    cur.expect_end()
    m = cur.m
    if RAILWAY in items:
        if "railway" not in m.rules:
            raise cur.error("This map has no railway.")
        places = [p for p in items if isinstance(p, Place)]
        if len(places) != 1 or items[-1] == RAILWAY:
            raise cur.error("Write a railway move as 'A mos - TSR - vla'.")
        return Move(unit, _destination(cur, unit, places[0]), via="railway")
    places = [p for p in items if isinstance(p, Place)]
    route = tuple(p.province for p in places[:-1])
    if route and unit.type != ARMY:
        raise cur.error("Only an army can be convoyed; a fleet moves one province at a time.")
    dest = _destination(cur, unit, places[-1])
    return Move(unit, dest, via_convoy=via_convoy or bool(route), route=route)


def _support(cur: Cursor, position: Position, unit: Unit) -> Support:
    other = _other_unit(cur, position)
    if cur.done() or cur.take_phrase(HOLD) is not None:
        cur.expect_end()
        return Support(unit, other.province, None, other.type, other.power)
    if cur.take_phrase(MOVE) is None and not (cur.starts_place() or _at_railway(cur)):
        raise cur.error(f"Unrecognized word {cur.peek()!r}: expected HOLD or a move after the supported unit.")
    places = [p for p in _chain(cur) if isinstance(p, Place)]  # 'S A mos TSR oms' too (spec 2.2)
    cur.take_phrase(VIA_CONVOY)
    cur.expect_end()
    if not places:
        raise cur.error("Support a railway move by its destination: 'A mos S A oms - vla'.")
    dest = places[-1]
    written = f"{dest.province}/{dest.coast}" if dest.coast else dest.province
    # DATC 4.B.4: supports go to provinces; a written coast is kept in target_dest only
    return Support(unit, other.province, dest.province, other.type, other.power, written)


def _convoy(cur: Cursor, position: Position, unit: Unit) -> Convoy:
    other = _other_unit(cur, position)
    if cur.done():
        raise cur.error("A convoy order needs the army's destination: 'F nth C A lon - nwy'.")
    if cur.take_phrase(MOVE) is None and not cur.starts_place():
        raise cur.error(f"Unrecognized word {cur.peek()!r}: expected the convoyed army's destination.")
    places = [p for p in _chain(cur) if isinstance(p, Place)]
    cur.take_phrase(VIA_CONVOY)
    cur.expect_end()
    if not places:
        raise cur.error("A railway move cannot be convoyed.")
    return Convoy(unit, other.province, places[-1].province, other.power)


# -- the three phases ---------------------------------------------------------------------


def _wrong_phase(cur: Cursor, kind: str) -> None:
    """Words that belong to another phase give a message naming the phase."""
    first = cur.peek()
    if kind != ADJUSTMENT and first in ("b", "build", "builds", "waive", "waives", "+"):
        raise cur.error("Builds and waives are ordered only in the adjustment phase.")
    if kind != RETREAT and first in ("disband", "disbands", "remove", "removes", "retreat", "retreats"):
        raise cur.error("Units are disbanded or retreat only after they are dislodged.")


def _movement(cur: Cursor, position: Position, power: str) -> Order:
    _wrong_phase(cur, "M")
    unit = _own_unit(cur, position, power)
    name = describe_unit(cur.m, unit)
    if cur.done():
        raise cur.error(f"The order for {name} is missing: add HOLD, a move, SUPPORT or CONVOY.")
    if cur.take_phrase(HOLD) is not None:
        cur.expect_end()
        return Hold(unit)
    if cur.take_phrase(SUPPORT) is not None:
        return _support(cur, position, unit)
    if cur.take_phrase(MOVE) is not None or cur.starts_place() or _at_railway(cur):
        return _move(cur, unit)
    if cur.take_phrase(CONVOY) is not None:
        return _convoy(cur, position, unit)
    if cur.at_phrase(PROXY):
        raise cur.error("Proxy orders are not used in this game.")
    if cur.at_phrase(TRANSFORM):
        raise cur.error("Transform orders are not used in this game.")
    if cur.at_phrase(DISBAND) or cur.at_phrase(RETREAT_WORDS):
        raise cur.error("Units are disbanded or retreat only after they are dislodged.")
    raise cur.error(f"Unrecognized word {cur.peek()!r}: expected HOLD, a move, SUPPORT or CONVOY.")


def _retreat(cur: Cursor, position: Position, power: str) -> Order:
    _wrong_phase(cur, RETREAT)
    lead = "disband" if cur.take_phrase(DISBAND) else "retreat" if cur.take_phrase(RETREAT_WORDS) else None
    unit = _own_unit(cur, position, power, dislodged=True)
    name = describe_unit(cur.m, unit)
    if cur.done():
        if lead == "disband":
            return Disband(unit)
        raise cur.error(f"The order for the dislodged {name} is missing: retreat to a province or DISBAND.")
    if lead is None and cur.take_phrase(DISBAND) is not None:
        cur.expect_end()
        return Disband(unit)
    if lead == "disband":
        cur.expect_end()
    if cur.take_phrase(RETREAT_WORDS) is None and cur.take_phrase(MOVE) is None and not cur.starts_place():
        if cur.at_phrase(HOLD) or cur.at_phrase(SUPPORT) or cur.at_phrase(CONVOY):
            raise cur.error("A dislodged unit can only retreat or disband.")
        raise cur.error(f"Unrecognized word {cur.peek()!r}: expected a retreat or DISBAND.")
    place = cur.take_place("the province to retreat to")
    cur.expect_end()
    retreats = position.dislodged[unit.province].retreats
    return Retreat(unit, _destination(cur, unit, place, retreats))


def _adjustment(cur: Cursor, position: Position, power: str) -> list[Order]:
    m = cur.m
    waive = cur.take_phrase(WAIVE) is not None
    action = None
    if not waive:
        action = "build" if cur.take_phrase(BUILD) else "remove" if cur.take_phrase(REMOVE) else None
        if action == "build" and cur.take_phrase(WAIVE) is not None:
            waive = True
    if waive:
        count = 1
        tok = cur.peek()
        if tok is not None and tok.isdigit():
            count = int(tok)
            cur.i += 1
        elif not cur.done():
            nation = cur.take_nation()
            letter = m.power_by_letter.get(tok.upper()) if tok is not None and len(tok) == 1 else None
            if nation is None and letter is not None:
                nation = letter.name
                cur.i += 1
            if nation is not None and nation != power:
                raise cur.error(f"You can only waive builds of {power}.")
        cur.expect_end()
        if count < 1:
            raise cur.error("Waive at least one build.")
        return [Waive(power) for _ in range(count)]
    if cur.at_phrase(TRANSFORM):
        raise cur.error("Transform orders are not used in this game.")
    cur.skip_fillers()
    utype = cur.take_type()
    cur.skip_fillers()
    place = cur.take_place("the province")
    moving = cur.at_phrase(MOVE) and cur.peek(1) is not None
    if action is None and (moving or cur.at_phrase(HOLD) or cur.at_phrase(SUPPORT) or cur.at_phrase(CONVOY)):
        raise cur.error("Only builds, removals and waives are ordered in the adjustment phase.")
    if action is None:
        tail = "build" if cur.take_phrase(BUILD) else "remove" if cur.take_phrase(REMOVE) else None
        action = tail
    cur.expect_end()
    there = position.units.get(place.province)
    if action is None:  # njudge: <build> and <remove> may be empty
        action = "remove" if there is not None and there.power == power else "build"
    if action == "remove":
        if there is None:
            raise cur.error(f"No unit in {_where(m, place.province)}.")
        if there.power != power:
            raise cur.error(f"The unit in {_where(m, place.province)} is not yours.")
        return [Remove(there)]
    if utype is None:  # DATC 4.C.3: an army, or a fleet where a coast is written
        utype = FLEET if place.coast is not None else ARMY
    loc = place.province
    if utype == FLEET and place.coast is not None:
        loc = f"{place.province}/{place.coast}"  # DATC 4.B.7: checked by validation
    return [Build(Unit(power, utype, loc))]


# -- public API ---------------------------------------------------------------------------


def _shorthand(board: Board, position: Position, power: str, text: str) -> Order | None:
    """The order in the plain form programs write, or None (see ``shorthand.py``)."""
    if position.phase.kind == MOVEMENT:
        return read_movement(board.map, position, power, text)
    return read_retreat_or_adjustment(board.map, position, power, text)


def _parse(board: Board, position: Position, power: str, text: str) -> list[Order]:
    fast = _shorthand(board, position, power, text)
    if fast is not None:
        return [fast]
    return _grammar(board, position, power, text)


def _start(m: Map, text: str) -> tuple[Cursor, str | None]:
    """A cursor on ``text`` past a leading ``Germany:`` (a pasted result line), and that power."""
    cur = Cursor(m, text)
    if cur.done():
        raise cur.error("Empty order.")
    if cur.peek(1) == ":" or cur.peek(2) == ":":
        start = cur.i
        nation = cur.take_nation()
        if nation is not None and cur.peek() == ":":
            cur.i += 1
            return cur, nation
        cur.i = start
    return cur, None


def _grammar(board: Board, position: Position, power: str, text: str) -> list[Order]:
    cur, nation = _start(board.map, text)
    if nation is not None and nation != power:
        raise cur.error(f"You cannot order the units of {nation}.")
    kind = position.phase.kind
    if kind == ADJUSTMENT:
        return _adjustment(cur, position, power)
    if kind == RETREAT:
        return [_retreat(cur, position, power)]
    return [_movement(cur, position, power)]


def parse_order(board: Board, position: Position, power: str, text: str) -> Order:
    """Read one order of ``power`` for the phase of ``position`` on ``board``; raise
    :class:`OrderError` with a message for the player."""
    orders = _parse(board, position, power, text)
    if len(orders) != 1:
        raise OrderError(f"{text.strip()!r} is {len(orders)} orders; send them in a list of orders.", text)
    return orders[0]


def split_orders(text: str) -> list[str]:
    """The non-blank pieces of ``text`` split on newlines, commas and semicolons."""
    if "\n" not in text and ";" not in text and "," not in text:  # one order, as tools send them
        piece = text.strip()
        return [piece] if piece else []
    return [piece.strip() for piece in SPLIT.split(text) if piece.strip()]


def parse_orders(board: Board, position: Position, power: str, text: str) -> list[Order | OrderError]:
    """Read every order in ``text``; a piece that cannot be read gives its OrderError in
    its place. ``waive 2`` gives two Waive orders."""
    m = board.map
    read = read_movement if position.phase.kind == MOVEMENT else read_retreat_or_adjustment
    if "\n" not in text and ";" not in text and "," not in text:  # one order, as tools send them
        fast = read(m, position, power, text)  # (it reads words: the spaces around do not matter)
        if fast is not None:
            return [fast]
    out: list[Order | OrderError] = []
    for piece in split_orders(text):
        fast = read(m, position, power, piece)
        if fast is not None:
            out.append(fast)
            continue
        try:
            out.extend(_grammar(board, position, power, piece))
        except OrderError as exc:
            exc.text = piece
            out.append(exc)
    return out


@dataclass(frozen=True, slots=True)
class Named:
    """What an order names before a position is known: the location of the unit it orders
    (or builds; None for a waive) and the adjustment it says, if any (``build``, ``remove``,
    ``waive``)."""

    location: str | None
    action: str | None = None


def named_unit(m: Map, text: str, kind: str) -> Named:
    """Read one order of a phase of ``kind`` (``M``, ``R``, ``A``) as far as the unit it
    orders, with the grammar :func:`parse_orders` reads it with, for orders written before
    their phase comes (whose units are not known yet); OrderError if even that cannot be read."""
    cur, _ = _start(m, text)
    action = None
    if kind == ADJUSTMENT:
        if cur.take_phrase(WAIVE) is not None:
            return Named(None, "waive")
        action = "build" if cur.take_phrase(BUILD) else "remove" if cur.take_phrase(REMOVE) else None
        if action == "build" and cur.at_phrase(WAIVE):
            return Named(None, "waive")
    elif kind == RETREAT and cur.take_phrase(DISBAND) is None:
        cur.take_phrase(RETREAT_WORDS)
    cur.skip_fillers()
    cur.take_type()
    cur.skip_fillers()
    place = cur.take_place("the unit's province")
    if kind == ADJUSTMENT and action is None:
        while not cur.done() and action is None:
            action = "build" if cur.take_phrase(BUILD) else "remove" if cur.take_phrase(REMOVE) else None
            if action is None:
                cur.i += 1
    coast = place.coast if place.coast and not place.odd_coast else None  # DATC 4.B.5: ignored
    return Named(f"{place.province}/{coast}" if coast else place.province, action)


def find_location(m: Map, text: str) -> str:
    """The location named by ``text`` (``"stp/nc"``, ``"lon"``); OrderError if it is
    unknown, ambiguous or names a coast the province does not have."""
    cur = Cursor(m, text)
    place = cur.take_place()
    cur.expect_end()
    if place.odd_coast:
        raise cur.error(f"{m.provinces[place.province].name} has no coast {place.written.split('/')[-1]!r}.")
    return f"{place.province}/{place.coast}" if place.coast else place.province

