"""Hong Kong (Colonial, the Moulmein reading; variants-spec.md section 2.7, row 19).

Data: ``[rules.hong_kong]``: the ``province`` and the ``excluded_power``. With option
``hong_kong_rule`` the centre counts for every power but the excluded one (China). China
may enter and possess it as usual, removing another power's ownership; while China
possesses it, it counts for nobody, for adjustments and for victory. Its owner (Britain,
whose home centre it is) cannot build there while it does not own it: that is the ordinary
build rule. This module gives the engine the ``centre_value`` hook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..map import Map
from ..options import Options
from .registry import RulesetPart, register


def centre_value(province: str, excluded: str) -> Callable[[str, str], int]:
    """``(centre, power) -> 0`` for the excluded power's Hong Kong, 1 otherwise."""

    def value(centre: str, power: str) -> int:
        return 0 if centre == province and power == excluded else 1

    return value


@register
def hong_kong_rules(m: Map, options: Options) -> RulesetPart | None:
    data = m.rules.get("hong_kong")
    if not isinstance(data, Mapping) or not options["hong_kong_rule"]:
        return None
    return {"centre_value": centre_value(str(data["province"]).lower(), str(data["excluded_power"]))}
