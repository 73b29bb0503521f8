"""PREDICT (njudge ``data/index``: "Will send to the moderator a prediction of the current
turn, using partial orders already entered"): the engine adjudicates the orders stored for
the current phase, units without orders in civil disorder, and the master who asked gets the
result mail marked as a prediction. Nothing is stored and nobody else is told: the mail is
private (not in the archive).
"""

from __future__ import annotations

from ..config import Config
from ..engine import adjudicate
from ..render import game_over_text, results_mail
from .mails import Mail, context
from .view import GameView


def predict(view: GameView, config: Config, to: str) -> Mail:
    """The prediction of the current phase, to ``to``."""
    result = adjudicate(view.board, view.position, view.orders())
    game_over = game_over_text(view.map, result.winners, predicted=True) if result.winners else None
    mail = results_mail(context(config, view), result, view.game.seq, None, game_over=game_over, prediction=True)
    return Mail.of(to, mail, "private", view)
