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

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from .map import ARMY, FLEET, SEA, UNIT_NAMES, Map, Province, province_of
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
from .phase import ADJUSTMENT, RETREAT
from .position import Position, Unit

__all__ = ["find_location", "parse_order", "parse_orders", "split_orders"]

# -- vocabulary ---------------------------------------------------------------------------


def _phrases(*texts: str) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(t.split()) for t in texts)


TYPES = {"a": ARMY, "army": ARMY, "f": FLEET, "fleet": FLEET}
WINGS = {"w", "wing"}
HOLD = _phrases("h", "hold", "holds", "stand", "stands")
MOVE = _phrases("-", "m", "move", "moves", "move to", "moves to", "to")
SUPPORT = _phrases("s", "support", "supports", "sup", "supp")
CONVOY = _phrases(
    "c", "convoy", "convoys", "transport", "transports", "t", "fast ferry", "ferry", "ff", "f"
)
PROXY = _phrases("p", "proxy", "proxy to")
TRANSFORM = _phrases("transform", "transforms", "transform to", "transforms to", "trafo", "tr")
VIA_CONVOY = _phrases("via convoy", "by convoy", "via c")
RETREAT_WORDS = _phrases("r", "retreat", "retreats", "retreat to", "retreats to")
DISBAND = _phrases("d", "disband", "disbands")
BUILD = _phrases("b", "build", "builds", "+")
REMOVE = _phrases("r", "remove", "removes", "d", "disband", "disbands", "-", "*")
WAIVE = _phrases("w", "waive", "waives")
FILLERS = {"the", "in", "at", "unit", "from", "of"}
DIRECTIONS = {"n": "n", "north": "n", "s": "s", "south": "s", "e": "e", "east": "e", "w": "w", "west": "w"}
DEFAULT_RAILWAY_WORDS = (
    "tsr",
    "trans siberian railway",
    "trans siberian railroad",
    "trans siberian express railroad",
)
RAILWAY = "<railway>"

_TOKEN = re.compile(r"->|=>|-+>|[-\u2010-\u2015]|[/()+*:]|[a-z0-9'&]+|\S")
_WORD = re.compile(r"[a-z0-9'&]+")
_SPLIT = re.compile(r"[\n;,]")


def _norm(text: str) -> str:
    """Lower case, no dots, hyphens and runs of blanks as one space."""
    text = text.lower().replace(".", "")
    text = re.sub(r"[-\u2010-\u2015_]", " ", text)
    return " ".join(text.split())


def _tokens(text: str) -> list[str]:
    """Words and symbols. A hyphen written tight between two words (``mid-atlantic``) is
    ``~``: it may join a name or separate two provinces; every other arrow is ``-``."""
    text = text.lower().replace(".", "")
    out: list[str] = []
    for mo in _TOKEN.finditer(text):
        tok = mo.group()
        if tok in ("->", "=>") or tok.endswith(">") or re.fullmatch(r"[-\u2010-\u2015]", tok):
            start, end = mo.start(), mo.end()
            tight = (
                len(tok) == 1
                and start > 0
                and end < len(text)
                and text[start - 1].isalnum()
                and text[end].isalnum()
            )
            out.append("~" if tight else "-")
        else:
            out.append(tok)
    return out


def _is_word(tok: str | None) -> bool:
    return tok is not None and _WORD.fullmatch(tok) is not None


@dataclass(frozen=True)
class _Names:
    """The map's names, normalised: text -> province, and the longest name in words."""

    names: Mapping[str, str]
    longest: int
    railway: frozenset[str]
    nations: Mapping[str, str]


@cache
def _names(m: Map) -> _Names:
    names: dict[str, str] = {}
    for key, loc in m.aliases.items():
        if "/" in loc or "/" in key or "(" in key:
            continue
        names.setdefault(_norm(key), loc)
    for prov in m.provinces.values():
        names.setdefault(_norm(prov.name), prov.abbr)
        names.setdefault(prov.abbr, prov.abbr)
    railway_data = m.rules.get("railway")
    words: Iterable[str] = DEFAULT_RAILWAY_WORDS
    if isinstance(railway_data, Mapping):
        words = (*DEFAULT_RAILWAY_WORDS, *(str(w) for w in railway_data.get("keywords", ())))
    railway = frozenset(_norm(w) for w in words)
    nations: dict[str, str] = {}
    for pw in m.powers:
        nations[_norm(pw.name)] = pw.name
        nations[_norm(pw.adjective)] = pw.name
    longest = max(len(k.split()) for k in (*names, *railway, *nations))
    return _Names(names, longest, railway, nations)


