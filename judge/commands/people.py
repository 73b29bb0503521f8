"""Who someone is on this judge: ``WHOIS address`` (also ``WHO IS``, ``INFO PLAYER``),
``GET DEDICATION`` (njudge ``data/index``, ``data/dedsystems``), and the skill ratings:
``RATING [address]`` and ``RATINGS [map]``.

WHOIS and GET DEDICATION show an address's record (:mod:`judge.game.records`: phases on
time, late and missed, games started, taken over, finished, abandoned and resigned, the
dedication and the ratios), its skill ratings (:mod:`judge.game.ratings`: mean, uncertainty
and the conservative display value, overall and per map) and the games it has a place in,
with the place's role and state. ``GET DEDICATION`` is the sender's own. Addresses are
matched whole (njudge's prefix search would list every address on the judge). A place is
listed only if the sender may know who holds it (:func:`judge.game.disclosure.sees_identities`):
a place in a gunboat game that is not over only to that game's master, signed on (a ``From``
header proves nothing, so not even to the address itself). ``RATING`` alone is the
sender's, ``RATING bot`` the judge's bot's (rated as one player wherever it played a seat);
``RATINGS`` gives the top of the overall ladder, ``RATINGS map`` of a map's.
"""

from __future__ import annotations

from .. import render
from ..game import disclosure, ratings, records
from ..maps import available_maps, load_map
from ..ratings import BOT, Rating, fresh
from ..store.games import MASTER, OBSERVER, Player, players_with_address
from ..store.ratings import OVERALL, player_ratings
from .outcome import Call, Outcome, said

MAX_ADDRESSES = 10
#: How many players ``RATINGS`` lists.
TOP = 20


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
    text = render.section("player/whois", address=address, record=record, places=[_place(p) for p in shown],
                          ontime=_ratio(record.on_time_ratio), cd=_ratio(record.cd_ratio))
    return text.rstrip("\n") + "\n\n" + _rating_text(call, address)


def rating(call: Call) -> Outcome:
    """``RATING [address]``: the skill ratings of an address (the sender's by default), or
    ``RATING bot``: the judge's bot's."""
    words = [w.strip(",;<>").lower() for w in call.cmd.args]
    if words and "@" not in words[0] and words[0] != BOT:
        return call.error(render.refusal("whois_not_addresses", words=words[:1]))
    return said(_rating_text(call, words[0] if words else call.sender))


def ratings_table(call: Call) -> Outcome:
    """``RATINGS [map]``: the top of the overall ladder, or of a map's."""
    ladder = OVERALL
    if call.cmd.args:
        try:
            ladder = load_map(call.cmd.args[0]).name
        except KeyError:
            return call.error(render.refusal("ratings_no_map", word=call.cmd.args[0], maps=available_maps()))
    standing = ratings.standings(call.session, ladder)
    rows = [(i + 1, player, *_figures(r)[:3], r.games) for i, (player, r) in enumerate(standing[:TOP])]
    title = ladder if ladder == OVERALL else load_map(ladder).title
    return said(render.section("player/ratings", ladder=title, rows=rows, total=len(standing)))


def _rating_text(call: Call, address: str) -> str:
    rows = []
    for r in player_ratings(call.session, address.strip().lower()):
        shown, mu, sigma = _figures(Rating(r.mu, r.sigma))
        rows.append(("Overall" if r.ladder == OVERALL else load_map(r.ladder).title, mu, sigma, shown, r.games))
    shown, mu, sigma = _figures(fresh())
    return render.section("player/rating", address=address, ratings=rows, mu=mu, sigma=sigma, shown=shown)


def _figures(r: Rating) -> tuple[str, str, str]:
    """(display value, mu, sigma) as printed."""
    return f"{r.display:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}"


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
