"""Glicko-2 ratings: Glickman's worked example (2013), the no-games step, races and properties.

Expected values come from the paper's formulas and figures, recomputed here where needed, never
from the module's own helpers.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from races.rating import TAU, Rating, conservative, race_results, rate, rate_race

SCALE = 173.7178
PAPER_PLAYER = Rating(1500.0, 200.0, 0.06)
PAPER_RESULTS = [
    (Rating(1400.0, 30.0), 1.0),
    (Rating(1550.0, 100.0), 0.0),
    (Rating(1700.0, 300.0), 0.0),
]

ratings = st.builds(
    Rating,
    rating=st.floats(min_value=100.0, max_value=3000.0),
    deviation=st.floats(min_value=30.0, max_value=350.0),
    volatility=st.floats(min_value=0.01, max_value=0.2),
)
scores = st.sampled_from([0.0, 0.5, 1.0])
results_lists = st.lists(st.tuples(ratings, scores), min_size=1, max_size=8)
PROPERTY_SETTINGS = settings(max_examples=300, deadline=None)


def test_paper_example_on_the_glicko_scale() -> None:
    """1500/200/0.06 beating 1400/30 and losing to 1550/100 and 1700/300 ends at 1464.06/151.52."""
    new = rate(PAPER_PLAYER, PAPER_RESULTS)

    # The paper rounds μ′ to four places before converting, hence its 1464.06 for 1464.0507.
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.005)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_paper_example_on_the_glicko2_scale() -> None:
    """The paper's μ′ = −0.2069, φ′ = 0.8722 and σ′ = 0.05999 (to the digits it prints)."""
    new = rate(PAPER_PLAYER, PAPER_RESULTS)

    assert (new.rating - 1500.0) / SCALE == pytest.approx(-0.2069, abs=0.00005)
    assert new.deviation / SCALE == pytest.approx(0.8722, abs=0.00005)
    assert math.floor(new.volatility * 100000) == 5999


def test_no_games_grows_only_the_deviation() -> None:
    """With no results, φ* = √(φ² + σ²) (step 6) and rating and volatility stay as they were."""
    new = rate(PAPER_PLAYER, [])

    assert new.rating == PAPER_PLAYER.rating
    assert new.volatility == PAPER_PLAYER.volatility
    assert new.deviation == pytest.approx(math.sqrt(200.0**2 + (0.06 * SCALE) ** 2))
    assert new.deviation == pytest.approx(200.27, abs=0.005)


def test_deviation_never_grows_beyond_350() -> None:
    """A nearly-new player who sits out a period is clamped to a new player's 350, not beyond."""
    assert rate(Rating(1500.0, 349.9, 0.06), []).deviation == 350.0
    assert rate(Rating(), []) == Rating()


def test_equal_players_winner_gains_what_loser_loses() -> None:
    """Between two equal players the game is symmetric: same swing, same new deviation."""
    player = Rating(1500.0, 200.0, 0.06)
    winner = rate(player, [(player, 1.0)])
    loser = rate(player, [(player, 0.0)])

    assert winner.rating > 1500.0 > loser.rating
    assert winner.rating - 1500.0 == pytest.approx(1500.0 - loser.rating)
    assert winner.deviation == pytest.approx(loser.deviation)
    assert winner.deviation < player.deviation


def test_close_players_swap_about_the_same_points() -> None:
    """Two close players with different certainty still trade roughly the same amount."""
    first, second = Rating(1520.0, 80.0, 0.06), Rating(1480.0, 90.0, 0.06)
    new = rate_race({1: first, 2: second}, [[1], [2]])

    gained, lost = new[1].rating - first.rating, second.rating - new[2].rating
    assert gained > 0
    assert lost > 0
    assert gained == pytest.approx(lost, rel=0.3)


def test_tie_between_equal_players_changes_no_rating() -> None:
    """A tie between equals moves no rating but still narrows both deviations."""
    player = Rating(1600.0, 120.0, 0.06)
    new = rate(player, [(player, 0.5)])

    assert new.rating == pytest.approx(player.rating)
    assert new.deviation < player.deviation