# -- reading tokens -----------------------------------------------------------------------


@dataclass
class _Place:
    province: str
    coast: str | None  # a coast of the province, if one was written and exists
    written: str  # the text as written, for messages
    odd_coast: bool = False  # a coast was written that the province does not have


class _Cursor:
    def __init__(self, m: Map, text: str) -> None:
        self.m = m
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.idx = _names(m)

    # basic
    def peek(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def take_phrase(self, phrases: frozenset[tuple[str, ...]]) -> tuple[str, ...] | None:
        for n in (3, 2, 1):
            got = tuple("-" if t == "~" else t for t in self.toks[self.i : self.i + n])
            if len(got) == n and got in phrases:
                self.i += n
                return got
        return None

    def at_phrase(self, phrases: frozenset[tuple[str, ...]]) -> bool:
        start = self.i
        found = self.take_phrase(phrases) is not None
        self.i = start
        return found

    def expect_end(self) -> None:
        if not self.done():
            raise self.error(f"Unrecognized word {self.peek()!r} at the end of the order.")

    def error(self, message: str) -> OrderError:
        return OrderError(message, self.text)

    # names
    def _spans(self) -> list[tuple[str, int]]:
        """Candidate word runs at the cursor, longest first, with their end index."""
        out: list[tuple[str, int]] = []
        words: list[str] = []
        j = self.i
        while j < len(self.toks) and len(words) < self.idx.longest and _is_word(self.toks[j]):
            words.append(self.toks[j])
            j += 1
            out.append((" ".join(words), j))
            if self.peek(j - self.i) == "~" and _is_word(self.peek(j - self.i + 1)):
                j += 1
        return out[::-1]

    def _exact(self, table: Mapping[str, str]) -> tuple[str, int] | None:
        for text, end in self._spans():
            if text in table:
                return table[text], end
        return None

    def take_railway(self) -> bool:
        for text, end in self._spans():
            if text in self.idx.railway:
                self.i = end
                return True
        return False

    def take_nation(self) -> str | None:
        found = self._exact(self.idx.nations)
        if found is None:
            return None
        self.i = found[1]
        return found[0]

    def starts_place(self) -> bool:
        """True if a province name (exact or a prefix of one) starts at the cursor."""
        if self._exact(self.idx.names) is not None:
            return True
        try:
            return self._prefix() is not None
        except OrderError:
            return True

    def _prefix(self) -> tuple[str, int] | None:
        for text, end in self._spans():
            if len(text.split()[-1]) < 3:
                continue
            found = {loc for name, loc in self.idx.names.items() if name.startswith(text)}
            if len(found) == 1:
                return found.pop(), end
            if found:
                names = sorted(self.m.provinces[p].name for p in found)
                listed = ", ".join(names[:-1]) + " or " + names[-1]
                raise self.error(f"{text!r} is ambiguous: it could be {listed}.")
        return None

    def take_place(self, what: str = "a province") -> _Place:
        self.skip_fillers()
        if self.done():
            raise self.error(f"The order ends where {what} was expected.")
        found = self._exact(self.idx.names) or self._prefix()
        if found is None:
            tok = self.peek()
            if not _is_word(tok):
                raise self.error(f"Expected {what}, not {tok!r}.")
            raise self.error(f"Unrecognized province {tok!r}.")
        start = self.i
        province, self.i = found
        written = " ".join(t for t in self.toks[start : self.i] if t != "~")
        prov = self.m.provinces[province]
        if prov.kind == SEA and self.peek() in ("sea", "ocean"):
            self.i += 1  # DPjudge's "fleet nwg sea C norway - edi"
        return self._take_coast(prov, written)

    def _take_coast(self, prov: Province, written: str) -> _Place:
        tok = self.peek()
        direction: str | None = None
        if tok in ("/", "("):
            self.i += 1
            word = self.peek()
            code = self._coast_word(prov, word)
            if code is None:
                raise self.error(f"Unrecognized coast {word!r}." if word else "The order ends inside a coast.")
            self.i += 1
            if self.peek() == "coast":
                self.i += 1
            if tok == "(":
                if self.peek() != ")":
                    raise self.error("A coast written '(' needs its ')'.")
                self.i += 1
            direction = code
        elif tok in ("nc", "sc", "ec", "wc") or (tok in prov.coasts and tok is not None):
            self.i += 1
            if self.peek() == "coast":
                self.i += 1
            direction = tok
        elif tok in DIRECTIONS and len(tok) > 1 and (self.peek(1) == "coast" or prov.coasts):
            self.i += 1
            if self.peek() == "coast":
                self.i += 1
            direction = DIRECTIONS[tok] + "c"
        if direction is None:
            return _Place(prov.abbr, None, written)
        written = f"{written}/{direction}"
        if direction in prov.coasts:
            return _Place(prov.abbr, direction, written)
        return _Place(prov.abbr, None, written, odd_coast=True)

    @staticmethod
    def _coast_word(prov: Province, word: str | None) -> str | None:
        if word is None:
            return None
        if word in prov.coasts or word in ("nc", "sc", "ec", "wc"):
            return word
        if word in DIRECTIONS:
            return DIRECTIONS[word] + "c"
        if word.endswith("coast") and word[:-5] in DIRECTIONS:
            return DIRECTIONS[word[:-5]] + "c"
        return None

    def skip_fillers(self) -> None:
        while self.peek() in FILLERS and self._exact(self.idx.names) is None:
            self.i += 1

    def take_type(self) -> str | None:
        tok = self.peek()
        if tok in WINGS and self._exact(self.idx.names) is None:
            raise self.error("Wings are not used in this game.")
        if tok in TYPES and _is_word(self.peek(1)):
            self.i += 1
            return TYPES[tok]
        return None


# -- the unit ordered ---------------------------------------------------------------------


def _where(m: Map, province: str) -> str:
    return m.location_name(province, article=True)


def _unit_name(m: Map, unit: Unit) -> str:
    return f"{UNIT_NAMES[unit.type]} {m.location_name(unit.location)}"


def _own_unit(cur: _Cursor, position: Position, power: str, *, dislodged: bool = False) -> Unit:
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


def _other_unit(cur: _Cursor, position: Position) -> _Other:
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


def _destination(cur: _Cursor, unit: Unit, place: _Place, reachable: Iterable[str] | None = None) -> str:
    """The location a unit moving (or retreating) to ``place`` goes to."""
    m = cur.m
    prov = m.provinces[place.province]
    if unit.type == ARMY or not prov.coasts:
        return place.province  # DATC 4.B.6: a coast on an army move is ignored
    if place.coast is not None:
        loc = f"{place.province}/{place.coast}"
        if loc not in m.fleet_adj.get(unit.location, ()):
            raise cur.error(f"{_unit_name(m, unit)} cannot reach {m.location_name(loc)}.")
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
            f"{_unit_name(m, unit)} must specify a coast to move to {prov.name}: {coasts}."
        )
    return place.province  # unreachable: validation says so


