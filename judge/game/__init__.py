"""Games: joining, orders, press, master actions, phase processing, deadlines and lateness.

Everything here works on one :class:`~judge.game.view.GameView` per game per transaction and
returns the mails its changes cause (:class:`~judge.game.mails.Mail`); the command layer
(``judge.commands``) and the deadline jobs queue them.
"""

from . import due  # noqa: F401 - keeps ``game.due_at`` in step on every write (a mapper event)
