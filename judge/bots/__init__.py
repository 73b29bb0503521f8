"""The judge's bot: orders for a power in civil disorder or an empty seat, on any map.

Pure, like the engine it reads (no I/O, no database): :func:`bot_orders` is a function of
the board, the position, the power and a seed, so a rollback and reprocess, or a second judge
node, gives the same orders; :func:`phase_seed` derives the seed from a game's name and the
phase. Every order comes from the engine's enumeration of legal orders
(:mod:`judge.engine.legal`), so the bot never writes an illegal order. See README.md.
"""

from __future__ import annotations

import hashlib
import random

from ..engine import Board, Order, Position
from ..engine.legal import LegalOrders
from ..engine.phase import ADJUSTMENT, MOVEMENT, RETREAT
from ..engine.plain import plain
from ..engine.validation import Legality
from .adjustments import adjustments, retreats
from .choose import Chooser
from .lookahead import replies, worth
from .supports import add_supports, keep_consistent
from .values import values_of

__all__ = ["BOT_NAME", "bot_orders", "bot_texts", "phase_seed"]

BOT_NAME = "the judge's bot"
#: how many whole order sets are drawn and checked against the adjudicator
CANDIDATES = 4


def phase_seed(game: str, phase: str) -> int:
    """The seed of a game's phase: the same on every node and after every rollback."""
    return int.from_bytes(hashlib.sha256(f"{game}\n{phase}".encode()).digest()[:8], "big")


def bot_orders(board: Board, position: Position, power: str, seed: int) -> list[Order]:
    """The bot's orders for ``power`` in ``position`` (empty if it has nothing to order)."""
    kind = position.phase.kind
    values = values_of(board, position, power)
    if kind == RETREAT:
        return retreats(board, position, values)
    if kind == ADJUSTMENT:
        return adjustments(board, position, values)
    if kind != MOVEMENT or not position.units_of(power):
        return []
    rng = random.Random(f"{seed}:{power}:{position.phase.code}")
    legal = LegalOrders(board, position)
    chooser = Chooser(board, position, power, values, legal)
    canal = chooser.canal_province
    guesses = replies(board, position, values, legal)
    best: list[Order] = []
    best_worth = float("-inf")
    seen: set[frozenset[Order]] = set()
    for i in range(CANDIDATES):
        plan = chooser.draw(rng, bold=i % 2 == 1)
        add_supports(board, position, values, legal, plan.orders, canal)
        keep_consistent(plan.orders)
        orders = _checked(board, position, [plan.orders[p] for p in sorted(plan.orders)])
        key = frozenset(orders)
        if key in seen:
            continue
        seen.add(key)
        value = worth(board, position, values, orders, guesses)
        if value > best_worth:
            best, best_worth = orders, value
    return best


def _checked(board: Board, position: Position, orders: list[Order]) -> list[Order]:
    """The orders, each checked once more by the engine's validation (a guard: the bot's
    orders come from the legal ones, and a test proves none is ever refused here)."""
    legality = Legality(board, position)
    for order in orders:
        legality.check(order)
    return orders


def bot_texts(board: Board, position: Position, power: str, seed: int) -> list[str]:
    """The bot's orders for ``power`` in the plain order syntax every judge reads."""
    return [plain(o) for o in bot_orders(board, position, power, seed)]
