"""Glicko-2 ratings for races, after Mark E. Glickman, "Example of the Glicko-2 system" (2013).

A race is one rating period: every racer is rated against every other racer's rating from before
the race, scoring 1 against each racer who finished below, 0.5 against each one tied and 0 against
each one above. Standard library only, so the races app's services can call it from any thread and
the tests can check it without a database.

Ratings are kept on the familiar Glicko scale (1500 ± 350) and converted to the Glicko-2 scale
(μ, φ) only inside :func:`rate`; the step numbers in the comments are those of the paper.

>>> new = rate_race({1: Rating(), 2: Rating()}, [[1], [2]])
>>> round(new[1].rating, 2), round(new[2].rating, 2), round(new[1].deviation, 2)
(1662.31, 1337.69, 290.32)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

TAU: Final = 0.5
"""The system constant τ: how far the volatility may move in one period. Glickman suggests 0.3 to
1.2; small values stop a few surprising races from swinging a rating far. 0.5 is the paper's
example value, so the worked example can be checked as printed."""

EPSILON: Final = 0.000001
"""Convergence tolerance of the volatility iteration (step 5), the paper's value."""

GLICKO2_SCALE: Final = 173.7178
"""Glicko points per Glicko-2 unit (step 2): μ = (r − 1500) / 173.7178, φ = RD / 173.7178."""

BASE_RATING: Final = 1500.0
"""A new player's rating, and the zero of the Glicko-2 scale."""

MAX_DEVIATION: Final = 350.0
"""A new player's deviation, and the most any deviation may grow to: beyond it a rating says
nothing at all, and a player who stays away long enough simply counts as new again."""

WIN: Final = 1.0
TIE: Final = 0.5
LOSS: Final = 0.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Glicko scale, with the Glicko-2 volatility.

    The defaults are those of an unrated player (step 1 of the paper).
    """

    rating: float = BASE_RATING
    deviation: float = MAX_DEVIATION
    """The rating deviation RD: about 95 % of the time the true strength lies within ±2 RD."""
    volatility: float = 0.06
    """σ: how erratic the player's results are; it sets how fast the deviation grows back."""

    def __post_init__(self) -> None:
        # A zero deviation or volatility would divide by zero in steps 5 and 7, and NaN would spread
        # silently into every rating it meets, so such values are refused where they are made.
        if not math.isfinite(self.rating):
            raise ValueError(f"rating must be a finite number, not {self.rating!r}")
        if not (math.isfinite(self.deviation) and self.deviation > 0):
            raise ValueError(f"deviation must be a positive number, not {self.deviation!r}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"volatility must be a positive number, not {self.volatility!r}")


def conservative(r: Rating) -> float:
    """The rating less two deviations: a value the player is about 97.5 % likely to be above.

    Boards sort by it so that one lucky race does not put a newcomer (RD 350) above players whose
    strength is well known.

    >>> conservative(Rating(1700.0, 50.0))
    1600.0
    """
    return r.rating - 2 * r.deviation


def rate(player: Rating, results: Sequence[tuple[Rating, float]]) -> Rating:
    """The player's rating after one rating period with these results (Glickman 2013, steps 2–8).

    Each result is the opponent's rating from before the period and the player's score against
    them (1.0 win, 0.5 tie, 0.0 loss). With no results only the deviation grows, by the volatility
    (step 6). The new deviation is clamped to at most 350.

    The paper's worked example, which prints μ′ = −0.2069, φ′ = 0.8722, σ′ = 0.05999 and, from
    those rounded values, r′ = 1464.06 and RD′ = 151.52 (unrounded, r′ is 1464.0507):

    >>> new = rate(Rating(1500, 200, 0.06),
    ...            [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
    >>> round(new.rating, 2), round(new.deviation, 2), round(new.volatility, 6)
    (1464.05, 151.52, 0.059996)
    """
    for _opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score must be between 0 and 1, not {score!r}")
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - BASE_RATING) / GLICKO2_SCALE
    phi = player.deviation / GLICKO2_SCALE
    if not results:
        # Step 6 alone: rating and volatility stay, the uncertainty grows.
        return _from_glicko2(mu, math.sqrt(phi**2 + player.volatility**2), player.volatility)
    # Per game: the opponent's weight g(φj), the expected score E(μ, μj, φj) and the actual score.
    games = [_game(mu, opponent, score) for opponent, score in results]
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    variance = 1.0 / sum(g_j**2 * e_j * (1.0 - e_j) for g_j, e_j, _ in games)
    # Step 4: the improvement the outcomes suggest, before weighting by the deviation.
    outcome_sum = sum(g_j * (s_j - e_j) for g_j, e_j, s_j in games)
    improvement = variance * outcome_sum
    # Step 5: the new volatility.
    volatility = _new_volatility(phi, player.volatility, variance, improvement)
    # Step 6: the deviation grown by the new volatility, as if the period had been played blind.
    phi_star = math.sqrt(phi**2 + volatility**2)
    # Step 7: the games then narrow the deviation and move the rating.
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / variance)
    new_mu = mu + new_phi**2 * outcome_sum
    # Step 8: back to the Glicko scale.
    return _from_glicko2(new_mu, new_phi, volatility)


