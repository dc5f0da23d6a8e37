"""The solver against the rules: every line it returns is replayed through GameState, and on small
positions its answers are compared with an exhaustive search that tries every line."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.engine import solver
from game.engine.deal import Deal
from game.engine.layout import POSITIONS
from game.engine.moves import Move
from game.engine.solver import (
    Budget,
    SearchStart,
    Table,
    depth_first,
    find_par,
    find_par_from,
    par_cache_clear,
    solve,
    solve_from,
    sweep,
)
from game.engine.state import GameState, Status
from game.engine.variants import Variant

SMALL = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def exhaustive(state: GameState) -> tuple[bool, int]:
    """Try every line from ``state`` with the real rules: (can it be won, best final score).

    Positions that agree on everything the rules look at (played cards, cards drawn, top waste
    card, streak) have the same futures, so each is searched once.
    """
    deal, variant, prefix = state.deal, state.variant, tuple(state.moves)
    futures: dict[tuple[int, int, str, int], tuple[bool, int]] = {}

    def search(line: tuple[Move, ...]) -> tuple[bool, int]:
        """(can win, most points still to score) from the position after ``line``."""
        position = GameState.replay(deal, variant, (*prefix, *line))
        if position.status.is_over:
            return position.status is Status.WON, 0
        key = (
            sum(1 << p for p in POSITIONS if position.is_played(p)),
            position.stock_count,
            position.waste_top.code,
            position.streak,
        )
        if key not in futures:
            can_win, most = False, 0
            for move in position.legal_moves():
                after = GameState.replay(deal, variant, (*prefix, *line, move))
                won, points = search((*line, move))
                can_win = can_win or won
                most = max(most, after.score - position.score + points)
            futures[key] = (can_win, most)
        return futures[key]

    can_win, most = search(())
    return can_win, state.score + most


def replayed(state: GameState, line: Sequence[Move]) -> GameState:
    return GameState.replay(state.deal, state.variant, [*state.moves, *line])


@st.composite
def late_positions(draw: st.DrawFn) -> GameState:
    """A game late enough to try every line from: few cards left in the stock or on the peaks.

    It follows the solver's winning line when the deal has one (random moves otherwise) up to the
    cut, then makes a few random moves, which may throw the win away.
    """
    variant = draw(st.sampled_from(Variant))
    deal = Deal.from_seed(draw(st.integers(0, 10**6)))
    stock_left, cards_left = draw(st.integers(0, 3)), draw(st.integers(1, 6))
    plan = list(solve(deal, variant).line or ())
    state = GameState(deal, variant)
    while state.stock_count > stock_left and state.cards_left > cards_left:
        if state.status.is_over:
            break
        state.apply(plan[state.seq] if plan else draw(st.sampled_from(state.legal_moves())))
    for _ in range(draw(st.integers(0, 10))):
        if not state.status.is_over:
            state.apply(draw(st.sampled_from(state.legal_moves())))
    assume(not state.status.is_over)
    return state


# Winnability.


@SMALL
@given(late_positions())
def test_winnability_agrees_with_trying_every_line(state: GameState) -> None:
    """Won or not, the solver's answer is the exhaustive search's, and its line wins."""
    result = solve_from(state)
    can_win, _ = exhaustive(state)
    assert result.winnable is can_win
    if can_win:
        assert result.line is not None
        assert replayed(state, result.line).status is Status.WON
    else:
        assert result.line is None


@SMALL
@given(late_positions())
def test_each_winnability_search_alone_agrees_with_trying_every_line(state: GameState) -> None:
    """The depth-first search and the level-by-level sweep each give the exact answer."""
    can_win, _ = exhaustive(state)
    table, start = Table.of(state.deal, state.variant), SearchStart.of_state(state)
    for search in (depth_first, sweep):
        winnable, steps, _ = search(table, start, max_nodes=10**9)
        assert winnable is can_win
        if can_win:
            assert steps is not None
            assert replayed(state, table.moves(steps)).status is Status.WON


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(Variant))
def test_a_winning_line_wins_with_the_real_rules(seed: int, variant: Variant) -> None:
    """Whatever the deal, a claimed win replays to a win; a claimed loss comes with no line."""
    deal = Deal.from_seed(seed)
    result = solve(deal, variant)
    assert result.winnable is not None
    if result.winnable:
        assert result.line is not None
        assert GameState.replay(deal, variant, result.line).status is Status.WON
    else:
        assert result.line is None


@pytest.mark.parametrize(
    ("seed", "variant", "winnable"),
    [
        ("7", Variant.TRIPEAKS, True),
        ("43", Variant.TRIPEAKS, True),
        ("43", Variant.NOWRAP, False),
        ("128", Variant.NOWRAP, False),
        ("271", Variant.TRIPEAKS, False),
    ],
)
def test_known_deals(seed: str, variant: Variant, winnable: bool) -> None:
    """Deals whose answer two independent searches agreed on when the solver was written."""
    assert solve(Deal.from_seed(seed), variant).winnable is winnable


def test_the_depth_first_search_and_the_sweep_agree_on_whole_deals() -> None:
    """On whole deals, won and lost, both searches find the same answer on their own."""
    for seed, variant in [("43", Variant.NOWRAP), ("7", Variant.TRIPEAKS)]:
        state = GameState(Deal.from_seed(seed), variant)
        table, start = Table.of(state.deal, variant), SearchStart.of_state(state)
        answers = {search(table, start, max_nodes=10**9)[0] for search in (depth_first, sweep)}
        assert answers == {solve_from(state).winnable}


def test_a_tiny_node_budget_answers_unknown() -> None:
    result = solve(Deal.from_seed("43"), Variant.NOWRAP, budget=Budget(max_nodes=50))
    assert result.winnable is None
    assert result.line is None
    assert result.nodes <= 50


def test_a_spent_time_budget_answers_unknown_or_right() -> None:
    """With no time at all, a hard deal is unknown; the answer is never wrong."""
    result = solve(Deal.from_seed("128"), Variant.NOWRAP, budget=Budget(max_nodes=10**9, max_ms=0))
    assert result.winnable is None


def test_a_beam_that_finds_nothing_proves_nothing() -> None:
    """A narrowed sweep that dies out answers unknown, not lost."""
    state = GameState(Deal.from_seed("128"), Variant.NOWRAP)
    table, start = Table.of(state.deal, state.variant), SearchStart.of_state(state)
    assert sweep(table, start, max_nodes=10**9, width=5)[0] is None


def test_a_finished_game_needs_no_search() -> None:
    deal = Deal.from_seed("7")
    won = replayed(GameState(deal, Variant.TRIPEAKS), solve(deal, Variant.TRIPEAKS).line or ())
    assert won.status is Status.WON
    result = solve_from(won)
    assert (result.winnable, result.line, result.nodes) == (True, (), 0)
    lost = GameState.replay(deal, Variant.TRIPEAKS, ["draw"] * 23)
    assert lost.status is Status.LOST
    result = solve_from(lost)
    assert (result.winnable, result.line, result.nodes) == (False, None, 0)


def test_the_search_start_reads_the_game() -> None:
    state = GameState.replay(Deal.from_seed("7"), Variant.TRIPEAKS, ["draw", "draw"])
    start = SearchStart.of_state(state)
    assert (start.played, start.drawn, start.top, start.streak) == (0, 2, state.waste_top, 0)


# Par.


@SMALL
@given(late_positions())
def test_par_is_the_best_score_of_every_line(state: GameState) -> None:
    """Par from a position equals the exhaustive best, and its line reaches it and ends the game."""
    _, best = exhaustive(state)
    result = find_par_from(state)
    assert result.exact
    assert result.par == best
    finished = replayed(state, result.line)
    assert finished.status.is_over
    assert finished.score == result.par


@pytest.mark.parametrize(
    ("seed", "variant", "par", "status"),
    [
        ("41", Variant.TRIPEAKS, 1420, Status.WON),
        ("43", Variant.NOWRAP, 1030, Status.LOST),
        # Winnable, yet a losing line scores more than any winning one.
        ("44", Variant.NOWRAP, 1470, Status.LOST),
    ],
)
def test_par_of_whole_deals(seed: str, variant: Variant, par: int, status: Status) -> None:
    """Par of whole deals, as two independent implementations found it; the line replays to it."""
    deal = Deal.from_seed(seed)
    result = find_par(deal, variant)
    assert (result.par, result.exact) == (par, True)
    finished = GameState.replay(deal, variant, result.line)
    assert (finished.score, finished.status) == (par, status)
    winning = solve(deal, variant)
    if winning.line is not None:
        assert GameState.replay(deal, variant, winning.line).score <= par


def test_par_with_a_spent_budget_is_a_real_line_but_not_exact() -> None:
    deal = Deal.from_seed("41")
    result = find_par(deal, Variant.TRIPEAKS, budget=Budget(max_nodes=500))
    assert not result.exact
    finished = GameState.replay(deal, Variant.TRIPEAKS, result.line)
    assert finished.status.is_over
    assert finished.score == result.par <= 1420


def test_par_of_a_finished_game_is_its_score() -> None:
    state = GameState.replay(Deal.from_seed("7"), Variant.TRIPEAKS, ["draw"] * 23)
    result = find_par_from(state)
    assert (result.par, result.line, result.exact) == (state.score, (), True)


def test_par_is_remembered_per_deal_variant_and_budget() -> None:
    """Asked again, find_par gives the same result without searching; another variant, budget
    or deal is searched for itself, and a time budget is never remembered."""
    par_cache_clear()
    deal, small = Deal.from_seed("41"), Budget(max_nodes=500)
    first = find_par(deal, Variant.TRIPEAKS, budget=small)
    assert find_par(deal, Variant.TRIPEAKS, budget=small) is first
    others = [
        find_par(deal, Variant.NOWRAP, budget=small),
        find_par(deal, Variant.TRIPEAKS, budget=Budget(max_nodes=501)),
        find_par(Deal.from_seed("42"), Variant.TRIPEAKS, budget=small),
    ]
    assert all(other is not first for other in others)
    timed = Budget(max_nodes=500, max_ms=10**6)
    assert find_par(deal, Variant.TRIPEAKS, budget=timed) is not find_par(
        deal, Variant.TRIPEAKS, budget=timed
    )


def test_the_par_cache_forgets_the_least_recently_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    par_cache_clear()
    monkeypatch.setattr(solver, "PAR_CACHE_SIZE", 2)
    deal = Deal.from_seed("7")
    budgets = [Budget(max_nodes=n) for n in (10, 20, 30)]
    first = find_par(deal, Variant.TRIPEAKS, budget=budgets[0])
    second = find_par(deal, Variant.TRIPEAKS, budget=budgets[1])
    assert find_par(deal, Variant.TRIPEAKS, budget=budgets[0]) is first  # now the most recent
    find_par(deal, Variant.TRIPEAKS, budget=budgets[2])  # drops the least recent: budgets[1]
    assert find_par(deal, Variant.TRIPEAKS, budget=budgets[0]) is first
    assert find_par(deal, Variant.TRIPEAKS, budget=budgets[1]) is not second
    par_cache_clear()
