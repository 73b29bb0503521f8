"""Game options: the switches a game master sets, declared by name, default and values.

Each option is declared once (by the module whose rule reads it: the variants in ``rules/``,
the DATC choices in ``choices.py``) with its default and the values it may take, so that a GM
command and a case file's ``OPTIONS`` line say the same. :class:`Options` is the value a game
plays with: the declared defaults, then a reading's presets, then what the GM set.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

#: What an option holds: a yes/no switch, a number or one word of its declared values.
OptionValue = bool | int | str


class OptionError(ValueError):
    """An unknown option, or a value it cannot take."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option: its name, default, allowed values and what it means."""

    name: str
    default: OptionValue
    values: tuple[str, ...] | None
    help: str
    maps: tuple[str, ...] = ()


_REGISTRY: dict[str, OptionSpec] = {}


def declare(spec: OptionSpec) -> OptionSpec:
    """Register a game option (rule modules call this at import)."""
    _REGISTRY[spec.name] = spec
    return spec


def option_specs() -> Mapping[str, OptionSpec]:
    return MappingProxyType(_REGISTRY)


def _coerce(spec: OptionSpec, value: object) -> OptionValue:
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
        if isinstance(value, int):
            return value
        try:
            return int(str(value).strip())
        except (TypeError, ValueError):
            raise OptionError(f"option {spec.name} takes a number, not {value!r}") from None
    text = str(value).strip().lower()
    if spec.values is not None and text not in spec.values:
        raise OptionError(f"option {spec.name} takes one of {', '.join(map(str, spec.values))}, not {value!r}")
    return text


class Options(Mapping[str, OptionValue]):
    """The options of one game: declared defaults overridden by what was set.

    ``presets`` lets an option set the defaults of others (a Colonial reading sets the
    defaults of its finer options); an explicitly set option always wins.
    """

    __slots__ = ("_set", "_values")

    def __init__(self, values: Mapping[str, object] | Iterable[tuple[str, object]] = ()) -> None:
        given = dict(values)
        checked: dict[str, OptionValue] = {}
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

    def __getitem__(self, key: str) -> OptionValue:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    @property
    def explicit(self) -> Mapping[str, OptionValue]:
        """Only the options that were set, for storing and showing."""
        return self._set

    def with_(self, **changes: OptionValue) -> Options:
        return Options({**self._set, **changes})

    def __repr__(self) -> str:
        return f"Options({dict(self._set)!r})"

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._set.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and dict(self._set) == dict(other._set)


#: (option, value) -> defaults it gives other options. Rule modules add their readings here.
PRESETS: dict[tuple[str, OptionValue], dict[str, OptionValue]] = {}
