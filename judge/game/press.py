"""Press: who a ``BROADCAST``, ``PRESS`` or ``POSTAL PRESS`` reaches, what its readers are
shown, whether the game allows it, and the mails (njudge ``data/press``).

``BROADCAST`` without options and ``PRESS TO ALL`` go to every player, observer and the
master. ``PRESS TO FG`` goes to the players of France and Germany (``M`` is the master,
``O`` the observers), ``PRESS TO ALL BUT G`` to everyone else; the master gets a copy of
press to some powers unless the game is set to ``NORMAL PRESS``. ``GREY`` sends the press
without its sender, ``WHITE`` with them; fake press is shown to its readers as a broadcast,
or as sent to another group, where the game allows it (:mod:`.press_rules`). Press to the
master alone is always allowed, always white and never faked, and the master may always
send press. The master sees the truth: where the readers' header hides the sender or the
real readers, the master's copy is headed with them (and says what the readers got). Who
gets that copy, and which address a header shows, is :mod:`.disclosure`'s rule: in a
gunboat game no player's or observer's address is shown to the others while it goes on.

``POSTAL PRESS`` is held (``judge.store.held.PostalPress``) and goes to everyone, white,
after the results of the phase it was sent in (:func:`postal_delivery`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from .. import render
from ..config import Config
from ..engine.phase import MOVEMENT, Phase
from ..render import PressHeader
from ..store.games import FORMING, MASTER, OBSERVER, PLAYER, Player
from ..store.held import PostalPress, postal_waiting
from . import disclosure, lateness, orders
from .mails import Mail, context, per_zone, role_of
from .press_rules import (
    FAKE_ALWAYS,
    FAKE_BY_DEFAULT,
    NO_FAKE,
    NONE,
    OBSERVER_NONE,
    OBSERVER_PARTIAL,
    OBSERVER_WHITE,
    Addressees,
    PressRequest,
    PressRules,
    PressSettingError,
    grey_allowed,
    grey_by_default,
    rules_of,
    white_allowed,
)
from .view import GameView

log = logging.getLogger(__name__)

MASTER_ROLE, OBSERVERS_ROLE = "Master", "Observers"


@dataclass(frozen=True, slots=True)
class Readers:
    """Who press to some powers is for: ``roles`` as named (powers in map order, then
    ``Master``, ``Observers``), the ``players`` reading it, and the powers named that
    nobody plays now (``unplayed``)."""

    roles: list[str]
    players: list[Player]
    unplayed: list[str]

    @property
    def master_only(self) -> bool:
        return self.roles == [MASTER_ROLE]


def _role(p: Player) -> str:
    if p.role == MASTER:
        return MASTER_ROLE
    if p.role == OBSERVER:
        return OBSERVERS_ROLE
    return p.power or ""


def _roles(view: GameView, group: Addressees) -> list[str] | None:
    """The roles a group of addressees names (None: everyone); raises ``PressSettingError``."""
    if group.broadcast:
        return None
    m = view.map
    named: set[str] = set()
    for letter in group.letters or "":
        if letter == "M":
            named.add(MASTER_ROLE)
        elif letter == "O":
            named.add(OBSERVERS_ROLE)
        elif (power := m.power_by_letter.get(letter)) is not None:
            named.add(power.name)
        else:
            raise PressSettingError(render.refusal("press_letter_unknown", letter=letter))
    all_roles = [p.name for p in m.powers] + [MASTER_ROLE, OBSERVERS_ROLE]
    return [r for r in all_roles if (r not in named) == group.all_but]


def readers_for(view: GameView, request: PressRequest) -> Readers | None:
    """The readers the request's letters name (None: a broadcast); raises ``PressSettingError``."""
    roles = _roles(view, request.readers)
    if roles is None:
        return None
    chosen = [p for p in view.members() if _role(p) in roles]
    played = {p.power for p in chosen}
    powers = {pw.name for pw in view.map.powers}
    unplayed = [r for r in roles if r in powers and r not in played]
    return Readers(roles, chosen, unplayed)


