"""Press: who a ``BROADCAST`` or ``PRESS`` reaches, whether the game allows it, and the mails.

``BROADCAST`` without options and ``PRESS TO ALL`` go to every player, observer and the
master. ``PRESS TO FG`` goes to the players of France and Germany (``M`` is the master,
``O`` the observers), ``PRESS TO ALL BUT G`` to everyone else; the master gets a copy of
all press. ``GREY`` sends the press without its sender's power and address, ``WHITE`` with
them; which ones a game allows is its press setting (:mod:`.press_rules`). Press to the
master alone is always allowed and always white, and the master may always send press.
Observers' press follows the game's settings like players'.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from .. import render
from ..config import Config
from ..store.games import FORMING, MASTER, OBSERVER, Player
from .mails import Mail, addresses, context, everyone, role_of
from .press_rules import NONE, PressRequest, PressSettingError, grey_allowed, grey_by_default, white_allowed
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


def readers_for(view: GameView, request: PressRequest) -> Readers | None:
    """The readers the request's letters name (None: a broadcast); raises ``PressSettingError``."""
    if request.broadcast:
        return None
    m = view.map
    named: set[str] = set()
    for letter in request.letters or "":
        if letter == "M":
            named.add(MASTER_ROLE)
        elif letter == "O":
            named.add(OBSERVERS_ROLE)
        elif (power := m.power_by_letter.get(letter)) is not None:
            named.add(power.name)
        else:
            raise PressSettingError(f"No power has the letter {letter!r}; nothing was sent.")
    all_roles = [p.name for p in m.powers] + [MASTER_ROLE, OBSERVERS_ROLE]
    roles = [r for r in all_roles if (r not in named) == request.all_but]
    chosen = [p for p in view.members() if _role(p) in roles]
    played = {p.power for p in chosen}
    unplayed = [r for r in roles if r in {pw.name for pw in m.powers} and r not in played]
    return Readers(roles, chosen, unplayed)


def refused(view: GameView, me: Player, request: PressRequest, readers: Readers | None) -> str | None:
    """Why the press may not go (a reason of the ``player/press_refused`` template), or None."""
    game = view.game
    to_powers = readers is not None and any(r not in (MASTER_ROLE, OBSERVERS_ROLE) for r in readers.roles)
    if game.status == FORMING and to_powers:
        return "forming"
    if me.role == MASTER or (readers is not None and readers.master_only):
        return None
    if game.press == NONE:
        return "no_press"
    if readers is not None and not game.partial_press:
        return "no_partial"
    if request.grey is True and not grey_allowed(game.press):
        return "no_grey"
    if request.grey is False and not white_allowed(game.press):
        return "no_white"
    return None


def is_grey(view: GameView, me: Player, request: PressRequest, readers: Readers | None) -> bool:
    """Whether the press goes out without its sender: never to the master alone; the
    master's only when asked; a player's as asked, else as the game's default."""
    if readers is not None and readers.master_only:
        return False
    if me.role == MASTER or request.grey is not None:
        return bool(request.grey)
    return grey_by_default(view.game.press)


def deliver(view: GameView, config: Config, body: str, me: Player, readers: Readers | None,
            grey: bool) -> tuple[str, list[Mail]]:
    """The press mails and the sender's reply section (the press as it went out, and who
    got it)."""
    ctx = context(config, view)
    role = role_of(me)
    author = None if grey else me.email
    names = None if readers is None else readers.roles
    mail = render.press_mail(ctx, body, author=author, role=role, recipients=names)
    if readers is None:
        to, kind = everyone(view), "press"
    else:
        masters = [p for p in view.members(MASTER) if p is not me]
        to, kind = addresses([*readers.players, *masters]), "partial"
    sent = render.press_sent_text(ctx, body, author=author, role=role, recipients=names)
    log.info("%s: %s press from %s to %s", view.name, "grey" if grey else "white", role,
             "everyone" if readers is None else ", ".join(readers.roles))
    return sent + "\n" + _delivered(view, me, readers, grey), [Mail.of(to, mail, kind, view)]


def _delivered(view: GameView, me: Player, readers: Readers | None, grey: bool) -> str:
    """Who got the press, for the sender's reply."""
    if readers is None:
        return render.section("player/press_delivered", everyone=True, grey=grey, got=[], unplayed=[],
                              master_copy=False)
    present = {_role(p) for p in readers.players}
    got = [r for r in readers.roles if r in present]
    copy = MASTER_ROLE not in readers.roles and any(p.role == MASTER and p is not me for p in view.members())
    return render.section("player/press_delivered", everyone=False, grey=grey, got=got,
                          unplayed=readers.unplayed, master_copy=copy)
