"""The mails a game's events cause, as values, and queueing them in the caller's transaction.

Game operations return :class:`Mail` values instead of sending: a command handler puts them
in its outcome, a deadline job queues them itself (:func:`queue`), and either way they reach
the outbox in the same transaction as the change that caused them. Every text comes from
:mod:`judge.render`; this module picks the recipients and the render context.

Dates are shown in the reader's zone (:mod:`.zones`): :func:`context` takes the reader, and
:func:`per_zone` renders a mail to many readers once for each zone among them (the copy in
the game's zone first: it is the archive's copy), so that everyone reads every date in their
own zone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import tzinfo

from sqlalchemy.orm import Session

from ..config import Config
from ..engine import Phase
from ..render import GameContext, JudgeContext, Rendered
from ..store.games import MASTER, OBSERVER, Player
from ..store.mail import queue_mail
from .view import GameView
from .zones import game_zone, reader_zone, zone_name


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


#: A mail's text rendered for one context (one zone of readers), see :func:`per_zone`.
Build = Callable[[GameContext], Rendered]

#: Mail kinds the game archive (HISTORY, the web archive) shows: what any observer reads.
PUBLIC_KINDS = ("start", "result", "press", "notice")


def queue(session: Session, mails: Iterable[Mail], *, in_reply_to: str | None = None) -> None:
    """Add ``mails`` to the outbox in ``session``'s transaction; a public mail's first copy
    is its archive copy."""
    for mail in mails:
        if mail.to:
            queue_mail(session, mail.to, mail.subject, mail.body, game=mail.game, phase=mail.phase,
                       kind=mail.kind, in_reply_to=in_reply_to if mail.kind == "reply" else None,
                       archive=mail.archive and mail.game is not None and mail.kind in PUBLIC_KINDS)


def context(config: Config, view: GameView, reader: Player | None = None, *, tz: tzinfo | None = None) -> GameContext:
    """The render context of the game at its current phase, for ``reader`` (their zone; no
    reader: the game's zone), or in the zone ``tz``."""
    game = view.game
    options = ", ".join(f"{k}={v}" for k, v in sorted((game.options or {}).items()))
    return GameContext(
        judge_code=config.code, judge_address=config.address, game=game.name, m=view.map,
        tz=tz or reader_zone(reader, game, config), calendar=view.board.rules.calendar, options_text=options,
        phase=Phase.parse(game.phase) if game.phase else None, deadline=game.deadline,
        seq=max(game.seq, 1),
    )


def per_zone(view: GameView, config: Config, people: Iterable[Player], build: Build,
             kind: str, phase: str | None = None, *, home: Rendered | None = None) -> list[Mail]:
    """One mail to ``people`` for each zone they read in, rendered by ``build`` with a
    context in that zone; the copy in the game's zone comes first (the archive's copy).
    ``home`` is the mail already rendered in the game's zone, if the caller has it."""
    home_zone = zone_name(game_zone(view.game, config))
    groups: dict[str, tuple[tzinfo, list[str]]] = {}
    seen: set[str] = set()
    for p in people:
        if p.email in seen:
            continue
        seen.add(p.email)
        tz = reader_zone(p, view.game, config)
        groups.setdefault(zone_name(tz), (tz, []))[1].append(p.email)
    order = sorted(groups, key=lambda name: name != home_zone)

    def text(name: str) -> Rendered:
        if name == home_zone and home is not None:
            return home
        return build(context(config, view, tz=groups[name][0]))

    return [Mail.of(groups[name][1], text(name), kind, view, phase, archive=i == 0) for i, name in enumerate(order)]


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
