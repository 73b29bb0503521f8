"""The mails a game's events cause, as values, and queueing them in the caller's transaction.

Game operations return :class:`Mail` values instead of sending: a command handler puts them
in its outcome, a deadline job queues them itself (:func:`queue`), and either way they reach
the outbox in the same transaction as the change that caused them. Every text comes from
:mod:`judge.render`; this module picks the recipients and the render context.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..config import Config
from ..engine import Phase
from ..render import GameContext, JudgeContext, Rendered
from ..store.games import MASTER, OBSERVER, Player
from ..store.mail import queue_mail
from .deadlines import zone
from .view import GameView


@dataclass(frozen=True, slots=True)
class Mail:
    """One mail to queue: its recipients, text, outbox kind and the game it belongs to."""

    to: tuple[str, ...]
    subject: str
    body: str
    kind: str
    game: str | None = None
    phase: str | None = None
    archive: bool = True

    @classmethod
    def of(cls, to: Iterable[str] | str, rendered: Rendered, kind: str, view: GameView | None = None,
           phase: str | None = None, *, archive: bool = True) -> Mail:
        recipients = (to,) if isinstance(to, str) else tuple(to)
        return cls(recipients, rendered.subject, rendered.body, kind, view.name if view else None,
                   phase or (view.game.phase if view else None), archive)


#: Mail kinds the game archive (HISTORY, the web archive) shows: what any observer reads.
PUBLIC_KINDS = ("start", "result", "press", "notice", "ending")


def queue(session: Session, mails: Iterable[Mail], *, in_reply_to: str | None = None) -> None:
    """Add ``mails`` to the outbox in ``session``'s transaction; a public mail's first copy
    is its archive copy."""
    for mail in mails:
        if mail.to:
            queue_mail(session, mail.to, mail.subject, mail.body, game=mail.game, phase=mail.phase,
                       kind=mail.kind, in_reply_to=in_reply_to if mail.kind == "reply" else None,
                       archive=mail.archive and mail.game is not None and mail.kind in PUBLIC_KINDS)


def context(config: Config, view: GameView) -> GameContext:
    """The render context of the game at its current phase (a gunboat game's variant reads
    ``Standard Gunboat``, as njudge names it)."""
    game = view.game
    options = ", ".join(f"{k}={v}" for k, v in sorted((game.options or {}).items()))
    return GameContext(
        judge_code=config.code, judge_address=config.address, game=game.name, m=view.map,
        tz=zone(config.timezone), calendar=view.board.rules.calendar, options_text=options,
        variant_title=f"{view.map.title} Gunboat" if game.gunboat else None,
        phase=Phase.parse(game.phase) if game.phase else None, deadline=game.deadline,
        seq=max(game.seq, 1),
    )


def judge_context(config: Config) -> JudgeContext:
    return JudgeContext(judge_code=config.code, judge_address=config.address)


def role_of(p: Player) -> str:
    """``Master``, ``Observer`` or the player's power."""
    if p.role == MASTER:
        return "Master"
    if p.role == OBSERVER:
        return "Observer"
    return p.power or "Player"


def roster(view: GameView) -> list[tuple[str, str]]:
    """``[(role, address)]`` for the player lists: master, powers in map order, observers."""

    def key(p: Player) -> tuple[int, int]:
        if p.role == MASTER:
            return (0, 0)
        if p.role == OBSERVER:
            return (2, p.id)
        return (1, view.power_rank(p.power))

    return [(role_of(p), p.email) for p in sorted(view.members(), key=key)]


def addresses(players: Iterable[Player]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p.email for p in players))


def everyone(view: GameView) -> tuple[str, ...]:
    return addresses(view.members())


def masters(view: GameView) -> tuple[str, ...]:
    return addresses(view.members(MASTER))


def everyone_but(view: GameView, people: Sequence[Player]) -> tuple[str, ...]:
    skip = {p.email for p in people}
    return tuple(a for a in everyone(view) if a not in skip)
