"""Who someone is on this judge: ``WHOIS address`` (also ``WHO IS``, ``INFO PLAYER``) and
``GET DEDICATION`` (njudge ``data/index``, ``data/dedsystems``).

Both show an address's record (:mod:`judge.game.records`: phases on time, late and missed,
games started, taken over, finished, abandoned and resigned, the dedication and the ratios)
and the games it has a place in, with the place's role and state. ``GET DEDICATION`` is the
sender's own. Addresses are matched whole (njudge's prefix search would list every address
on the judge). A place is listed only if the sender may know who holds it
(:func:`judge.game.disclosure.sees_identities`): a place in a gunboat game that is not over
only to that game's master, signed on (a ``From`` header proves nothing, so not even to the
address itself).
"""

from __future__ import annotations

from .. import render
from ..game import disclosure, records
from ..store.games import MASTER, OBSERVER, Player, players_with_address
from .outcome import Call, Outcome, said

MAX_ADDRESSES = 10


def whois(call: Call) -> Outcome:
    words = [w.strip(",;<>").lower() for w in call.cmd.args]
    if not words:
        return call.error(render.refusal("whois_syntax"))
    bad = [w for w in words if "@" not in w]
    if bad:
        return call.error(render.refusal("whois_not_addresses", words=bad))
    return said(*(_record_text(call, w) for w in words[:MAX_ADDRESSES]))


def get_dedication(call: Call) -> Outcome:
    return said(_record_text(call, call.sender))


def _record_text(call: Call, address: str) -> str:
    places = players_with_address(call.session, address)
    record = records.of_places(address, places)
    shown = [p for p in places if disclosure.sees_identities(p.game, _reader(call, p))]
    return render.section("player/whois", address=address, record=record, places=[_place(p) for p in shown],
                          ontime=_ratio(record.on_time_ratio), cd=_ratio(record.cd_ratio))


def _reader(call: Call, place: Player) -> Player | None:
    """The sender as a member of ``place``'s game: signed on to it, else None."""
    identity = call.identity
    return identity.me if identity is not None and identity.view.game is place.game else None


def _place(p: Player) -> tuple[str, str, str, str]:
    """(game, role, the place's state, the game's status and phase)."""
    role = "Master" if p.role == MASTER else "Observer" if p.role == OBSERVER else p.power or "(to be assigned)"
    state = "playing" if p.active and p.role not in (MASTER, OBSERVER) else p.status
    if p.active and p.role in (MASTER, OBSERVER):
        state = ""
    game = p.game
    return game.name, role, state, f"{game.status} {game.phase or ''}".strip()


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
