"""Scoring, line by line, and the end of the game, on hand-built positions."""

from __future__ import annotations

import pytest

from game.engine import DRAW, GameOverError, GameState, Move, ScoreBreakdown, Status, Variant
from tests.game.engine.conftest import (
    CLEARING_BONUS_PER_STOCK_CARD,
    PEAK_TOP_BONUS,
    STREAK_STEP,
    bottom_row,
    build_deal,
    clearing_deal,
    climb,
    lost_by_drawing,
    play,
)

# The positions under peak 0, in an order that uncovers each before it is played.
PEAK_0_ORDER = (18, 19, 20, 21, 9, 10, 11, 3, 4, 0)


def gains(state: GameState, moves: list[str]) -> list[int]:
    """The points each move adds, in order."""
    result = []
    for text in moves:
        before = state.score
        state.apply(Move.parse(text))
        result.append(state.score - before)
    return result


def assert_lines_add_up(state: GameState) -> ScoreBreakdown:
    breakdown = state.score_breakdown()
    total = breakdown.streak_points + breakdown.peak_bonus + breakdown.clearing_bonus
    assert breakdown.total == total == state.score
    return breakdown


# Streaks.


def test_the_nth_card_of_a_streak_scores_ten_times_n() -> None:
    """Ten plays in a row score 10, 20, 30, … 100, and the streak counts them."""
    chain = climb("2c", 10)
    state = GameState(build_deal(bottom_row(" ".join(chain)), "2c"), Variant.TRIPEAKS)
    streaks = []
    points = []
    for code in chain:
        points.extend(gains(state, [code]))
        streaks.append(state.streak)
    assert points == [STREAK_STEP * n for n in range(1, 11)]
    assert streaks == list(range(1, 11))
    assert assert_lines_add_up(state).streak_points == sum(points)


def test_a_draw_scores_nothing_and_ends_the_streak() -> None:
    """Three plays (10, 20, 30), a draw (0), then the streak starts again at 10."""
    tableau = {18: "3c", 19: "4c", 20: "5c", 21: "6c", 22: "7c"}
    state = GameState(build_deal(tableau, "2c", stock=["5d"]), Variant.TRIPEAKS)
    assert gains(state, ["3c", "4c", "5c", "draw", "6c", "7c"]) == [10, 20, 30, 0, 10, 20]
    assert state.streak == 2


def test_a_draw_with_a_play_on_the_board_still_ends_the_streak() -> None:
    """Drawing is never free: the streak resets whether or not a play was possible."""
    state = GameState(build_deal({18: "3c", 19: "4c"}, "2c", stock=["3d"]), Variant.TRIPEAKS)
    play(state, "3c")
    assert Move.parse("4c") in state.legal_moves()
    play(state, "draw")
    assert state.streak == 0
    assert gains(state, ["4c"]) == [STREAK_STEP]


# Peak tops.


def test_a_peak_top_scores_100_on_top_of_its_streak_points() -> None:
    """Clearing peak 0 in one streak of ten: the tenth card, the peak top, scores 100 + 100."""
    chain = climb("2c", 10)
    state = GameState(
        build_deal(dict(zip(PEAK_0_ORDER, chain, strict=True)), "2c"), Variant.TRIPEAKS
    )
    points = gains(state, chain)
    assert points == [STREAK_STEP * n for n in range(1, 10)] + [STREAK_STEP * 10 + PEAK_TOP_BONUS]
    assert state.peaks_cleared == 1
    breakdown = assert_lines_add_up(state)
    assert breakdown == ScoreBreakdown(
        streak_points=sum(STREAK_STEP * n for n in range(1, 11)),
        peak_bonus=PEAK_TOP_BONUS,
        clearing_bonus=0,
    )


def test_a_peak_top_played_right_after_a_draw_scores_10_plus_100() -> None:
    """The bonus does not depend on the streak; the streak points do."""
    chain = climb("2c", 10)
    same_rank_as_ninth = chain[8][0] + "d"  # the chain is all clubs, so this card is free
    deal = build_deal(dict(zip(PEAK_0_ORDER, chain, strict=True)), "2c", stock=[same_rank_as_ninth])
    state = GameState(deal, Variant.TRIPEAKS)
    play(state, *chain[:9], "draw")
    assert gains(state, [chain[9]]) == [STREAK_STEP + PEAK_TOP_BONUS]