def _chain(cur: _Cursor) -> list[_Place | str]:
    """``place (move place)*``; the railway keyword may stand for a place."""
    items: list[_Place | str] = []
    while True:
        if cur.take_railway():
            items.append(RAILWAY)
        else:
            items.append(cur.take_place("the destination"))
        if cur.done() or cur.at_phrase(VIA_CONVOY):
            return items
        if cur.take_phrase(MOVE) is None and not (cur.starts_place() or _at_railway(cur)):
            return items


def _at_railway(cur: _Cursor) -> bool:
    start = cur.i
    found = cur.take_railway()
    cur.i = start
    return found


def _move(cur: _Cursor, unit: Unit) -> Move:
    items = _chain(cur)
    via_convoy = cur.take_phrase(VIA_CONVOY) is not None
    cur.expect_end()
    m = cur.m
    if RAILWAY in items:
        if "railway" not in m.rules:
            raise cur.error("This map has no railway.")
        places = [p for p in items if isinstance(p, _Place)]
        if len(places) != 1 or items[-1] == RAILWAY:
            raise cur.error("Write a railway move as 'A mos - TSR - vla'.")
        return Move(unit, _destination(cur, unit, places[0]), via="railway")
    places = [p for p in items if isinstance(p, _Place)]
    route = tuple(p.province for p in places[:-1])
    if route and unit.type != ARMY:
        raise cur.error("Only an army can be convoyed; a fleet moves one province at a time.")
    dest = _destination(cur, unit, places[-1])
    return Move(unit, dest, via_convoy=via_convoy or bool(route), route=route)