def test_tie_moves_the_stronger_player_down_and_the_weaker_up() -> None:
    """A tie against a weaker opponent is below expectation for the stronger one."""
    strong, weak = Rating(1800.0, 100.0, 0.06), Rating(1400.0, 100.0, 0.06)
    new = rate_race({1: strong, 2: weak}, [[1, 2]])

    assert new[1].rating < strong.rating
    assert new[2].rating > weak.rating


def test_race_results_score_every_pair() -> None:
    """1 against those below, 0.5 within the same place, 0 against those above; in place order."""
    results = race_results([[4], [2, 8], [5]])

    assert results == {
        4: [(2, 1.0), (8, 1.0), (5, 1.0)],
        2: [(4, 0.0), (8, 0.5), (5, 1.0)],
        8: [(4, 0.0), (2, 0.5), (5, 1.0)],
        5: [(4, 0.0), (2, 0.0), (8, 0.0)],
    }


@given(order=st.lists(st.lists(st.integers(0, 1000), min_size=1, max_size=3), max_size=6))
def test_race_results_scores_of_a_pair_add_up_to_one(order: list[list[int]]) -> None:
    """Whatever the order, a pair's two scores sum to 1 and every racer meets every other once."""
    seen: set[int] = set()
    unique_order = []
    for group in order:
        fresh = sorted(set(group) - seen)
        seen.update(fresh)
        unique_order.append(fresh)
    results = race_results(unique_order)

    assert set(results) == seen
    for racer, racer_results in results.items():
        assert sorted(opponent for opponent, _ in racer_results) == sorted(seen - {racer})
        for opponent, score in racer_results:
            assert score + dict(results[opponent])[racer] == 1.0


def test_race_results_edge_cases() -> None:
    """No racers give no results; a lone racer has no opponent; empty places are skipped."""
    assert race_results([]) == {}
    assert race_results([[3]]) == {3: []}
    assert race_results([[1], [], [2]]) == {1: [(2, 1.0)], 2: [(1, 0.0)]}


def test_race_results_refuses_a_racer_placed_twice() -> None:
    """A racer cannot finish twice."""
    with pytest.raises(ValueError, match="racer 7 appears more than once"):
        race_results([[7], [3, 7]])


def test_rate_race_rates_everyone_against_pre_race_ratings() -> None:
    """Each racer's new rating is one period against the others' ratings from before the race."""
    before = {1: Rating(1650.0, 90.0, 0.06), 2: Rating(1500.0), 3: Rating(1420.0, 60.0, 0.07)}
    after = rate_race(before, [[2], [1, 3]])

    assert after == {
        1: rate(before[1], [(before[2], 0.0), (before[3], 0.5)]),
        2: rate(before[2], [(before[1], 1.0), (before[3], 1.0)]),
        3: rate(before[3], [(before[2], 0.0), (before[1], 0.5)]),
    }


def test_rate_race_ignores_ratings_of_non_racers_and_a_lone_racer_only_grows_uncertain() -> None:
    """Only racers are returned; with nobody to race, only the deviation grows."""
    before = {1: Rating(1600.0, 100.0, 0.06), 2: Rating(1500.0, 80.0, 0.06)}
    after = rate_race(before, [[1]])

    assert after == {1: rate(before[1], [])}


def test_rate_race_refuses_racers_without_a_rating() -> None:
    """Every racer needs a rating (Rating() for a newcomer); the missing ones are named."""
    with pytest.raises(ValueError, match=r"no rating given for racers \[5, 9\]"):
        rate_race({1: Rating()}, [[9], [1, 5]])


