"""Ranks from a game's end, and one game rated with openskill's Plackett–Luce model.

Ranks (:func:`rank_seats`), as the anchors rank a Diplomacy result: a solo first and alone;
the members of a draw tie for first; a concession ranks the power conceded to first; the
other survivors follow by their supply centres at the end (equal counts tie); the
eliminated tie last.

Partial play (:func:`rate_game`): a seat is a power, played by one or more people over the
game, each with a share (the part of the game they played; shares sum to at most 1, the rest
was played by nobody, :data:`NOBODY`, who counts at a new player's rating). The model rates
the seats as one-member teams, each seat's rating being the share-weighted mean of its
players' (mu = sum of share x mu, sigma^2 = sum of share x sigma^2). Each player then moves by
their share of their seat's change: mu + share x (seat's new mu - seat's mu), and sigma times
(seat's new sigma / seat's sigma) ** share. A player with the whole seat moves exactly as the
library moves a lone player; one with a small share moves little either way, so taking over a
hopeless position costs little and leaving one is no shelter: the leaver keeps their share.
Someone in several seats of one game (the judge's bot) adds up the changes of each.

Everything here is deterministic floating point: the same games in the same order give the
same values, so a rebuild equals the values kept game by game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

#: The one player the judge's bot is rated as, and the one a seat's unplayed part counts as.
BOT, NOBODY = "bot", ""

#: The model and its parameters (openskill's defaults, named so exports can state them).
MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0, 0.0001
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)
PARAMETERS = {"model": "PlackettLuce", "mu": MU, "sigma": SIGMA, "beta": BETA, "tau": TAU, "kappa": KAPPA}

#: The conservative display value is mu - Z x sigma.
Z = 3.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill: mean and uncertainty, and how many games it counts."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def display(self) -> float:
        return conservative(self.mu, self.sigma)


def fresh() -> Rating:
    """A new player's rating."""
    return Rating()


def conservative(mu: float, sigma: float) -> float:
    """The display value: mu - 3 sigma, a rating the player is very likely above."""
    return mu - Z * sigma


@dataclass(frozen=True, slots=True)
class Seat:
    """A power at the end of a game: its rank (0 first; equal ranks tie) and who played it,
    player -> share of the game."""

    power: str
    rank: int
    shares: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Change:
    """What one game did to one player's rating: before and after, the powers and the share."""

    player: str
    before: Rating
    after: Rating
    powers: tuple[str, ...]
    share: float


def rank_seats(powers: Sequence[str], winners: Sequence[str], centres: Mapping[str, int],
               alive: Sequence[str]) -> dict[str, int]:
    """Each power's rank (see the module docstring): ``winners`` (a solo, a draw's members or
    the power conceded to) first, the other survivors by ``centres``, the eliminated last."""
    first = set(winners)
    living = [p for p in powers if p in set(alive) and p not in first]
    counts = sorted({centres.get(p, 0) for p in living}, reverse=True)
    ranks = {p: 0 for p in powers if p in first}
    offset = 1 if first else 0
    for p in living:
        ranks[p] = offset + counts.index(centres.get(p, 0))
    last = offset + len(counts)
    for p in powers:
        ranks.setdefault(p, last)
    return ranks


def rate_game(ratings: Mapping[str, Rating], seats: Sequence[Seat]) -> list[Change]:
    """Rate one game: each player's change (players not in ``ratings`` start fresh), sorted
    by player. :data:`NOBODY` is never rated."""
    def current(player: str) -> Rating:
        return ratings.get(player) or fresh()

    teams, before = [], []
    for seat in seats:
        played = sum(seat.shares.values())
        parts = [(current(p), w) for p, w in sorted(seat.shares.items()) if p != NOBODY and w > 0]
        parts.append((fresh(), max(0.0, 1.0 - played)))
        mu = sum(r.mu * w for r, w in parts)
        var = sum(r.sigma * r.sigma * w for r, w in parts)
        before.append((mu, var ** 0.5))
        teams.append([MODEL.rating(mu=mu, sigma=var ** 0.5)])
    rated = MODEL.rate(teams, ranks=[float(s.rank) for s in seats])
    mu_moves: dict[str, float] = {}
    sigma_factors: dict[str, float] = {}
    powers: dict[str, list[str]] = {}
    shares: dict[str, float] = {}
    for seat, (mu, sigma), [after] in zip(seats, before, rated, strict=True):
        for player, share in sorted(seat.shares.items()):
            if player == NOBODY or share <= 0:
                continue
            mu_moves[player] = mu_moves.get(player, 0.0) + share * (after.mu - mu)
            sigma_factors[player] = sigma_factors.get(player, 1.0) * (after.sigma / sigma) ** share
            powers.setdefault(player, []).append(seat.power)
            shares[player] = shares.get(player, 0.0) + share
    changes = []
    for player in sorted(mu_moves):
        old = current(player)
        new = Rating(old.mu + mu_moves[player], old.sigma * sigma_factors[player], old.games + 1)
        changes.append(Change(player, old, new, tuple(powers[player]), shares[player]))
    return changes
