"""The pruned par search against the unpruned one it replaced, and its bounds against the rules.

The pars below were recorded with the earlier solver (an exact, unpruned sweep over every played
mask), before the bounds and the floor were added; the pruned search must find the same par on every
one of these deals, and a line that replays to it.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given

from game.engine import solver
from game.engine.cards import KING
from game.engine.deal import Deal
from game.engine.moves import DRAW
from game.engine.solver import (
    Budget,
    SearchStart,
    Table,
    find_par,
    find_par_from,
    par_cache_clear,
    relaxed_bounds,
)
from game.engine.state import GameState
from game.engine.variants import Variant
from tests.game.engine.test_solver import SMALL, exhaustive, late_positions

# Seeds 0-39, in order, as the unpruned sweep found them.
RECORDED_PARS = {
    Variant.TRIPEAKS: (
        1570, 2280, 1720, 1440, 1360, 1420, 2070, 1750, 1170, 1310,
        2390, 1670, 1850, 3020, 1410, 1720, 1620, 1540, 1470, 2460,
        1850, 1710, 1220, 1760, 1560, 1660, 1810, 1570, 1770, 1620,
        1890, 1870, 1490, 2140, 2200, 1860, 990, 1890, 1900, 1900,
    ),
    Variant.NOWRAP: (
        1290, 1660, 1270, 1440, 1150, 1180, 2070, 1630, 860, 940,
        1390, 970, 1010, 2190, 990, 1470, 1620, 1120, 1010, 1710,
        1390, 1420, 920, 1280, 1400, 1430, 1190, 1380, 900, 1280,
        1770, 1060, 1270, 1660, 1590, 1120, 830, 810, 1650, 1310,
    ),
}  # fmt: skip


@pytest.mark.parametrize("variant", list(Variant))
def test_par_matches_the_unpruned_search_on_forty_deals(variant: Variant) -> None:
    """Same par as the earlier search on seeds 0-39, exact, and the line replays to it."""
    par_cache_clear()
    for seed, recorded in enumerate(RECORDED_PARS[variant]):
        deal = Deal.from_seed(seed)
        result = find_par(deal, variant)
        assert (seed, result.par, result.exact) == (seed, recorded, True)
        assert GameState.replay(deal, variant, result.line).score == recorded
    par_cache_clear()


@SMALL
@given(late_positions())
def test_the_bounds_are_never_below_the_best_future(state: GameState) -> None:
    """From any position, what the best line still scores is within the relaxed bound (with the
    current streak, and the draws and clearing bonus, counted as the search counts them)."""
    _, best = exhaustive(state)
    table, start = Table.of(state.deal, state.variant), SearchStart.of_state(state)
    bounds = relaxed_bounds(table, start.played)
    intercept, longest = bounds.going_on_points(start.played, start.top.rank)
    root = solver._root_label(start)
    fresh = bounds.fresh_points(start.played)
    bound = solver._reaching_score(root, fresh, intercept, longest, table.stock_size)
    assert best <= bound
    per_play = longest * solver.STREAK_STEP
    kept = solver._reaching([root], fresh, intercept, per_play, table.stock_size, best)
    assert kept == [root]


def test_a_play_scores_what_a_new_run_is_charged() -> None:
    """The bounds' pass adds nothing for a play but its streak's points and its peak bonus (which
    the figures count in by mask): that holds while a play on a streak of 0 scores the charge."""
    assert solver.STREAK_STEP == solver.RUN_PENALTY


@SMALL
@given(late_positions())
def test_going_on_is_never_below_the_best_line_that_plays_first(state: GameState) -> None:
    """The bound on going on with a card that fits the top (where a new run right after that card
    counts the card alone on the streak) is never below the best line whose first move is a play,
    on the current streak, with the draws and clearing bonus counted as the search counts them."""
    plays = [move for move in state.legal_moves() if move != DRAW]
    assume(plays)
    best = max(
        exhaustive(GameState.replay(state.deal, state.variant, [*state.moves, move]))[1]
        for move in plays
    )
    table, start = Table.of(state.deal, state.variant), SearchStart.of_state(state)
    bounds = relaxed_bounds(table, start.played)
    intercept, longest = bounds.going_on_points(start.played, start.top.rank)
    step = solver.STREAK_STEP
    going = intercept + (start.streak - 1) * longest * step if start.streak else intercept - step
    credit = solver.RUN_PENALTY * (table.stock_size - start.drawn)
    assert best <= start.score + going + credit


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("seed", [0, 8, 9, 17])
def test_the_exact_sweep_alone_finds_par_from_par_as_floor(variant: Variant, seed: int) -> None:
    """Given the true par as its floor, the pruned sweep still meets a line reaching it: the bounds
    never drop every label of the par lines (the guides' line cannot stand in for it here)."""
    deal = Deal.from_seed(seed)
    table, start = Table.of(deal, variant), SearchStart.of_state(GameState(deal, variant))
    recorded = RECORDED_PARS[variant][seed]
    bounds = relaxed_bounds(table, start.played)
    _, points, exact, _ = solver._par_sweep(table, start, bounds, floor=recorded, max_nodes=10**9)
    assert (points, exact) == (recorded, True)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("seed", [0, 8, 9, 17])
def test_the_best_first_search_alone_finds_par(variant: Variant, seed: int) -> None:
    """Best first from the bounds alone, with no floor to start from: the recorded par, exact, and
    a line that replays to it."""
    deal = Deal.from_seed(seed)
    table, start = Table.of(deal, variant), SearchStart.of_state(GameState(deal, variant))
    bounds = relaxed_bounds(table, start.played)
    label, points, exact, _ = solver._best_first(table, start, bounds, max_nodes=10**9)
    assert (points, exact) == (RECORDED_PARS[variant][seed], True)
    finished = GameState.replay(deal, variant, table.moves(solver._label_steps(label)))
    solver._finish(finished)
    assert finished.score == points


def test_a_budget_spent_best_first_still_returns_a_real_line() -> None:
    """With the bounds built but too few nodes left to prove par, the best line met (or the beam's,
    when better) is returned, not exact."""
    deal = Deal.from_seed(8)
    budget = Budget(max_nodes=solver.BOUNDS_NODES + 200)
    result = find_par_from(GameState(deal, Variant.NOWRAP), budget=budget)
    assert not result.exact
    replayed = GameState.replay(deal, Variant.NOWRAP, result.line)
    assert replayed.status.is_over
    assert replayed.score == result.par <= RECORDED_PARS[Variant.NOWRAP][8]


def test_a_budget_too_small_for_the_bounds_sweeps_unpruned() -> None:
    """Below BOUNDS_NODES the search never builds the bounds: it narrows as the old one did."""
    deal = Deal.from_seed("41")
    small = find_par_from(GameState(deal, Variant.TRIPEAKS), budget=Budget(max_nodes=20_000))
    assert not small.exact
    assert GameState.replay(deal, Variant.TRIPEAKS, small.line).score == small.par <= 1420


def test_a_spent_time_budget_still_returns_a_real_line() -> None:
    """With the bounds built but no time left, the line is real and the result not exact."""
    deal = Deal.from_seed("44")
    result = find_par_from(
        GameState(deal, Variant.NOWRAP), budget=Budget(max_nodes=10**9, max_ms=0)
    )
    assert not result.exact
    assert GameState.replay(deal, Variant.NOWRAP, result.line).score == result.par <= 1470


@pytest.mark.parametrize("variant", list(Variant))
def test_the_bounds_from_a_mid_game_mask_are_those_from_the_start(variant: Variant) -> None:
    """Computed from a mask with cards played, the bounds cover the masks that can follow it,
    and on each hold what the pass over every mask found."""
    table = Table.of(Deal.from_seed(3), variant)
    whole = relaxed_bounds(table, 0)
    for played in (1 << 18 | 1 << 19 | 1 << 9, 1 << 22 | 1 << 27, (1 << 18) - 1 << 10):
        graph_places = solver.mask_graph().above(played)
        part = relaxed_bounds(table, played)
        assert len(part) == len(graph_places) < len(whole)
        for i in graph_places:
            assert part.fresh[i] == whole.fresh[i]
            for top in range(1, KING + 1):
                assert part.going_on[top][i] == whole.going_on[top][i]
                assert part.runs[top][i] == whole.runs[top][i]


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize(
    ("seed", "moves", "off_line"), [(2, 6, False), (9, 10, True), (17, 14, True)]
)
def test_par_from_mid_game_positions_is_the_unpruned_sweeps(
    variant: Variant, seed: int, moves: int, off_line: bool
) -> None:
    """From a position some moves into a par line, or one draw off it (many cards left on both
    sides), par is the best score of the sweep that keeps every label no other makes redundant,
    with no bounds."""
    deal = Deal.from_seed(seed)
    line = find_par(deal, variant).line
    state = GameState.replay(deal, variant, [*line[:moves], *([DRAW] if off_line else [])])
    table, start = Table.of(deal, variant), SearchStart.of_state(state)
    _, swept, exact, _ = solver._par_sweep(table, start, None, floor=0, max_nodes=10**9)
    result = find_par_from(state)
    assert (result.par, result.exact) == (swept, exact)


def test_draws_are_made_only_as_far_as_no_label_that_drew_covers_them() -> None:
    """A label's draws are redundant when one that drew at the mask had no more cards drawn and at
    least its points; otherwise they are worth making up to the fewest cards drawn by one with at
    least its points."""
    label: solver._Label = (5, 2, 300, None, 0)
    assert solver._draws_until(label, [(4, 0, 300, None, 0)]) == -1
    assert solver._draws_until(label, [(5, 3, 310, None, 0)]) == -1
    assert solver._draws_until(label, [(4, 0, 290, None, 0)]) == solver.NEVER
    made: list[solver._Label] = [(9, 0, 300, None, 0), (7, 1, 350, None, 0), (6, 0, 200, None, 0)]
    assert solver._draws_until(label, made) == 7
