"""Oceania's island chains (seed 003, rule II; variants-spec.md section 3).

Island chains are ``dual`` provinces: an army or a fleet may stand there, and a fleet there
convoys as if at sea. The parts of a multi-space chain border each other directly, so the
map file lists them as ordinary army and fleet borders.

Island hopping is derived from the map, never listed in it: an army may move between two
``dual`` provinces that do not border each other when some ``sea`` province borders both
(a chain never serves as the common sea), unless either is a large landmass named in the
map's ``[rules.island_hopping] no_hop`` list. The edges are computed once per board (``Board.of``) and handed
to the engine through :meth:`Map.with_army_hops`, so that validation, the movement resolver
(a hop is a direct move: never a convoy, so nothing at sea can disrupt it; it cuts support,
fights head-to-head battles and dislodges like any move) and support reach all see them.
Fleets never hop, and retreats never hop: retreats read ``army_adj`` only.

Game option ``hop_supports`` (spec section 4, row 22, default yes): whether an army may
support along a hop. It concerns the supporter's own edge only; a support *of* a hop by a
fleet, or by an army bordering the destination, is unaffected.

Map data checks (a broken ``[rules.island_hopping]`` table stops the game map being built):
every ``no_hop`` name is a province and none is ``dual`` (a landmass there could otherwise
convoy, which seed II.6 forbids); every chain has at least two ``dual`` parts joined by
direct army and fleet borders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..map import DUAL, SEA, Map
from ..options import Options, OptionSpec, declare
from .registry import data_problems, register_map_edit, rule_data

RULE = "island_hopping"

HOP_SUPPORTS = declare(OptionSpec(
    "hop_supports", True, None,
    "Oceania only: an army may support into a province it could reach by island hopping "
    "(variants-spec 4, row 22). Default yes; no limits army supports to drawn borders.",
    maps=("oceania",),
))


def check_data(m: Map) -> list[str]:
    """Problems with the map's ``[rules.island_hopping]`` data; empty if it is sound."""
    return data_problems(m, RULE, _problems)


def _problems(m: Map, data: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    for abbr in data.get("no_hop", ()):
        prov = m.provinces.get(abbr)
        if prov is None:
            problems.append(f"island_hopping.no_hop: unknown province {abbr!r}")
        elif prov.kind == DUAL:
            problems.append(f"island_hopping.no_hop: {abbr} is an island chain (dual), not a landmass")
    for chain in data.get("chains", ()):
        parts = [str(p) for p in chain]
        if len(parts) < 2:
            problems.append(f"island_hopping.chains: {parts} needs two parts or more")
            continue
        bad = [p for p in parts if p not in m.provinces or m.provinces[p].kind != DUAL]
        if bad:
            problems.append(f"island_hopping.chains: {parts} has parts that are not island chains (dual): {', '.join(bad)}")
            continue
        joined, todo = {parts[0]}, [parts[0]]
        while todo:
            here = todo.pop()
            for other in parts:
                direct = other in m.army_adj.get(here, ()) and other in m.fleet_reach.get(here, ())
                if other not in joined and direct:
                    joined.add(other)
                    todo.append(other)
        if len(joined) != len(parts):
            apart = sorted(set(parts) - joined)
            problems.append(
                f"island_hopping.chains: {', '.join(apart)} not joined to the rest of {parts} "
                "by direct army and fleet borders"
            )
    return problems


def hop_edges(m: Map) -> dict[str, frozenset[str]]:
    """The island-hop edges of ``m``, province to provinces (symmetric); empty for maps
    without ``[rules.island_hopping]``."""
    data = m.rules.get(RULE)
    if data is None:
        return {}
    no_hop = set(data.get("no_hop", ()))
    chains = sorted(p.abbr for p in m.provinces.values() if p.kind == DUAL and p.abbr not in no_hop)
    seas = {
        c: frozenset(s for s in m.fleet_reach.get(c, ()) if m.provinces[s].kind == SEA) for c in chains
    }
    hops: dict[str, set[str]] = {c: set() for c in chains}
    for i, x in enumerate(chains):
        for y in chains[i + 1 :]:
            if y in m.army_adj.get(x, ()) or not seas[x] & seas[y]:
                continue
            hops[x].add(y)
            hops[y].add(x)
    return {c: frozenset(v) for c, v in hops.items() if v}


@register_map_edit
def island_hopping_board(m: Map, options: Options) -> Map:
    """The board with its island hops, for maps that have ``[rules.island_hopping]`` (a
    broken table raises :class:`MapError`)."""
    if rule_data(m, RULE, _problems) is None:
        return m
    return m.with_army_hops(hop_edges(m), supports=bool(options["hop_supports"]))
