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

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from ..config import Config
from ..engine import Phase
from ..render import GameContext, JudgeContext, Rendered
from ..store.games import MASTER, OBSERVER, Player
from ..store.mail import File, OutboxMessage, bare_address, queue_mail, store_files
from . import disclosure, tokens
from .view import GameView, game_row
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
    files: tuple[File, ...] = ()
    reply_to: str | None = None

    @classmethod
    def of(cls, to: Iterable[str] | str, rendered: Rendered, kind: str, view: GameView | None = None,
           phase: str | None = None, *, archive: bool = True, files: Sequence[File] = (),
           reply_to: str | None = None) -> Mail:
        recipients = (to,) if isinstance(to, str) else tuple(to)
        return cls(recipients, rendered.subject, rendered.body, kind, view.name if view else None,
                   phase or (view.game.phase if view else None), archive, tuple(files), reply_to)


#: A mail's text rendered for one context (one zone of readers), see :func:`per_zone`.
Build = Callable[[GameContext], Rendered]

#: Mail kinds the game archive (HISTORY, the web archive) shows: what any observer reads.
PUBLIC_KINDS = ("start", "result", "press", "notice", "ending")


def queue(session: Session, mails: Iterable[Mail], *, in_reply_to: str | None = None,
          config: Config | None = None) -> None:
    """Add ``mails`` to the outbox in ``session``'s transaction; a public mail's first copy
    is its archive copy. With ``config``, each member of the mail's game gets the copy
    addressed to them with their own ``Reply-To`` (:func:`addressed`)."""
    for mail in mails:
        archive = mail.archive and mail.game is not None and mail.kind in PUBLIC_KINDS
        files = store_files(session, mail.files) if mail.files else ()
        for to, headers in addressed(session, config, mail):
            queue_mail(session, to, mail.subject, mail.body, game=mail.game, phase=mail.phase,
                       kind=mail.kind, in_reply_to=in_reply_to if mail.kind == "reply" else None,
                       archive=archive, headers=headers, files=files)
            archive = False


def addressed(session: Session, config: Config | None, mail: Mail) -> list[tuple[tuple[str, ...], dict[str, str]]]:
    """The recipients of ``mail`` with the headers each copy carries: those who are no
    members of the mail's game share one copy without (first); each member gets a copy of
    their own with their reply address as ``Reply-To`` (reply to play, :mod:`.tokens`), in
    the mail's order. The one place mail gets headers per recipient: also the game's ``List-Id``
    on every copy, and on every copy to one reader but the start mail and replies,
    ``References`` naming the start mail that reader got (the game's thread). A mail with a
    ``reply_to`` of its own (a confirmation request, :mod:`.confirming`) carries it to all."""
    if mail.reply_to is not None:
        return [(mail.to, {"Reply-To": mail.reply_to})] if mail.to else []
    game = game_row(session, mail.game) if config is not None and mail.game else None
    if config is None or game is None or not mail.to:
        return [(mail.to, {})] if mail.to else []
    if any(p.id is None for p in game.players):
        session.flush()
    bare = [bare_address(a) for a in mail.to]
    replies = tokens.member_addresses(config, game, among=set(bare))
    listed = {"List-Id": list_id(config, game.name)}
    roots = thread_roots(session, game.name) if mail.kind not in ("start", "reply") else {}

    def headers(reader: str) -> dict[str, str]:
        root = roots.get(reader)
        return {**listed, "References": root} if root else dict(listed)

    plain = tuple(a for a, b in zip(mail.to, bare, strict=True) if b not in replies)
    out: list[tuple[tuple[str, ...], dict[str, str]]] = []
    if plain and roots:
        out.extend(((a,), headers(bare_address(a))) for a in plain)  # each its own References
    elif plain:
        out.append((plain, dict(listed)))
    for to, b in zip(mail.to, bare, strict=True):
        reply = replies.get(b)
        if reply is not None:
            out.append(((to,), {**headers(b), "Reply-To": reply}))
    return out


def list_id(config: Config, game: str) -> str:
    """The game's ``List-Id`` (RFC 2919): one per game and judge, so that a mail client files
    or filters a game's mails: ``"CODE game" <game.code.domain>``."""
    def atom(text: str, keep: str = "-") -> str:
        return "".join(c if c.isascii() and (c.isalnum() or c in keep) else "-" for c in text.lower())

    label = f"{atom(game)}.{atom(config.code)}.{atom(config.domain, '-.')}"
    return f'"{config.code} {game}" <{label}>'


