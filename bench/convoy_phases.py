"""Seeded random Standard movement phases, heavy in convoys, as ``judge adjudicate`` requests.

Each phase puts 10 to 34 units on random provinces of random powers and orders them as
players under pressure would: convoy chains through one to four fleets (some broken by a
missing fleet, some disrupted by an attack on a chain fleet, some to an adjacent province
"via convoy"), supports of neighbours' moves and holds, plain moves and holds, and a few
illegal orders (a move to a province out of reach, a support into a province the supporter
cannot reach, a convoy by a fleet on a coast). Orders are written in the plain form every
engine reads (``A lon - bel``, ``F nth C A lon - bel``, ``A hol S A lon - bel``).

Used by ``adjudicate_contract.py``; ``python bench/convoy_phases.py N SEED`` prints N requests
as JSON Lines.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine import ARMY, FLEET, Map, province_of  # noqa: E402
from judge.maps import load_map  # noqa: E402

Request = dict[str, Any]


class _Phase:
    """One phase being laid out: who stands where and what each unit is told."""

    def __init__(self, m: Map, rng: random.Random) -> None:
        self.m = m
        self.rng = rng
        self.units: dict[str, tuple[str, str, str]] = {}  # province -> (power, type, location)
        self.orders: dict[str, str] = {}  # province -> order text

    def free(self, province: str) -> bool:
        return province not in self.units

    def place(self, power: str, utype: str, location: str) -> None:
        self.units[province_of(location)] = (power, utype, location)

    def text(self, province: str) -> str:
        _, utype, location = self.units[province]
        return f"{utype} {location}"


def _coastal_armies(m: Map) -> list[str]:
    return sorted(p.abbr for p in m.provinces.values() if p.kind == "coast")


def _chain(phase: _Phase, start: str) -> tuple[list[str], str] | None:
    """A chain of one to four free seas from coastal ``start`` to another coast, each fleet
    needed: no sea but the first borders ``start``, none borders an earlier one but its
    predecessor, and the destination borders only the last."""
    m, rng = phase.m, phase.rng
    reach = m.fleet_reach
    length = rng.choice((1, 1, 2, 2, 3, 4))
    seas: list[str] = []
    here = start
    for _ in range(length):
        options = sorted(
            p for p in reach.get(here, ()) if m.provinces[p].kind == "sea" and phase.free(p) and p not in seas
            and (not seas or start not in reach.get(p, ())) and not any(p in reach.get(s, ()) for s in seas[:-1])
        )
        if not options:
            break
        here = rng.choice(options)
        seas.append(here)
    if not seas:
        return None
    ends = sorted(
        p for p in reach.get(seas[-1], ()) if m.provinces[p].kind == "coast" and p != start
        and not any(p in reach.get(s, ()) for s in seas[:-1])
    )
    if not ends:
        return None
    return seas, rng.choice(ends)


def _convoy(phase: _Phase, powers: list[str]) -> None:
    """An army and the fleets of a chain, with their orders; now and then broken."""
    m, rng = phase.m, phase.rng
    starts = [p for p in _coastal_armies(m) if phase.free(p)]
    if not starts:
        return
    start = rng.choice(starts)
    found = _chain(phase, start)
    if found is None:
        return
    seas, end = found
    power = rng.choice(powers)
    phase.place(power, ARMY, start)
    via = " via convoy" if end in m.army_adj.get(start, ()) else ""
    phase.orders[start] = f"A {start} - {end}{via}"
    broken = len(seas) > 1 and rng.random() < 0.15
    for i, sea in enumerate(seas):
        if broken and i == len(seas) // 2:
            continue  # a fleet missing from the middle of the chain
        owner = power if rng.random() < 0.85 else rng.choice(powers)
        phase.place(owner, FLEET, sea)
        phase.orders[sea] = f"F {sea} C A {start} - {end}"
    if rng.random() < 0.3:  # an attack on a chain fleet, supported: the convoy may be disrupted
        target = rng.choice(seas)
        attackers = sorted(p for p in m.fleet_reach.get(target, ()) if phase.free(p)
                           and m.provinces[p].holds_fleets and not m.provinces[p].coasts)
        if len(attackers) >= 2:
            enemy = rng.choice([p for p in powers if p != power] or powers)
            first, second = rng.sample(attackers, 2)
            phase.place(enemy, FLEET, first)
            phase.place(enemy, FLEET, second)
            phase.orders[first] = f"F {first} - {target}"
            phase.orders[second] = f"F {second} S F {first} - {target}"


def _filler(phase: _Phase, powers: list[str], count: int) -> None:
    """Units on random free provinces, of a type that can stand there."""
    m, rng = phase.m, phase.rng
    provinces = [p for p in sorted(m.provinces) if m.provinces[p].kind != "impassable"]
    rng.shuffle(provinces)
    for prov in provinces:
        if len(phase.units) >= count:
            return
        if not phase.free(prov):
            continue
        p = m.provinces[prov]
        types = [t for t, ok in ((ARMY, p.holds_armies), (FLEET, p.holds_fleets)) if ok]
        utype = rng.choice(types)
        location = rng.choice(m.fleet_locations(prov)) if utype == FLEET else prov
        phase.place(rng.choice(powers), utype, location)


def _neighbours(m: Map, utype: str, location: str) -> list[str]:
    return sorted((m.army_adj if utype == ARMY else m.fleet_adj).get(location, ()))


def _orders(phase: _Phase) -> None:
    """Orders for every unit not yet ordered: moves, supports, holds, some illegal."""
    m, rng = phase.m, phase.rng
    plain = [p for p in sorted(phase.units) if p not in phase.orders]
    moving: dict[str, str] = {}
    for prov in plain:
        _, utype, location = phase.units[prov]
        if rng.random() < 0.45:
            options = _neighbours(m, utype, location)
            if options:
                moving[prov] = rng.choice(options)
    moving.update({p: o.split(" - ")[1].split()[0] for p, o in phase.orders.items() if o.startswith("A ")})
    for prov in plain:
        power, utype, location = phase.units[prov]
        roll = rng.random()
        if roll < 0.04:  # illegal: out of reach
            far = rng.choice(sorted(set(m.provinces) - set(m.any_adj.get(prov, ())) - {prov}))
            phase.orders[prov] = f"{utype} {location} - {far}"
        elif roll < 0.06 and utype == FLEET and m.provinces[prov].kind == "coast":  # illegal: convoy from a coast
            phase.orders[prov] = f"F {location} C A {rng.choice(sorted(m.army_adj))} - {rng.choice(sorted(m.army_adj))}"
        elif prov in moving and prov not in phase.orders:
            phase.orders[prov] = f"{utype} {location} - {moving[prov]}"
        else:
            phase.orders[prov] = _support(phase, prov, moving) or f"{utype} {location} H"


def _support(phase: _Phase, prov: str, moving: dict[str, str]) -> str | None:
    m, rng = phase.m, phase.rng
    _, utype, location = phase.units[prov]
    me = f"{utype} {location}"
    moves, holds = [], []
    for other, (_, otype, oloc) in sorted(phase.units.items()):
        if other == prov:
            continue
        if other in moving:
            dest = province_of(moving[other])
            if dest != prov and m.reaches(utype, location, dest):
                moves.append(f"{me} S {otype} {oloc} - {dest}")
        elif m.reaches(utype, location, other):
            holds.append(f"{me} S {otype} {oloc}")
    if rng.random() < 0.03:  # illegal: a support into a province the supporter cannot reach
        other = rng.choice(sorted(phase.units))
        if other != prov:
            return f"{me} S {phase.text(other)} - {rng.choice(sorted(m.army_adj))}"
    choices = moves * 3 + holds
    return rng.choice(choices) if choices and rng.random() < 0.8 else None


def generate(count: int, seed: int) -> list[Request]:
    """``count`` movement phases as ``judge adjudicate`` requests."""
    m = load_map("standard")
    rng = random.Random(seed)
    powers = [p.name for p in m.powers]
    out: list[Request] = []
    for _ in range(count):
        phase = _Phase(m, rng)
        target = rng.randint(10, 34)
        for _ in range(rng.randint(1, 4)):
            _convoy(phase, powers)
        _filler(phase, powers, target)
        _orders(phase)
        units: dict[str, list[str]] = {}
        orders: dict[str, list[str]] = {}
        for prov, (power, utype, location) in sorted(phase.units.items()):
            units.setdefault(power, []).append(f"{utype} {location}")
            orders.setdefault(power, []).append(phase.orders[prov])
        centres = {p.name: list(p.home) for p in m.powers}
        season = rng.choice("SF")
        out.append({"map": "standard", "phase": f"{season}{rng.randint(1901, 1910)}M",
                    "units": units, "centres": centres, "orders": orders})
    return out


if __name__ == "__main__":
    n, seed = (int(a) for a in sys.argv[1:3])
    for request in generate(n, seed):
        print(json.dumps(request))