def _support(cur: _Cursor, position: Position, unit: Unit) -> Support:
    other = _other_unit(cur, position)
    if cur.done() or cur.take_phrase(HOLD) is not None:
        cur.expect_end()
        return Support(unit, other.province, None, other.type, other.power)
    if cur.take_phrase(MOVE) is None and not (cur.starts_place() or _at_railway(cur)):
        raise cur.error(f"Unrecognized word {cur.peek()!r}: expected HOLD or a move after the supported unit.")
    places = [p for p in _chain(cur) if isinstance(p, _Place)]  # 'S A mos TSR oms' too (spec 2.2)
    cur.take_phrase(VIA_CONVOY)
    cur.expect_end()
    if not places:
        raise cur.error("Support a railway move by its destination: 'A mos S A oms - vla'.")
    dest = places[-1]
    written = f"{dest.province}/{dest.coast}" if dest.coast else dest.province
    # DATC 4.B.4: supports go to provinces; a written coast is kept in target_dest only
    return Support(unit, other.province, dest.province, other.type, other.power, written)


def _convoy(cur: _Cursor, position: Position, unit: Unit) -> Convoy:
    other = _other_unit(cur, position)
    if cur.done():
        raise cur.error("A convoy order needs the army's destination: 'F nth C A lon - nwy'.")
    if cur.take_phrase(MOVE) is None and not cur.starts_place():
        raise cur.error(f"Unrecognized word {cur.peek()!r}: expected the convoyed army's destination.")
    places = [p for p in _chain(cur) if isinstance(p, _Place)]
    cur.take_phrase(VIA_CONVOY)
    cur.expect_end()
    if not places:
        raise cur.error("A railway move cannot be convoyed.")
    return Convoy(unit, other.province, places[-1].province, other.power)


# -- the three phases ---------------------------------------------------------------------


def _wrong_phase(cur: _Cursor, kind: str) -> None:
    """Words that belong to another phase give a message naming the phase."""
    first = cur.peek()
    if kind != ADJUSTMENT and first in ("b", "build", "builds", "waive", "waives", "+"):
        raise cur.error("Builds and waives are ordered only in the adjustment phase.")
    if kind != RETREAT and first in ("disband", "disbands", "remove", "removes", "retreat", "retreats"):
        raise cur.error("Units are disbanded or retreat only after they are dislodged.")


def _movement(cur: _Cursor, position: Position, power: str) -> Order:
    _wrong_phase(cur, "M")
    unit = _own_unit(cur, position, power)
    name = _unit_name(cur.m, unit)
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


def _retreat(cur: _Cursor, position: Position, power: str) -> Order:
    _wrong_phase(cur, RETREAT)
    lead = "disband" if cur.take_phrase(DISBAND) else "retreat" if cur.take_phrase(RETREAT_WORDS) else None
    unit = _own_unit(cur, position, power, dislodged=True)
    name = _unit_name(cur.m, unit)
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


def _adjustment(cur: _Cursor, position: Position, power: str) -> list[Order]:
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


def _canonical(m: Map, token: str) -> str | None:
    """``token`` if it is exactly a canonical location of the map, else None."""
    if token in m.provinces:
        return token
    if "/" in token and (token in m.fleet_adj):
        return token
    return None


def _fast_movement(m: Map, position: Position, power: str, text: str) -> Order | None:
    """The orders a program writes (``A par - bur``, ``F nth C A lon - nwy``, ``A mun S A
    ber - sil``, ``A par H``) in canonical abbreviations, read without the full reader.
    Anything else (or anything doubtful) returns None and takes the full path, which gives
    the same order or the player's error message."""
    words = text.lower().split()
    n = len(words)
    if n < 3 or words[0] not in ("a", "f"):
        return None
    loc = _canonical(m, words[1])
    if loc is None:
        return None
    unit = position.units.get(province_of(loc))
    if unit is None or unit.power != power or unit.type != words[0].upper() or (
        "/" in loc and loc != unit.location
    ):
        return None
    verb = words[2]
    if n == 3 and verb in ("h", "hold"):
        return Hold(unit)
    if n == 4 and verb == "-":
        dest = _canonical(m, words[3])
        if dest is None:
            return None
        target = m.provinces[province_of(dest)]
        if unit.type == ARMY:
            return Move(unit, dest) if "/" not in dest else None
        if target.coasts and (dest not in m.fleet_adj.get(unit.location, ())):
            return None
        return Move(unit, dest)
    if verb in ("s", "support", "c", "convoy") and n in (5, 7) and words[3] in ("a", "f"):
        other_loc = _canonical(m, words[4])
        if other_loc is None:
            return None
        other = position.units.get(province_of(other_loc))
        if other is None:
            return None
        if verb in ("s", "support"):
            if n == 5:
                return Support(unit, other.province, None, other.type, other.power)
            dest = _canonical(m, words[6]) if words[5] == "-" else None
            if dest is None:
                return None
            return Support(unit, other.province, province_of(dest), other.type, other.power, dest)
        if n == 7 and words[5] == "-" and words[3] == "a":
            dest = _canonical(m, words[6])
            if dest is None or "/" in dest:
                return None
            return Convoy(unit, other.province, dest, other.power)
    return None