@pytest.mark.parametrize("score", [-0.5, 1.5, math.nan])
def test_rate_refuses_scores_outside_zero_to_one(score: float) -> None:
    """A score is 0, 0.5 or 1 (anything in [0, 1] in Glicko-2); other values are errors."""
    with pytest.raises(ValueError, match="a score must be between 0 and 1"):
        rate(Rating(), [(Rating(), score)])


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rating": math.nan}, "rating must be a finite number"),
        ({"deviation": 0.0}, "deviation must be a positive number"),
        ({"deviation": math.inf}, "deviation must be a positive number"),
        ({"volatility": -0.06}, "volatility must be a positive number"),
    ],
)
def test_rating_refuses_values_that_would_poison_the_arithmetic(
    fields: dict[str, float], message: str
) -> None:
    """NaN, infinite or non-positive deviations and volatilities are refused when made."""
    with pytest.raises(ValueError, match=message):
        Rating(**fields)


def test_conservative_is_rating_minus_two_deviations() -> None:
    """A newcomer's 1500 ± 350 sorts below a known 1300 ± 50."""
    assert conservative(Rating()) == 800.0
    assert conservative(Rating(1300.0, 50.0)) == 1200.0


@PROPERTY_SETTINGS
@given(player=ratings, results=results_lists)
def test_games_never_grow_the_deviation_past_the_no_game_step(
    player: Rating, results: list[tuple[Rating, float]]
) -> None:
    """φ′ ≤ φ* = √(φ² + σ′²) ≤ 350: games only ever narrow the step-6 uncertainty."""
    new = rate(player, results)

    inflated = SCALE * math.sqrt((player.deviation / SCALE) ** 2 + new.volatility**2)
    assert 0.0 < new.deviation <= min(inflated, 350.0)
    assert math.isfinite(new.rating)
    assert 0.0 < new.volatility < 1.0


@PROPERTY_SETTINGS
@given(player=ratings)
def test_no_games_keep_the_deviation_within_bounds(player: Rating) -> None:
    """A period without games never shrinks the deviation and never takes it past 350."""
    new = rate(player, [])

    assert player.deviation <= new.deviation <= 350.0


@PROPERTY_SETTINGS
@given(player=ratings, opponents=st.lists(ratings, min_size=1, max_size=8))
def test_wins_never_lower_a_rating_and_losses_never_raise_one(
    player: Rating, opponents: list[Rating]
) -> None:
    """Winning every game of a period raises the rating; losing every game lowers it."""
    assert rate(player, [(opponent, 1.0) for opponent in opponents]).rating > player.rating
    assert rate(player, [(opponent, 0.0) for opponent in opponents]).rating < player.rating


@PROPERTY_SETTINGS
@given(racers=st.lists(ratings, min_size=2, max_size=8))
def test_a_race_winner_never_loses_points_and_the_last_never_gains(racers: list[Rating]) -> None:
    """The sole winner of a race gains rating; the sole last one loses rating."""
    before = dict(enumerate(racers))
    after = rate_race(before, [[racer] for racer in before])

    assert after[0].rating > before[0].rating
    last = len(racers) - 1
    assert after[last].rating < before[last].rating


@PROPERTY_SETTINGS
@given(player=ratings, results=results_lists)
def test_new_volatility_is_the_root_of_step_5(
    player: Rating, results: list[tuple[Rating, float]]
) -> None:
    """σ′ solves f(ln σ′²) = 0: f, strictly decreasing, changes sign just around it."""
    mu, phi = (player.rating - 1500.0) / SCALE, player.deviation / SCALE
    weights = []
    for opponent, score in results:
        g = 1.0 / math.sqrt(1.0 + 3.0 * (opponent.deviation / SCALE) ** 2 / math.pi**2)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - (opponent.rating - 1500.0) / SCALE)))
        weights.append((g, expected, score))
    v = 1.0 / sum(g**2 * e * (1.0 - e) for g, e, _ in weights)
    delta = v * sum(g * (s - e) for g, e, s in weights)
    a = math.log(player.volatility**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2

    root = math.log(rate(player, results).volatility ** 2)
    assert f(root - 1e-5) > 0 > f(root + 1e-5)
