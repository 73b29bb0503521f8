"""A member's own settings: SET PASSWORD, SET ADDRESS, SET ZONE, SET ABSENCE and
SET NOABSENCE (njudge ``data/index``, ``data/absence``).

- ``SET PASSWORD new``: the password of the sender's place in the signed-on game (letters
  and digits only, as njudge).
- ``SET ADDRESS [address]``: where the sender's mail for the game goes; without an address,
  the address this mail came from (its ``Reply-To``, else its ``From``). The master is told.
- ``SET ZONE name``: the zone the sender reads the game's dates in (an IANA name; ``SET ZONE
  DEFAULT`` goes back to the game's). The master's ``SET ZONE`` sets the game's zone, the
  zone of its clock and of every reader who set none; everyone is told.
- ``SET ABSENCE start [TO end]`` / ``SET NOABSENCE date`` (also ``SET VACATION``, ``SET
  HOLIDAY``): see :mod:`judge.game.absences`. The master is told of each, and of a request
  over the game's limit.
"""

from __future__ import annotations

import re
from datetime import datetime
from email.utils import parseaddr

from .. import render
from ..game import absences
from ..game.mails import Build, Mail, per_zone
from ..game.view import GameView
from ..game.zones import check_zone
from ..store.games import MASTER, OBSERVER, Player
from ..store.passwords import hash_password
from .outcome import Call, Outcome, said

_PASSWORD = re.compile(r"^[A-Za-z0-9]{1,32}$")
_ADDRESS = re.compile(r"^[^@\s,;<>()\"]+@[^@\s,;<>()\"]+\.[^@\s,;<>()\"]+$")


def set_password(call: Call) -> Outcome:
    words = call.cmd.args
    if len(words) != 1 or not _PASSWORD.match(words[0]):
        return call.error(render.refusal("password_syntax"))
    call.me.password_hash = hash_password(words[0])
    return said(_text(call, "password"))


def set_address(call: Call) -> Outcome:
    """``SET ADDRESS [address]`` (module docstring)."""
    text = call.cmd.text.strip()
    address = call.sender
    if text:
        name, bare = parseaddr(text)
        bare = bare.strip().lower()
        if name or not _ADDRESS.match(bare) or text.strip("<> ").lower() != bare:
            return call.error(render.refusal("address_syntax"))
        address = bare
    me = call.me
    old, me.email = me.email, address
    mails = _to_masters(call, lambda ctx: render.member_changed_mail(ctx, _who(me), address, old)) \
        if me.role != MASTER and old != address else []
    return said(_text(call, "address", address=address, old=old), mails=mails)


def set_zone(call: Call) -> Outcome:
    """``SET ZONE name``: the sender's own zone, or the master's: the game's."""
    text = call.cmd.text.strip()
    me, game = call.me, call.view.game
    name = None if text.upper() in ("DEFAULT", "NONE", "OFF") else check_zone(text)
    if me.role == MASTER:
        game.zone = name
        shown = name or call.config.timezone
        section = render.section("all/zone_set", game=game.name, zone=shown)
        return said(section, changed=True, settings=(section,))
    me.zone = name
    return said(_text(call, "zone", zone=name or "", default=call.view.game.zone or call.config.timezone))


def set_absence(call: Call) -> Outcome:
    me, view = call.me, call.view
    if not me.active:
        return call.error(render.refusal("absence_not_member"))
    period = absences.read_period(call.cmd.text, call.now, call.zone())
    by_master = call.identity is not None and call.identity.became is not None
    refused = absences.too_long(view, me, period, by_master=by_master)
    if refused is not None:
        mails = _to_masters(call, lambda ctx: render.absence_mail(ctx, _who(me), me.email, period.starts,
                                                                  period.ends, cancelled=False, refused=refused))
        return Outcome(reply=(render.error_text(render.refusal("absence_refused_master_told", why=refused),
                                                call.cmd.line),), errors=1, mails=tuple(mails))
    absence = absences.declare(view, me, period, call.now, by_master=by_master)
    return _absence_told(call, me, absence.starts, absence.ends, cancelled=False)


def set_noabsence(call: Call) -> Outcome:
    me = call.me
    absence = absences.cancel(call.view, me, call.cmd.text, call.now, call.zone())
    return _absence_told(call, me, absence.starts, absence.ends, cancelled=True)


def _absence_told(call: Call, me: Player, starts: datetime, ends: datetime, *, cancelled: bool) -> Outcome:
    ctx = call.context()
    mails = [] if me.role == MASTER else _to_masters(
        call, lambda c: render.absence_mail(c, _who(me), me.email, starts, ends, cancelled=cancelled))
    pending = [(ctx.when(a.starts), ctx.when(a.ends)) for a in absences.pending(me, call.now)]
    text = render.section("player/absence", game=call.view.name, who=_who(me), starts=ctx.when(starts),
                          ends=ctx.when(ends), cancelled=cancelled, pending=pending,
                          current=ctx.when(call.view.game.deadline) if call.view.game.deadline else None)
    return said(text, mails=mails)


def _who(me: Player) -> str:
    if me.role == MASTER:
        return "Master"
    return "Observer" if me.role == OBSERVER else me.power or "Player"


def _to_masters(call: Call, build: Build) -> list[Mail]:
    view: GameView = call.view
    return per_zone(view, call.config, view.members(MASTER), build, "private")


def _text(call: Call, what: str, **values: str) -> str:
    return render.section("player/setting", what=what, game=call.view.name, who=_who(call.me),
                          **{"address": "", "old": "", "zone": "", "default": "", **values})
