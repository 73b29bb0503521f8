"""What the judge held for the moment a phase is processed: the postal press sent during it
goes to everyone with its results, and the orders players entered in advance for the phase
now starting become their orders (``judge.store.held``).

:func:`released` is the one call :func:`judge.game.processing.advance` makes after the
results; its mails go out in the same transaction as the results, so each goes once.
"""

from __future__ import annotations

from datetime import datetime

from ..config import Config
from ..engine import Phase
from . import future, press
from .mails import Mail
from .view import GameView


def released(view: GameView, config: Config, now: datetime, done: Phase) -> list[Mail]:
    """The mails of what was held for the end of ``done``: its postal press, then the
    orders entered in advance for the phase that follows it."""
    return [*press.postal_delivery(view, config, done), *future.release(view, config, now)]