def shown_roles(view: GameView, me: Player, request: PressRequest, readers: Readers | None) -> list[str] | None:
    """The readers the press is shown as sent to (None: a broadcast): the real ones, unless
    it is faked (``FAKE ...``, or the game fakes press to some as a broadcast)."""
    real = None if readers is None else readers.roles
    if readers is not None and readers.master_only:
        return real
    if request.fake is not None:
        return _roles(view, request.fake)
    fake = rules_of(view.game).fake
    if me.role == MASTER:
        return real
    if fake == FAKE_ALWAYS or (fake == FAKE_BY_DEFAULT and not request.no_fake):
        return None
    return real


def refused(view: GameView, me: Player, request: PressRequest, readers: Readers | None,
            now: datetime) -> str | None:
    """Why the press may not go (a reason of the ``player/press_refused`` template), or None."""
    game = view.game
    rules = rules_of(game)
    to_powers = readers is not None and any(r not in (MASTER_ROLE, OBSERVERS_ROLE) for r in readers.roles)
    if game.status == FORMING and to_powers:
        return FORMING
    master_only = readers is not None and readers.master_only
    if master_only and (request.fake is not None or request.no_fake):
        return "fake_master"
    if me.role == MASTER or master_only:
        return None
    observer = me.role == OBSERVER
    if rules.kind == NONE:
        return "no_press"
    if observer and rules.observer == OBSERVER_NONE:
        return "observer_none"
    if readers is not None and not rules.partial and not (observer and rules.observer == OBSERVER_PARTIAL):
        return "no_partial"
    white_observer = observer and rules.observer == OBSERVER_WHITE
    if request.grey is True and not grey_allowed(rules.kind):
        return "no_grey"
    if request.grey is True and white_observer:
        return "observer_grey"
    if request.grey is False and not white_allowed(rules.kind) and not white_observer:
        return "no_white"
    return _fake_refused(rules, request) or (_timing_refused(view, me, rules, now) if me.role == PLAYER else None)


def _fake_refused(rules: PressRules, request: PressRequest) -> str | None:
    if request.fake is not None and rules.fake == NO_FAKE:
        return "no_fake"
    if rules.fake == FAKE_ALWAYS and (request.no_fake or request.fake is not None and not request.fake.broadcast):
        return "fake_always"
    return None


def _timing_refused(view: GameView, me: Player, rules: PressRules, now: datetime) -> str | None:
    """Why a player may not press now: MINOR, MUST ORDER, LATE and GRACE PRESS."""
    if not view.started:
        return None
    if not rules.minor and view.phase.kind != MOVEMENT:
        return "minor"
    power = me.power
    must = power is not None and power in orders.required(view.board, view.position)
    if rules.must_order and must and power is not None and not lateness.submitted(view, power):
        return "must_order"
    if lateness.past_deadline(view.game, now) and (not rules.late or not rules.grace):
        late = lateness.late_players(view)
        if not rules.late and any(p is me for p in late):
            return "late"
        if not rules.grace and late:
            return "grace"
    return None


def postal_refused(view: GameView, me: Player, now: datetime) -> str | None:
    """Why ``POSTAL PRESS`` may not be sent now, or None: the game must allow it (the master
    may always send it); observers' press setting and the players' timing rules apply."""
    if me.role == MASTER:
        return None
    rules = rules_of(view.game)
    if not rules.postal:
        return "no_postal"
    if me.role == OBSERVER and rules.observer == OBSERVER_NONE:
        return "observer_none"
    return _timing_refused(view, me, rules, now) if me.role == PLAYER else None


def is_grey(view: GameView, me: Player, request: PressRequest, readers: Readers | None) -> bool:
    """Whether the press goes out without its sender: never to the master alone; the
    master's only when asked; an observer's never where observers' press is white; a
    player's as asked, else as the game's default."""
    if readers is not None and readers.master_only:
        return False
    if me.role == OBSERVER and rules_of(view.game).observer == OBSERVER_WHITE:
        return False
    if me.role == MASTER or request.grey is not None:
        return bool(request.grey)
    return grey_by_default(view.game.press)


