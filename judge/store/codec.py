"""Orders as stored: the engine's order values as JSON, and back, without parsing text.

A power's accepted orders are kept as the engine made them (with the line the player wrote,
for the echo), so processing and replies never read order text again. Each order is a JSON
object naming its type (``"Move"``) and giving its fields; a unit is ``[power, type,
location]``. Fields left at their default are not written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import Any

from ..engine.orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, Waive
from ..engine.position import Unit

ORDER_TYPES: dict[str, type[Order]] = {cls.__name__: cls for cls in (
    Hold, Move, Support, Convoy, Retreat, Disband, Build, Remove, Waive)}

#: Each order type's fields as (name, default or ``MISSING``), read once: ``dataclasses.fields``
#: builds its tuple anew on every call, and every stored order is read and written through it.
_FIELDS: dict[type[Order], tuple[tuple[str, Any], ...]] = {
    cls: tuple((f.name, f.default) for f in fields(cls)) for cls in ORDER_TYPES.values()}


class CodecError(ValueError):
    """Stored order data that does not describe an order."""


def _encode(value: Any) -> Any:
    if isinstance(value, Unit):
        return [value.power, value.type, value.location]
    if isinstance(value, tuple):
        return list(value)
    return value


def order_to_json(order: Order) -> dict[str, Any]:
    """The stored form of ``order``: ``{"type": "Move", "unit": ["France", "A", "par"], "dest": "bur"}``."""
    cls = type(order)
    data: dict[str, Any] = {"type": cls.__name__}
    for name, default in _FIELDS.get(cls) or tuple((f.name, f.default) for f in fields(order)):
        value = getattr(order, name)
        if default is not MISSING and value == default:
            continue
        data[name] = _encode(value)
    return data


def order_from_json(data: Mapping[str, Any]) -> Order:
    """The order ``data`` stores; :class:`CodecError` if it is not one."""
    cls = ORDER_TYPES.get(str(data.get("type")))
    if cls is None:
        raise CodecError(f"unknown order type {data.get('type')!r}")
    values: dict[str, Any] = {}
    for name, _ in _FIELDS[cls]:
        if name not in data:
            continue
        value = data[name]
        if name == "unit":
            if not isinstance(value, list) or len(value) != 3:
                raise CodecError(f"bad unit {value!r}")
            value = Unit(str(value[0]), str(value[1]), str(value[2]))
        elif isinstance(value, list):
            value = tuple(value)
        values[name] = value
    try:
        return cls(**values)
    except TypeError as exc:
        raise CodecError(f"bad {cls.__name__} order: {exc}") from None