def _fast_other(m: Map, position: Position, power: str, text: str) -> Order | None:
    """Retreats (``A mun - boh``, ``A mun disband``) and adjustments (``build A ber``,
    ``build F stp/nc``, ``remove A ber``) in canonical form; None means: take the full path."""
    words = text.lower().split()
    if len(words) < 3:
        return None
    if position.phase.kind == RETREAT:
        if words[0] not in ("a", "f"):
            return None
        loc = _canonical(m, words[1])
        entry = position.dislodged.get(province_of(loc)) if loc else None
        if entry is None or entry.unit.power != power or entry.unit.type != words[0].upper():
            return None
        if len(words) == 3 and words[2] in ("d", "disband"):
            return Disband(entry.unit)
        if len(words) == 4 and words[2] in ("-", "r") and words[3] in entry.retreats:
            return Retreat(entry.unit, words[3])
        return None
    if len(words) != 3 or words[1] not in ("a", "f"):
        return None
    loc = _canonical(m, words[2])
    if loc is None:
        return None
    if words[0] == "build":
        prov = m.provinces[province_of(loc)]
        if (words[1] == "a" and "/" in loc) or (words[1] == "f" and prov.coasts and "/" not in loc):
            return None
        return Build(Unit(power, words[1].upper(), loc))
    if words[0] == "remove":
        there = position.units.get(province_of(loc))
        if there is None or there.power != power or there.type != words[1].upper():
            return None
        return Remove(there)
    return None


def _parse(m: Map, position: Position, power: str, text: str) -> list[Order]:
    fast = (
        _fast_movement(m, position, power, text) if position.phase.kind == "M"
        else _fast_other(m, position, power, text)
    )
    if fast is not None:
        return [fast]
    cur = _Cursor(m, text)
    if cur.done():
        raise cur.error("Empty order.")
    # "Germany: A mun - ber" (a pasted result line)
    if cur.peek(1) == ":" or cur.peek(2) == ":":
        start = cur.i
        nation = cur.take_nation()
        if nation is not None and cur.peek() == ":":
            if nation != power:
                raise cur.error(f"You cannot order the units of {nation}.")
            cur.i += 1
        else:
            cur.i = start
    kind = position.phase.kind
    if kind == ADJUSTMENT:
        return _adjustment(cur, position, power)
    if kind == RETREAT:
        return [_retreat(cur, position, power)]
    return [_movement(cur, position, power)]


def parse_order(m: Map, position: Position, power: str, text: str) -> Order:
    """Read one order of ``power`` for the phase of ``position``; raise :class:`OrderError`
    with a message for the player."""
    orders = _parse(m, position, power, text)
    if len(orders) != 1:
        raise OrderError(f"{text.strip()!r} is {len(orders)} orders; send them in a list of orders.", text)
    return orders[0]


def split_orders(text: str) -> list[str]:
    """The non-blank pieces of ``text`` split on newlines, commas and semicolons."""
    return [piece.strip() for piece in _SPLIT.split(text) if piece.strip()]


def parse_orders(m: Map, position: Position, power: str, text: str) -> list[Order | OrderError]:
    """Read every order in ``text``; a piece that cannot be read gives its OrderError in
    its place. ``waive 2`` gives two Waive orders."""
    out: list[Order | OrderError] = []
    for piece in split_orders(text):
        try:
            out.extend(_parse(m, position, power, piece))
        except OrderError as exc:
            exc.text = piece
            out.append(exc)
    return out


def find_location(m: Map, text: str) -> str:
    """The location named by ``text`` (``"stp/nc"``, ``"lon"``); OrderError if it is
    unknown, ambiguous or names a coast the province does not have."""
    cur = _Cursor(m, text)
    place = cur.take_place()
    cur.expect_end()
    if place.odd_coast:
        raise cur.error(f"{m.provinces[place.province].name} has no coast {place.written.split('/')[-1]!r}.")
    return f"{place.province}/{place.coast}" if place.coast else place.province
