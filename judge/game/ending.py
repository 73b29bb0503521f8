"""The end of a game: a solo victory at the map's count, a draw, a concession, or the
master's TERMINATE (njudge ``data/draws``, ``data/master``).

:func:`finish` records how the game ended (``Game.status`` finished, or terminated;
``winners``; ``ending``), stops its clock and returns its final mail: to everyone, how it
ended and its summary (:mod:`.summary`: supply centres by year, who played each power and
when, the deadlines each player missed). A game that ends by a solo, a draw or a concession
is rated in the same transaction (:mod:`.ratings`); a terminated one is not. The final mail is kind ``ending``, public and kept
in the archive (HISTORY shows it, also in its EXCLSTART form, as njudge keeps its draw
notices). It is rendered once per zone of its readers. The game is over when it is
rendered, so a gunboat game's players are revealed in it, to everyone (njudge's default
``REVEAL``; :mod:`.disclosure`). Then the players' diaries (:mod:`.diary`), if any kept one,
go to everyone too, under their powers' names.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from .. import render
from ..config import Config
from ..engine import Phase
from ..store.base import utcnow
from ..store.games import FINISHED, PLAYER, TERMINATED
from . import botseats, ratings
from .diary import diaries_of
from .lateness import stop_clock
from .mails import Mail, per_zone
from .summary import summary
from .takeover import alive_powers
from .view import GameView

log = logging.getLogger(__name__)

#: How a game ended (``Game.ending``).
VICTORY, DRAW, CONCESSION, TERMINATION = "victory", "draw", "concession", "terminated"
ENDING_KIND = "ending"


def ending_text(view: GameView) -> str | None:
    """How a finished or terminated game ended, in a sentence; None while it goes on."""
    game = view.game
    if game.status == TERMINATED:
        return render.section("all/ending", how=TERMINATION, game=game.name, powers=[])
    if game.status != FINISHED:
        return None
    how = game.ending or (VICTORY if len(game.winners) == 1 else DRAW)
    return render.section("all/ending", how=how, game=game.name, powers=list(game.winners))


def finish(view: GameView, config: Config, how: str, winners: Sequence[str], *,
           during: Phase | None = None) -> list[Mail]:
    """End the game (``how``: :data:`VICTORY`, :data:`DRAW`, :data:`CONCESSION` or
    :data:`TERMINATION`) with ``winners``, ``during`` a phase (default: the current one; a
    victory's is the phase just processed); its final mails."""
    game = view.game
    game.status = TERMINATED if how == TERMINATION else FINISHED
    game.winners = list(winners)
    game.ending = how
    stop_clock(game)
    view.session.flush()
    if how != TERMINATION:
        ratings.game_ended(view, utcnow())
    log.info("game %s over: %s%s", game.name, how, f" ({', '.join(winners)})" if winners else "")
    return final_mails(view, config, how, winners, during or view.phase)


def final_mails(view: GameView, config: Config, how: str, winners: Sequence[str], during: Phase) -> list[Mail]:
    """The final mail to everyone (see the module docstring); a draw's or a concession's
    names the survivors the judge's bot played, which had no vote (:mod:`.draws`)."""
    session, game = view.session, view.game
    unvoted = [p for p in alive_powers(view) if botseats.plays(view, p)] if how in (DRAW, CONCESSION) else []

    def mail(reveal: bool) -> Callable[[render.GameContext], render.Rendered]:
        def build(ctx: render.GameContext) -> render.Rendered:
            return render.game_end_mail(ctx, how, winners, summary(session, view, reveal=reveal, through=during),
                                        during, dias=game.dias, unvoted=unvoted)
        return build

    mails = per_zone(view, config, view.members(), mail(True), ENDING_KIND, masked=mail(False))
    kept = diaries_of(session, [p for p in game.players if p.role == PLAYER])
    if kept:
        entries = [(d.power, [(e.number, e.written, e.body) for e in d.entries]) for d in kept]
        mails += per_zone(view, config, view.members(),
                          lambda ctx: render.diaries_mail(ctx, during, entries), ENDING_KIND)
    return mails
