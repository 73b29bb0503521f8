"""Orders written in the plain form programs write and every judge reads.

The inverse of :mod:`judge.engine.shorthand` (and of the parser on these forms): ``A par -
bur``, ``A lon - bel via convoy``, ``A mos - TSR - vla``, ``F nth C A lon - bel``, ``A mun S A
ber - sil``, ``A mun S F kie``, ``A mun disband``, ``build F stp/nc``, ``remove A ber``,
``waive``. A test pins that the parser reads each text back as the very order written.
"""

from __future__ import annotations

from .orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, Waive

__all__ = ["plain"]


def plain(order: Order) -> str:
    """The plain text of ``order`` in canonical abbreviations."""
    if isinstance(order, Hold):
        return f"{order.unit.text} H"
    if isinstance(order, Move):
        if order.via == "railway":
            return f"{order.unit.text} - TSR - {order.dest}"
        route = "".join(f" - {step}" for step in order.route)
        convoy = " via convoy" if order.via_convoy and not order.route else ""
        return f"{order.unit.text}{route} - {order.dest}{convoy}"
    if isinstance(order, Support):
        target = f"{order.target_type} {order.target}" if order.target_type else order.target
        return f"{order.unit.text} S {target}" + (f" - {order.dest}" if order.dest is not None else "")
    if isinstance(order, Convoy):
        return f"{order.unit.text} C A {order.target} - {order.dest}"
    if isinstance(order, Retreat):
        return f"{order.unit.text} - {order.dest}"
    if isinstance(order, Disband):
        return f"{order.unit.text} disband"
    if isinstance(order, Build):
        return f"build {order.unit.text}"
    if isinstance(order, Remove):
        return f"remove {order.unit.text}"
    if isinstance(order, Waive):
        return "waive"
    raise TypeError(f"not an order: {order!r}")
