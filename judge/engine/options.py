"""Game options, and the DATC choices the engine makes, named in one place.

The DATC (3.0) leaves some rules open and states a preference. The engine follows every
preference; this module names each one so a reader can find where a choice is made. Game
options are the switches a game master sets (mostly for variants); each is declared here with
its default and the values it may take, so that a GM command and a case file say the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

# -- DATC 3.0 choices (section 4), all the preferred ones -------------------------------
#: 4.A.1 a multi-route convoy is disrupted only when every route is disrupted.
CONVOY_DISRUPTED_WHEN_ALL_ROUTES_CUT = True
#: 4.A.2 convoy paradoxes: Szykman rule, the convoying fleets in the paradox hold.
PARADOX_RULE = "szykman"
#: 4.A.3 an army goes by convoy to an adjacent province only when its order says "via
#: convoy" or a fleet of its own power is ordered to convoy it; no fallback to the land route.
CONVOY_TO_ADJACENT_NEEDS_INTENT = True
#: 4.A.4 an army convoyed from the province a support is aimed at does not cut it.
CONVOYED_ATTACK_CUTS_BY_ORIGIN = True
#: 4.A.5 a unit dislodged by a convoyed army may retreat to that army's origin.
RETREAT_TO_CONVOYED_ATTACKERS_ORIGIN = True
#: 4.A.6 written convoy routes are recorded but not binding.
CONVOY_ROUTES_BINDING = False
#: 4.A.7 a dislodged unit loses its effect on the attacker's origin only after a
#: head-to-head battle.
DISLODGED_BOUNCES_UNLESS_HEAD_TO_HEAD = True
#: 4.B.1/4.B.2/4.B.3 a fleet's missing coast is filled in only when one coast is reachable;
#: an unreachable coast makes the order illegal. 4.B.4 supports name provinces, not coasts.
#: 4.B.5/4.B.6 wrong or irrelevant coasts are ignored. 4.B.7 a fleet built on a split coast
#: needs its coast. (Applied by the parser and validation.)
#: 4.C.1/4.C.2/4.C.5/4.C.6 missing or wrong unit types and nationalities are ignored.
#: 4.C.3 a build without unit type builds an army on land and a fleet where a coast is given.
#: 4.C.4 a fleet cannot be built inland: the build fails.
#: 4.D.3 a unit ordered twice holds (the mail judge keeps the last order instead, since a
#: player's later line replaces an earlier one; see judge.game).
#: 4.D.4/4.D.5/4.D.6 adjustment orders are taken one by one: surplus builds and removals fail.
ADJUSTMENTS_FIRST_COME = True
#: 4.D.7 builds may be waived.
#: 4.D.8 civil-disorder removals follow the 2023 rules: farthest from the nearest owned
#: centre, counting moves over land and sea for any unit; fleets before armies at equal
#: distance; then alphabetical order of the province's English name.
CIVIL_DISORDER_RULES = 2023
#: 4.D.9 a unit in civil disorder can receive hold support (it simply holds).
#: 4.E.1 an illegal order is ignored and the unit holds; a move needing a convoy is legal
#: when fleets stand on a water path, and then fails without one (it cannot get hold support).
#: 4.E.3 no implicit orders. 4.E.4/4.E.5 no perpetual or proxy orders.


class OptionError(ValueError):
    """An unknown option, or a value it cannot take."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option: its name, default, allowed values and what it means."""

    name: str
    default: Any
    values: tuple[Any, ...] | None
    help: str
    maps: tuple[str, ...] = ()


_REGISTRY: dict[str, OptionSpec] = {}


def declare(spec: OptionSpec) -> OptionSpec:
    """Register a game option (rule modules call this at import)."""
    _REGISTRY[spec.name] = spec
    return spec


def option_specs() -> Mapping[str, OptionSpec]:
    return MappingProxyType(_REGISTRY)


def _coerce(spec: OptionSpec, value: Any) -> Any:
    if isinstance(spec.default, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "yes", "true", "on", "y"):
            return True
        if text in ("0", "no", "false", "off", "n"):
            return False
        raise OptionError(f"option {spec.name} takes yes or no, not {value!r}")
    if isinstance(spec.default, int):
        try:
            return int(value)
        except (TypeError, ValueError):
            raise OptionError(f"option {spec.name} takes a number, not {value!r}") from None
    text = str(value).strip().lower()
    if spec.values is not None and text not in spec.values:
        raise OptionError(f"option {spec.name} takes one of {', '.join(map(str, spec.values))}, not {value!r}")
    return text


class Options(Mapping[str, Any]):
    """The options of one game: declared defaults overridden by what was set.

    ``presets`` lets an option set the defaults of others (a Colonial reading sets the
    defaults of its finer options); an explicitly set option always wins.
    """

    __slots__ = ("_set", "_values")

    def __init__(self, values: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> None:
        given = dict(values)
        checked: dict[str, Any] = {}
        for name, value in given.items():
            key = name.strip().lower()
            spec = _REGISTRY.get(key)
            if spec is None:
                raise OptionError(f"no game option called {name!r}")
            checked[key] = _coerce(spec, value)
        self._set = MappingProxyType(checked)
        merged = {k: s.default for k, s in _REGISTRY.items()}
        # broader presets first, so a finer preset (tsr_reading within colonial_rules) wins
        for key, value in sorted(checked.items(), key=lambda kv: -len(PRESETS.get(kv, {}))):
            for preset_key, preset_value in PRESETS.get((key, value), {}).items():
                if preset_key not in checked:
                    merged[preset_key] = preset_value
        merged.update(checked)
        self._values = MappingProxyType(merged)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    @property
    def explicit(self) -> Mapping[str, Any]:
        """Only the options that were set, for storing and showing."""
        return self._set

    def with_(self, **changes: Any) -> Options:
        return Options({**self._set, **changes})

    def __repr__(self) -> str:
        return f"Options({dict(self._set)!r})"

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._set.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and dict(self._set) == dict(other._set)


#: (option, value) -> defaults it gives other options. Rule modules add their readings here.
PRESETS: dict[tuple[str, Any], dict[str, Any]] = {}