# Clearing the board.


@pytest.mark.parametrize("draws", [[], ["9d"], ["9d", "5s", "Kh"]], ids=len)
def test_clearing_the_board_adds_10_for_every_card_left_in_the_stock(draws: list[str]) -> None:
    """All 28 in one streak, after some draws: streak 10 + … + 280, three peak tops, and 10 per
    stock card left."""
    deal, moves = clearing_deal(draws=draws)
    state = play(GameState(deal, Variant.TRIPEAKS), *moves)
    stock_left = 23 - len(draws)
    expected = ScoreBreakdown(
        streak_points=sum(STREAK_STEP * n for n in range(1, 29)),
        peak_bonus=3 * PEAK_TOP_BONUS,
        clearing_bonus=CLEARING_BONUS_PER_STOCK_CARD * stock_left,
    )
    assert state.status is Status.WON
    assert state.stock_count == stock_left
    assert assert_lines_add_up(state) == expected


def test_a_won_game_ends_at_once_with_cards_left_in_the_stock() -> None:
    """In progress until the 28th card; won the moment it is played; then nothing is legal."""
    deal, moves = clearing_deal()
    state = play(GameState(deal, Variant.TRIPEAKS), *moves[:-1])
    assert state.status is Status.IN_PROGRESS
    state = play(state, moves[-1])
    assert state.status is Status.WON
    assert state.cards_left == 0
    assert state.stock_count == 23
    assert state.legal_moves() == []
    with pytest.raises(GameOverError):
        state.apply(DRAW)


def test_the_clearing_bonus_is_paid_only_on_clearing() -> None:
    """A game abandoned one card short of clearing keeps its points but gets no clearing bonus."""
    deal, moves = clearing_deal()
    state = play(GameState(deal, Variant.TRIPEAKS), *moves[:-1])
    state.abandon()
    breakdown = assert_lines_add_up(state)
    assert breakdown.clearing_bonus == 0
    assert breakdown.peak_bonus == 2 * PEAK_TOP_BONUS


# Losing.


def test_a_game_is_not_lost_while_the_stock_remains_even_with_no_play() -> None:
    """After 22 draws nothing fits the waste, but one stock card is left: still in progress."""
    state = play(GameState(lost_by_drawing(), Variant.TRIPEAKS), *["draw"] * 22)
    assert state.playable_positions() == []
    assert state.stock_count == 1
    assert state.status is Status.IN_PROGRESS
    assert state.legal_moves() == [DRAW]


def test_the_last_draw_loses_when_it_leaves_no_play() -> None:
    """The 23rd draw empties the stock onto a waste that nothing fits: lost at once."""
    state = play(GameState(lost_by_drawing(), Variant.TRIPEAKS), *["draw"] * 23)
    assert state.status is Status.LOST
    assert state.legal_moves() == []
    assert assert_lines_add_up(state).total == 0


def test_the_last_play_loses_when_it_leaves_no_play() -> None:
    """Stock empty, 8d fits 9c; once 8d is played nothing fits it: lost, keeping the 10 points."""
    row = bottom_row("8d Jc Jd Jh Js Qc Qd Qh Qs Kc")
    state = GameState(build_deal(row, "Ac", stock_end=["9c"]), Variant.TRIPEAKS)
    play(state, *["draw"] * 23)
    assert state.status is Status.IN_PROGRESS
    assert state.legal_moves() == [Move.parse("8d")]
    state = play(state, "8d")
    assert state.status is Status.LOST
    assert state.score == STREAK_STEP
    assert assert_lines_add_up(state) == ScoreBreakdown(STREAK_STEP, 0, 0)


def test_the_wrap_decides_whether_an_ace_saves_a_king_on_an_empty_stock() -> None:
    """Stock empty, a King on the waste, an Ace the only card that could fit: tripeaks goes on,
    tripeaks-nowrap is lost."""
    row = bottom_row("Ah 3c 3d 4c 4d 5c 5d 6c 6d 7c")
    deal = build_deal(row, "9c", stock_end=["Kd"])
    wrapping = play(GameState(deal, Variant.TRIPEAKS), *["draw"] * 23)
    straight = play(GameState(deal, Variant.NOWRAP), *["draw"] * 23)
    assert wrapping.status is Status.IN_PROGRESS
    assert wrapping.playable_positions() == [18]
    assert straight.status is Status.LOST