def deliver(view: GameView, config: Config, body: str, me: Player, request: PressRequest,
            readers: Readers | None, grey: bool) -> tuple[str, list[Mail]]:
    """The press mails and the sender's reply section (the press as it went out, and who
    got it)."""
    ctx = context(config, view, me)
    real = None if readers is None else tuple(readers.roles)
    shown_list = shown_roles(view, me, request, readers)
    shown = PressHeader(disclosure.press_author(view.game, role_of(me), me.email, grey=grey),
                        None if grey else role_of(me), None if shown_list is None else tuple(shown_list))
    truth = PressHeader(me.email, role_of(me), real)
    masters = [p for p in view.members(MASTER) if p is not me]
    if readers is None:
        audience, kind = view.members(), "press"
    else:
        copied = masters if view.game.all_press else [p for p in masters if p in readers.players]
        audience, kind = [*readers.players, *copied], "partial"
    def press(ctx: render.GameContext) -> render.Rendered:
        return render.press_mail(ctx, body, author=shown.author, role=shown.role, recipients=shown.recipients)

    def master_copy(ctx: render.GameContext) -> render.Rendered:
        return render.press_mail(ctx, body, author=shown.author, role=shown.role, recipients=shown.recipients,
                                 truth=truth)

    if shown == truth:
        mails = per_zone(view, config, audience, press, kind)
    else:
        told = [p for p in audience if p is not me and disclosure.sees_press_truth(view.game, p)]
        mails = [*per_zone(view, config, [p for p in audience if p not in told], press, kind),
                 *per_zone(view, config, told, master_copy, kind, archive=False)]
    sent = render.press_sent_text(ctx, body, author=shown.author, role=shown.role, recipients=shown.recipients)
    log.info("%s: %s press from %s to %s%s", view.name, "grey" if grey else "white", role_of(me),
             "everyone" if readers is None else ", ".join(readers.roles),
             "" if shown.recipients == real else f", shown as to {', '.join(shown.recipients or ('everyone',))}")
    return sent + "\n" + _delivered(view, me, readers, shown, real), mails


def _delivered(view: GameView, me: Player, readers: Readers | None, shown: PressHeader,
               real: tuple[str, ...] | None) -> str:
    """Who got the press, and what they were shown, for the sender's reply."""
    faked = None if shown.recipients == real else ("broadcast" if shown.recipients is None else "partial")
    values = {"grey": shown.role is None, "faked": faked, "shown": list(shown.recipients or ()),
              "hidden": shown.role is not None and shown.author is None}
    if readers is None:
        return render.section("player/press_delivered", everyone=True, got=[], unplayed=[], master_copy=False,
                              **values)
    present = {_role(p) for p in readers.players}
    got = [r for r in readers.roles if r in present]
    copy = (view.game.all_press and MASTER_ROLE not in readers.roles
            and any(p.role == MASTER and p is not me for p in view.members()))
    return render.section("player/press_delivered", everyone=False, got=got, unplayed=readers.unplayed,
                          master_copy=copy, **values)


# -- postal press --------------------------------------------------------------------------------


def hold_postal(view: GameView, config: Config, body: str, me: Player) -> str:
    """Keep ``body`` as postal press of the current phase; the sender's reply section."""
    game = view.game
    view.session.add(PostalPress(game_id=game.id, phase=game.phase or "", role=role_of(me), author=me.email,
                                 body=body))
    ctx = context(config, view)
    title = ctx.calendar.phase_title(view.phase)
    log.info("%s: postal press from %s held for %s", view.name, role_of(me), game.phase)
    return render.section("player/postal_held", game=game.name, title=title, phase=game.phase,
                          role=role_of(me), author=disclosure.press_author(view.game, role_of(me), me.email, grey=False),
                          text=body.strip("\n"))


def postal_delivery(view: GameView, config: Config, done: Phase) -> list[Mail]:
    """After the results of ``done``: every postal press message held, in one mail to
    everyone (white: njudge "the identity of the sender is always revealed"; no address in
    a gunboat game unless it is the master's), each marked delivered."""
    held = postal_waiting(view.session, view.game.id)
    if not held:
        return []
    messages = [(PressHeader(disclosure.press_author(view.game, p.role, p.author, grey=False), p.role), p.body)
                for p in held]
    for p in held:
        p.delivered = True
    log.info("%s: %d postal press message(s) of %s delivered", view.name, len(held), done.code)
    return per_zone(view, config, view.members(), lambda ctx: render.postal_press_mail(ctx, done, messages),
                    "press", done.code)
