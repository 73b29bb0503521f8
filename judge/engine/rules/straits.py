"""Oceania's narrow straits and Townsville's coasts (seed 003, rules III and IV;
variants-spec.md sections 3 and 4).

The three strait arrows (Sorong-Jayapura, Christchurch-Wellington, Southern Marshall
Islands-Majuro) are drawn direct borders for armies and fleets, so the map file lists them
as ordinary borders and moves and supports need nothing here. The map also names them in
``[rules.straits] pairs``, which this module reads for one game option:

- ``strait_counts_for_retreat`` (row 23, default yes): when no, no unit may retreat across a
  strait pair. It applies to fleets and landmass armies as well as to armies in chains,
  since the spec names the option for "strait arrows as direct adjacency for retreats"
  without limiting it to armies (decision recorded in maps/oceania.toml).

Townsville's coasts need no code: the order reader already voids a fleet move that two
coasts would fit without naming one (DATC 4.B.1), needs no coast where only one is reachable
(4.B.2), and supports name provinces (4.B.4). The option ``ambiguous_coast`` (row 24) records
that choice; ``void`` is the only value the spec defines.

Map data check: every pair names two provinces that border each other directly for armies
and for fleets, both ways.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..map import Map, province_of
from ..options import Options, OptionSpec, declare
from ..position import Unit
from ..routes import RetreatRule
from .registry import RulesetPart, data_problems, register, rule_data

RULE = "straits"

STRAIT_COUNTS_FOR_RETREAT = declare(OptionSpec(
    "strait_counts_for_retreat", True, None,
    "Oceania only: a dislodged unit may retreat across a narrow strait (Sorong-Jayapura, "
    "Christchurch-Wellington, Southern Marshall Islands-Majuro), variants-spec 4, row 23. "
    "Default yes; no removes the straits from every unit's retreats.",
    maps=("oceania",),
))

AMBIGUOUS_COAST = declare(OptionSpec(
    "ambiguous_coast", "void", ("void",),
    "Oceania only: a fleet order into Townsville from the Torres Strait that names no coast "
    "is void (DATC 4.B.1 preference; variants-spec 4, row 24). 'void' is the only value.",
    maps=("oceania",),
))


def check_data(m: Map) -> list[str]:
    """Problems with the map's ``[rules.straits]`` data; empty if it is sound."""
    return data_problems(m, RULE, _problems)


def _problems(m: Map, data: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    for pair in data.get("pairs", ()):
        if len(pair) != 2 or any(p not in m.provinces for p in pair):
            problems.append(f"straits.pairs: {list(pair)} is not a pair of provinces")
            continue
        a, b = pair
        if not (b in m.army_adj.get(a, ()) and a in m.army_adj.get(b, ())):
            problems.append(f"straits.pairs: {a}-{b} is not an army border both ways")
        if not (b in m.fleet_reach.get(a, ()) and a in m.fleet_reach.get(b, ())):
            problems.append(f"straits.pairs: {a}-{b} is not a fleet border both ways")
    return problems


def strait_pairs(m: Map) -> frozenset[frozenset[str]]:
    """The strait pairs of ``m`` (unordered); empty for maps without ``[rules.straits]``."""
    data = m.rules.get(RULE) or {}
    return frozenset(frozenset(p) for p in data.get("pairs", ()))


def no_strait_retreats(pairs: frozenset[frozenset[str]]) -> RetreatRule:
    """A retreat filter that drops every destination across one of ``pairs``."""

    def rule(m: Map, unit: Unit, candidates: Iterable[str]) -> Iterable[str]:
        return [c for c in candidates if frozenset((unit.province, province_of(c))) not in pairs]

    return rule


@register
def strait_rules(m: Map, options: Options) -> RulesetPart | None:
    if rule_data(m, RULE, _problems) is None:
        return None
    if options["strait_counts_for_retreat"]:
        return None
    return {"retreat_rules": (no_strait_retreats(strait_pairs(m)),)}