def thread_roots(session: Session, game: str) -> dict[str, str]:
    """Bare address (lower case) -> the Message-ID of the start mail that reader got for
    ``game`` (the newest, should a game of that name have started before): the game's later
    mails name it in ``References``, so a mail client threads them under it."""
    out: dict[str, str] = {}
    for to, message_id in session.connection().execute(_ROOTS, {"game": game}):
        out[bare_address(to)] = message_id
    return out


#: :func:`thread_roots`'s statement, made once and run on the session's connection (the
#: outbox is written through it, so there is nothing to flush first): it is asked for every
#: mail of a game, and building it and going through the ORM cost more than the query did
#: (a 5,000-game burst asks it 5,000 times).
_ROOTS = (select(OutboxMessage.__table__.c.to_addr, OutboxMessage.__table__.c.message_id)
          .where(OutboxMessage.__table__.c.game == bindparam("game"),
                 OutboxMessage.__table__.c.kind == "start")
          .order_by(OutboxMessage.__table__.c.id))


def context(config: Config, view: GameView, reader: Player | None = None, *, tz: tzinfo | None = None) -> GameContext:
    """The render context of the game at its current phase, for ``reader`` (their zone; no
    reader: the game's zone), or in the zone ``tz`` (a gunboat game's variant reads
    ``Standard Gunboat``, as njudge names it)."""
    game = view.game
    options = ", ".join(f"{k}={v}" for k, v in sorted((game.options or {}).items()))
    return GameContext(
        judge_code=config.code, judge_address=config.address, game=game.name, m=view.map,
        tz=tz or reader_zone(reader, game, config), calendar=view.board.rules.calendar, options_text=options,
        variant_title=f"{view.map.title} Gunboat" if game.gunboat else None,
        phase=Phase.parse(game.phase) if game.phase else None, deadline=game.deadline,
        seq=max(game.seq, 1),
    )


def per_zone(view: GameView, config: Config, people: Iterable[Player], build: Build,
             kind: str, phase: str | None = None, *, home: Rendered | None = None,
             masked: Build | None = None, files: Sequence[File] = (), archive: bool = True) -> list[Mail]:
    """One mail to ``people`` for each zone they read in (and for whether they may see the
    players' addresses, :func:`.disclosure.sees_addresses`), rendered by ``build`` with a
    context in that zone, or by ``masked`` for those who may not (default: ``build``). The copy in the game's zone
    that a player would read comes first: it is the archive's copy. ``home`` is the mail
    already rendered in the game's zone (for those who see addresses), if the caller has it;
    ``archive`` False keeps every copy out of the archive (another call made its copy)."""
    home_zone = zone_name(game_zone(view.game, config))
    groups: dict[tuple[str, bool], tuple[tzinfo, list[str]]] = {}
    seen: set[str] = set()
    for p in people:
        if p.email in seen:
            continue
        seen.add(p.email)
        tz = reader_zone(p, view.game, config)
        sees = disclosure.sees_addresses(view.game, p) or masked is None
        groups.setdefault((zone_name(tz), sees), (tz, []))[1].append(p.email)
    hide_first = disclosure.identities_secret(view.game) and masked is not None
    order = sorted(groups, key=lambda key: (key[0] != home_zone, key[1] == hide_first))

    def text(key: tuple[str, bool]) -> Rendered:
        name, sees = key
        if name == home_zone and sees and home is not None:
            return home
        make = build if sees or masked is None else masked
        return make(context(config, view, tz=groups[key][0]))

    return [Mail.of(groups[key][1], text(key), kind, view, phase, archive=archive and i == 0, files=files)
            for i, key in enumerate(order)]


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


def roster_for(view: GameView, reader: disclosure.Reader) -> list[tuple[str, str]]:
    """The roster as ``reader`` may see it (:func:`.disclosure.address_for`)."""
    return [(role, disclosure.address_for(view.game, address, reader)) for role, address in roster(view)]


def addresses(players: Iterable[Player]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p.email for p in players))


def everyone(view: GameView) -> tuple[str, ...]:
    return addresses(view.members())


def masters(view: GameView) -> tuple[str, ...]:
    return addresses(view.members(MASTER))


def everyone_but(view: GameView, people: Sequence[Player]) -> tuple[str, ...]:
    skip = {p.email for p in people}
    return tuple(a for a in everyone(view) if a not in skip)
