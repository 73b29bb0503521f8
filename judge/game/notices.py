"""Which mail each game event sends, to whom: game start, resignations, ejections, state
changes, deadline changes and settings.

Each function returns :class:`~judge.game.mails.Mail` values for the caller to queue; the
texts come from :mod:`judge.render`, each in its readers' zones and, in a gunboat game,
without the players' addresses for those who may not see them (:func:`.mails.per_zone`);
the lateness notices are :mod:`.late_notices`'. Mail kinds (the outbox's ``kind``): ``start``,
``selected`` (a power given to one player), ``late`` (a late player's notice: private, not
in HISTORY), ``private`` (to a few, not in HISTORY) and ``notice`` (everything the whole
game may read; in HISTORY, as njudge keeps them).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import render
from ..config import Config
from ..render import GameContext
from ..store.games import MASTER, Player
from .disclosure import ANONYMOUS
from .mails import PUBLIC_KINDS, Mail, context, per_zone, role_of, roster_for
from .view import GameView
from .zones import member_at


def start(view: GameView, config: Config) -> list[Mail]:
    """The game-start mail, one per reader (``You have been selected as ...``), each in the
    reader's zone; the archive copy is the first one to a reader who is no master (in a
    gunboat game, only masters see the players' addresses)."""
    readers = view.members()
    first = next((p for p in readers if p.role != MASTER), readers[0] if readers else None)
    held = {p.power for p in readers}
    vacant = [pw.name for pw in view.map.powers if pw.name not in held]
    return [Mail.of(p.email, render.game_start_mail(context(config, view, p), view.position, view.game.deadline,
                                                    roster_for(view, p), recipient=role_of(p), vacant=vacant),
                    "start", view, archive=p is first)
            for p in readers]


def resigned(view: GameView, config: Config, address: str, powers: list[str]) -> list[Mail]:
    return per_zone(view, config, view.members(), lambda ctx: render.resign_mail(ctx, address, powers), "notice",
                    masked=lambda ctx: render.resign_mail(ctx, ANONYMOUS, powers))


def ejected(view: GameView, config: Config, players: Sequence[Player]) -> list[Mail]:
    """The master ejected ``players`` (all of one address): its powers are told to everyone
    in one mail (as njudge tells a resignation of several powers); an ejected observer
    concerns only the observer and the master."""
    mails = []
    powers = [p.power for p in players if p.power]
    address = players[0].email
    if powers:
        mails.extend(per_zone(view, config, [*view.members(), *players],
                              lambda ctx: render.eject_mail(ctx, address, powers), "notice",
                              masked=lambda ctx: render.eject_mail(ctx, ANONYMOUS, powers)))
    if any(p.power is None for p in players):
        observers = [p for p in players if p.power is None][:1]
        mails.extend(per_zone(view, config, [*observers, *view.members(MASTER)],
                              lambda ctx: render.eject_mail(ctx, address, []), "private"))
    return mails


def state_changed(view: GameView, config: Config, change: str) -> list[Mail]:
    return per_zone(view, config, view.members(), lambda ctx: render.game_state_mail(ctx, change), "notice")


def _deadline_text(view: GameView, ctx: GameContext, wait_set: bool) -> str:
    game = view.game
    assert game.deadline is not None
    end = game.grace_end
    return render.section("all/deadline_changed", game=game.name, deadline=ctx.when(game.deadline),
                          grace=ctx.when(end) if end else None, wait_set=wait_set)


def deadline_changed(view: GameView, config: Config, *, wait_set: bool = False) -> list[Mail]:
    """The current phase's deadline (and grace) moved: ``Deadline Changed`` to everyone, in
    each reader's zone; ``wait_set`` adds njudge's note that a wait was placed on everyone."""
    return settings_changed(view, config, (), deadline=True, wait_set=wait_set)


def settings_changed(view: GameView, config: Config, changes: Sequence[str], *, deadline: bool = False,
                     wait_set: bool = False) -> list[Mail]:
    """One mail to everyone in the game listing every setting one master's mail changed and,
    with ``deadline``, the deadline and grace as they now are (``Deadline Changed`` when only
    they moved, as njudge titles it), in each reader's zone."""
    def build(ctx: GameContext) -> render.Rendered:
        moved = [_deadline_text(view, ctx, wait_set)] if deadline else []
        return render.settings_mail(ctx, list(changes), moved)

    return per_zone(view, config, view.members(), build, "notice")


#: The mail kinds gathered into one mail per reader (:func:`one_per_reader`).
GATHERED = ("notice", "private")


def one_per_reader(view: GameView, config: Config, mails: Sequence[Mail]) -> list[Mail]:
    """The notices one incoming mail caused in ``view``'s game (``mails`` of the
    ``GATHERED`` kinds), each reader's in one mail (:func:`judge.render.notices_mail`); the
    other mails as they are.

    Readers who got the same notices share one mail (rendered in the zone of the first: the
    notices came to them in one zone). It is a ``notice`` (public) when all its parts are,
    else ``private``; the archive keeps the one holding every part the archive would have
    kept."""
    gathered = [m for m in mails if m.game == view.name and m.kind in GATHERED]
    rest = [m for m in mails if m not in gathered]
    by_reader: dict[str, list[int]] = {}
    for i, m in enumerate(gathered):
        for address in m.to:
            by_reader.setdefault(address, []).append(i)
    groups: dict[tuple[int, ...], list[str]] = {}
    for address, indices in by_reader.items():
        groups.setdefault(tuple(indices), []).append(address)
    archived = {i for i, m in enumerate(gathered) if m.archive and m.kind in PUBLIC_KINDS}
    public = {parts for parts in groups if all(gathered[i].kind == "notice" for i in parts)}
    whole = [parts for parts in groups if parts in public and archived and archived <= set(parts)]
    some = sorted((parts for parts in public if archived & set(parts)), key=lambda parts: -len(groups[parts]))
    kept = next(iter(whole or some), None)
    out: list[Mail] = []
    for parts, to in groups.items():
        chosen = [gathered[i] for i in parts]
        kind = "notice" if parts in public else "private"
        if len(chosen) == 1:
            rendered = render.Rendered(chosen[0].subject, chosen[0].body)
        else:
            ctx = context(config, view, member_at(view.game.players, to[0]))
            rendered = render.notices_mail(ctx, [render.Rendered(m.subject, m.body) for m in chosen])
        out.append(Mail.of(to, rendered, kind, view, chosen[0].phase, archive=parts == kept,
                           files=[f for m in chosen for f in m.files]))
    return [*out, *rest]
