"""Colonial Diplomacy: its game options, the two readings, map versions and calendar.

The two rules seeds disagree, so a game master picks a *reading* with ``colonial_rules``
(variants-spec.md, "Labels"): ``adjudicator`` is seed 000 ("The Adjudicator", R000) and
``moulmein`` is seed 001 (the Moulmein Convention, R001). The reading sets the defaults of
every finer option of spec section 4; a GM may set any of them on its own, and an option set
explicitly always wins (``Options`` presets). ``tsr_reading`` (spec row 1) does the same for
the railway options of rows 2-8 only. The values of both readings are also written in
``maps/colonial.toml`` ``[rules.readings]``; a test keeps the two equal.

Without any option a Colonial game plays the adjudicator reading: the declared defaults
below are that reading's values.

This module also builds the board of each map version (``colonial_map``: the province tables
of the map file are version ``seed000``; the others add and remove borders listed in
``[rules.colonial_map.<version>]``), and the calendar (``colonial_calendar``, spec 2.9).
The railway, canal and Hong Kong rules are in ``railway.py``, ``canal.py`` and
``hong_kong.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..calendar import Calendar
from ..map import Map, province_of
from ..options import PRESETS, Options, OptionSpec, OptionValue, declare
from ..phase import ADJUSTMENT, FALL, MOVEMENT, SPRING, Phase
from .registry import RulesetPart, register, register_map_edit

MAPS = ("colonial",)


def _declare(name: str, default: OptionValue, values: tuple[str, ...] | None, text: str) -> None:
    declare(OptionSpec(name, default, values, f"Colonial only: {text}", maps=MAPS))


_declare("colonial_rules", "adjudicator", ("adjudicator", "moulmein"),
         "the reading of the rules. adjudicator = seed 000 (R000), moulmein = the Moulmein "
         "Convention (R001); sets the defaults of every finer Colonial option.")
_declare("tsr_reading", "seed000", ("seed000", "seed001"),
         "the railway reading alone (spec row 1): sets tsr_attack_occupied, tsr_sc_break, "
         "tsr_static_break, tsr_temporary_leave, tsr_dislodged_occupant_blocks, "
         "tsr_along_line_blocks and tsr_fail_at_destination.")
_declare("tsr_implicit", False, None, "a plain move between two stations is read as a TSR move.")
_declare("tsr_multiple", "none", ("none", "first"),
         "several TSR orders in one phase: none = all hold, first = the first given goes.")
_declare("tsr_sc_break", True, None,
         "a station supply centre Russia does not own, strictly between start and "
         "destination, makes a TSR order illegal.")
_declare("tsr_attack_occupied", True, None,
         "a TSR army may dislodge (and cut the support of) a unit staying in its destination.")
_declare("tsr_static_break", "void", ("void", "fallback"),
         "a foreign unit staying on the path: void = the TSR order is void, the army holds; "
         "fallback = the army stops before it.")
_declare("tsr_temporary_leave", "none", ("none", "off_route", "any"),
         "when a foreign unit on the path counts as leaving it: none = only if its move "
         "succeeds; off_route = if ordered off the line; any = if ordered to move at all.")
_declare("tsr_dislodged_occupant_blocks", True, None, "a dislodged foreign unit on the path still blocks.")
_declare("tsr_along_line_blocks", True, None,
         "a foreign unit on the path ordered along the line blocks at its start, whatever its result.")
_declare("tsr_fail_at_destination", "fallback", ("fallback", "stay"),
         "a TSR army that fails at its destination stops in the nearest available station "
         "(fallback) or stays where it started (stay).")
_declare("tsr_stop_in_standoff", False, None, "a blocked TSR army may stop in a standoff province.")
_declare("tsr_adjacent_swap", "head_to_head", ("head_to_head", "russian_swap"),
         "a TSR move between neighbouring stations meeting the unit coming the other way: "
         "head_to_head = an ordinary battle; russian_swap = a Russian unit swaps, a foreign "
         "one blocks the line.")
_declare("tsr_paradox", "hold", ("hold",),
         "backup rule for a paradox involving the TSR (the army holds).")
_declare("suez_mode", "kiel", ("kiel", "permission"),
         "kiel = Egypt is a canal province only; permission = also a direct Mediterranean "
         "Sea - Red Sea move permitted by the unit in Egypt.")
_declare("suez_permission_adds_strength", True, None,
         "a fleet in Egypt that permits a canal move by a support order also supports it.")
_declare("suez_must_end_in_egypt", True, None,
         "the permitting unit must still be in Egypt at the end of the phase.")
_declare("suez_army_may_permit_foreign", True, None,
         "an army in Egypt may permit another power's fleet (otherwise only its own, implicitly).")
_declare("suez_support_through", False, None,
         "njudge's permitted supports and owner retreats: the owner of the unit in Egypt may "
         "support from one sea into the other and retreat through the canal (no convoys). "
         "Off: the canal gives no border for supports, convoys or retreats.")
_declare("hong_kong_rule", False, None,
         "Hong Kong counts for every power but China; in China's hands it counts for nobody.")
_declare("colonial_map", "seed000", ("seed000", "moulmein", "ah1994", "ah1996"),
         "the map version: seed000 (seed 000 land bridges), moulmein (adds Otaru-Akita and "
         "Sakhalin-Sea of Japan), ah1994, ah1996 (njudge's maps).")
_declare("colonial_calendar", "whole_year", ("whole_year", "standard", "even_years"),
         "phase labels: whole_year = each turn is a year (1870, 1871 + builds, 1872...); "
         "standard = Spring/Fall 1870; even_years = Spring/Fall 1870, builds 1871, Spring 1872.")

#: The railway options each ``tsr_reading`` sets (spec rows 2-8).
TSR_READINGS: dict[str, dict[str, OptionValue]] = {
    "seed000": {
        "tsr_attack_occupied": True, "tsr_sc_break": True, "tsr_static_break": "void",
        "tsr_temporary_leave": "none", "tsr_dislodged_occupant_blocks": True,
        "tsr_along_line_blocks": True, "tsr_fail_at_destination": "fallback",
    },
    "seed001": {
        "tsr_attack_occupied": False, "tsr_sc_break": False, "tsr_static_break": "fallback",
        "tsr_temporary_leave": "off_route", "tsr_dislodged_occupant_blocks": True,
        "tsr_along_line_blocks": True, "tsr_fail_at_destination": "fallback",
    },
}

#: Every Colonial option under each reading (equal to maps/colonial.toml [rules.readings]).
READINGS: dict[str, dict[str, OptionValue]] = {
    "adjudicator": {
        "tsr_reading": "seed000", "tsr_implicit": False, "tsr_multiple": "none",
        **TSR_READINGS["seed000"],
        "tsr_stop_in_standoff": False, "tsr_adjacent_swap": "head_to_head", "tsr_paradox": "hold",
        "suez_mode": "kiel", "hong_kong_rule": False, "colonial_map": "seed000",
        "colonial_calendar": "whole_year",
    },
    "moulmein": {
        "tsr_reading": "seed001", "tsr_implicit": False, "tsr_multiple": "none",
        **TSR_READINGS["seed001"],
        "tsr_stop_in_standoff": False, "tsr_adjacent_swap": "russian_swap", "tsr_paradox": "hold",
        "suez_mode": "permission", "suez_permission_adds_strength": True,
        "suez_must_end_in_egypt": True, "suez_army_may_permit_foreign": True,
        "suez_support_through": False, "hong_kong_rule": True, "colonial_map": "moulmein", "colonial_calendar": "standard",
    },
}

for _reading, _values in READINGS.items():
    PRESETS[("colonial_rules", _reading)] = dict(_values)
for _reading, _values in TSR_READINGS.items():
    PRESETS[("tsr_reading", _reading)] = dict(_values)


def is_colonial(m: Map) -> bool:
    """True for a board with the Colonial rules data (the railway and the map versions)."""
    return "colonial_map" in m.rules


# -- map versions (spec 2.6) ------------------------------------------------------------


def _pairs(items: Iterable[Iterable[str]]) -> list[tuple[str, str]]:
    out = []
    for pair in items:
        a, b = (str(x).lower() for x in pair)
        out.append((a, b))
    return out


def _edit_edges(edges: Mapping[str, frozenset[str]], add: Iterable[tuple[str, str]],
                remove: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    out = {k: set(v) for k, v in edges.items()}
    for a, b in add:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    for a, b in remove:
        out.get(a, set()).discard(b)
        out.get(b, set()).discard(a)
    return out


def version_board(m: Map, version: str) -> Map:
    """The board of map version ``version`` (``[rules.colonial_map.<version>]``)."""
    table = m.rules["colonial_map"].get(version)
    if not isinstance(table, Mapping):
        raise ValueError(f"the map has no version {version!r}")
    if not any(table.get(k) for k in ("add_army", "remove_army", "add_fleet", "remove_fleet")):
        return m
    army = _edit_edges(m.army_adj, _pairs(table.get("add_army", ())), _pairs(table.get("remove_army", ())))
    fleet = _edit_edges(m.fleet_adj, _pairs(table.get("add_fleet", ())), _pairs(table.get("remove_fleet", ())))
    for loc in fleet:
        if province_of(loc) not in m.provinces:
            raise ValueError(f"version {version}: unknown place {loc!r}")
    return Map(
        name=m.name, title=m.title, start=m.start, victory=m.victory, powers=m.powers,
        provinces=m.provinces.values(), army_edges=army, fleet_edges=fleet, aliases=m.aliases,
        map_aliases=m.map_aliases, rules=m.rules,
    )


@register_map_edit
def colonial_board(m: Map, options: Options) -> Map:
    """The Colonial board of the chosen version (the map itself for ``seed000``, whose
    borders are the province tables)."""
    if not is_colonial(m):
        return m
    return version_board(m, str(options["colonial_map"]))


# -- calendar (spec 2.9) ----------------------------------------------------------------


class LabelledCalendar(Calendar):
    """Spring and Fall seasons inside, numbered the way a calendar reading counts years.

    The year a phase carries is the year players read, in its code (``F1871M``) and its
    name (``Fall of 1871``), so that the subject line, the ``:: Deadline:`` line and the
    phase headers agree and mapping tools still find "<Season> of <year>":

    - ``whole_year`` (seed 000): every movement turn is a year of its own: Spring of 1870,
      Fall of 1871 (then retreats and the builds of the odd year, Winter of 1871), Spring of
      1872, Fall of 1873...
    - ``even_years``: Spring and Fall of 1870, the builds in Winter of 1871, then Spring of
      1872: play on even years, build on odd years.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def next_movement(self, phase: Phase) -> Phase:
        if phase.kind == ADJUSTMENT:
            return Phase(phase.year + 1, SPRING, MOVEMENT)
        if phase.season == SPRING:
            return Phase(phase.year + 1 if self.name == "whole_year" else phase.year, FALL, MOVEMENT)
        return Phase(phase.year + (1 if self.name == "whole_year" else 2), SPRING, MOVEMENT)

    def adjustment_phase(self, phase: Phase) -> Phase:
        return Phase(phase.year + (1 if self.name == "even_years" else 0), FALL, ADJUSTMENT)


CALENDARS = {name: LabelledCalendar(name) for name in ("whole_year", "even_years")}


@register
def colonial_calendar(m: Map, options: Options) -> RulesetPart | None:
    if not is_colonial(m):
        return None
    cal = CALENDARS.get(str(options["colonial_calendar"]))
    return {"calendar": cal} if cal is not None else None
