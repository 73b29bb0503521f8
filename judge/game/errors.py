"""The one base of the errors a command's sender is told: :class:`GameError`.

A game module raises a subclass of it (``DeadlineError``, ``StatusError``, ``JoinError``...)
with a message worded in ``templates/player/refusals.txt.j2`` (``render.refusal``); the
command runner (:func:`judge.commands.mail.handle_mail`) turns any of them into the
command's error reply (``[Error Flag]``, the message on the command's line), so a handler
lets them pass instead of catching each one.
"""

from __future__ import annotations


class GameError(ValueError):
    """A command the game refuses; the message is what its sender reads."""