def race_results(order: Sequence[Sequence[int]]) -> dict[int, list[tuple[int, float]]]:
    """Every racer's (opponent, score) against every other racer, from the finishing order.

    ``order`` groups racers' ids by place, best first; racers in the same group tied. A racer
    scores 1 against everyone in a later group, 0.5 against the rest of their own group and 0
    against everyone in an earlier one. Opponents come in finishing order.

    >>> race_results([[7], [3, 9]])
    {7: [(3, 1.0), (9, 1.0)], 3: [(7, 0.0), (9, 0.5)], 9: [(7, 0.0), (3, 0.5)]}
    """
    place_of = _places(order)
    return {
        racer: [
            (opponent, _score(place_of[racer], place))
            for opponent, place in place_of.items()
            if opponent != racer
        ]
        for racer in place_of
    }


def rate_race(ratings: Mapping[int, Rating], order: Sequence[Sequence[int]]) -> dict[int, Rating]:
    """Every racer's new rating after one race, treated as one rating period.

    Each racer is rated against the other racers' ratings from before the race, so the order in
    which racers are updated cannot change anyone's result. ``ratings`` must hold every racer in
    ``order`` (pass ``Rating()`` for a newcomer); other entries are ignored. A racer alone in a
    race has no opponent, so only their deviation grows.
    """
    results = race_results(order)
    missing = sorted(racer for racer in results if racer not in ratings)
    if missing:
        raise ValueError(f"no rating given for racers {missing}")
    return {
        racer: rate(
            ratings[racer], [(ratings[opponent], score) for opponent, score in racer_results]
        )
        for racer, racer_results in results.items()
    }


def _game(mu: float, opponent: Rating, score: float) -> tuple[float, float, float]:
    """One game of the period on the Glicko-2 scale: (g(φj), E(μ, μj, φj), sj)."""
    opponent_g = _g(opponent.deviation / GLICKO2_SCALE)
    opponent_mu = (opponent.rating - BASE_RATING) / GLICKO2_SCALE
    return opponent_g, _expected(mu, opponent_mu, opponent_g), score


def _g(phi: float) -> float:
    """Glickman's g(φ): an opponent whose rating is uncertain says less about the player."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _expected(mu: float, opponent_mu: float, opponent_g: float) -> float:
    """E(μ, μj, φj): the player's expected score against this opponent."""
    return 1.0 / (1.0 + math.exp(-opponent_g * (mu - opponent_mu)))


def _new_volatility(phi: float, volatility: float, variance: float, improvement: float) -> float:
    """Step 5: σ′, the root of f(x) = 0 with x = ln σ′², by the Illinois algorithm of the paper.

    The Illinois variant of regula falsi keeps the root bracketed between A and B and halves the
    stale end's f value, which avoids the slow one-sided convergence of plain regula falsi.
    """
    a = math.log(volatility**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi**2 + variance + ex
        return ex * (improvement**2 - phi**2 - variance - ex) / (2.0 * spread**2) - (x - a) / TAU**2

    # Step 5.2: the initial bracket [A, B].
    low = a
    if improvement**2 > phi**2 + variance:
        high = math.log(improvement**2 - phi**2 - variance)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    # Step 5.4: narrow the bracket until it is EPSILON wide.
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    # Step 5.5
    return math.exp(low / 2.0)


def _from_glicko2(mu: float, phi: float, volatility: float) -> Rating:
    """Step 8: back to the Glicko scale, with the deviation clamped to MAX_DEVIATION."""
    return Rating(
        rating=BASE_RATING + GLICKO2_SCALE * mu,
        deviation=min(GLICKO2_SCALE * phi, MAX_DEVIATION),
        volatility=volatility,
    )


def _places(order: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each racer's place (0 = first) in finishing order; a racer may finish only once."""
    place_of: dict[int, int] = {}
    for place, group in enumerate(order):
        for racer in group:
            if racer in place_of:
                raise ValueError(f"racer {racer} appears more than once in the finishing order")
            place_of[racer] = place
    return place_of


def _score(place: int, opponent_place: int) -> float:
    """The score of a racer who finished at ``place`` against one at ``opponent_place``."""
    if place < opponent_place:
        return WIN
    if place == opponent_place:
        return TIE
    return LOSS
