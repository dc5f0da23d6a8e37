"""The analysis of a finished game, checked against the rules and the solver."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.analysis import (
    DrawWhilePlayFit,
    GameAnalysis,
    Streak,
    analyse,
    analyse_moves,
    analyse_record,
    streaks,
)
from game.engine.deal import Deal
from game.engine.errors import TriPeaksError
from game.engine.export import export_document, parse_document
from game.engine.moves import Move
from game.engine.solver import Budget, find_par, solve, solve_from
from game.engine.state import CLEARING_BONUS_PER_CARD, PEAK_BONUS, GameState, Status
from game.engine.variants import Variant

QUICK_PAR = Budget(max_nodes=2_000)
DEAL = Deal.from_seed("7")


def moves_of(texts: list[str]) -> list[Move]:
    return [Move.parse(text) for text in texts]


@pytest.fixture(scope="module")
def won() -> GameAnalysis:
    """The solver's winning line on seed 7, analysed with an exact par."""
    line = solve(DEAL, Variant.TRIPEAKS).line
    assert line is not None
    return analyse_moves(DEAL, Variant.TRIPEAKS, line)


def test_a_won_game_against_par(won: GameAnalysis) -> None:
    assert (won.status, won.winnable, won.lost_at) == (Status.WON, True, None)
    assert won.par_exact
    assert GameState.replay(DEAL, Variant.TRIPEAKS, won.par_line).score == won.par
    assert 0 < won.score <= won.par
    assert won.share == won.score / won.par


def test_the_move_that_lost_a_winnable_deal() -> None:
    """Drawing the whole stock at once loses seed 7; the analysis finds the draw that lost it."""
    moves = moves_of(["draw"] * 23)
    report = analyse_moves(DEAL, Variant.TRIPEAKS, moves, par_budget=QUICK_PAR)
    assert (report.status, report.winnable) == (Status.LOST, True)
    assert report.lost_at is not None
    before = GameState.replay(DEAL, Variant.TRIPEAKS, moves[: report.lost_at - 1])
    after = GameState.replay(DEAL, Variant.TRIPEAKS, moves[: report.lost_at])
    assert solve_from(before).winnable is True
    assert solve_from(after).winnable is False


def test_every_draw_while_a_card_fitted_is_listed() -> None:
    moves = moves_of(["draw"] * 23)
    report = analyse_moves(DEAL, Variant.TRIPEAKS, moves, par_budget=QUICK_PAR)
    expected = []
    state = GameState(DEAL, Variant.TRIPEAKS)
    for number, move in enumerate(moves, start=1):
        fitting = tuple(DEAL.tableau[p] for p in state.playable_positions())
        if fitting:
            expected.append(DrawWhilePlayFit(number, fitting))
        state.apply(move)
    assert report.draws_while_play_fit == tuple(expected)
    assert expected  # seed 7 has plays to miss


def test_streaks_and_where_they_broke() -> None:
    line = moves_of(["7h", "8h", "9c", "draw", "draw", "Tc", "draw", "5s", "4d"])
    assert streaks(line) == (
        Streak(first_move=1, length=3, points=60, broken_by=4),
        Streak(first_move=6, length=1, points=10, broken_by=7),
        Streak(first_move=8, length=2, points=30, broken_by=None),
    )
    assert streaks(moves_of(["draw", "draw"])) == ()


@st.composite
def finished_games(draw: st.DrawFn) -> GameState:
    """A game played with random legal moves to its end (or abandoned on the way)."""
    state = GameState(Deal.from_seed(draw(st.integers(0, 10**6))), draw(st.sampled_from(Variant)))
    while not state.status.is_over:
        if draw(st.integers(0, 99)) == 0:
            state.abandon()
            break
        legal = state.legal_moves()
        # Lean towards plays, as a player would, so that games last and streaks grow.
        plays = [move for move in legal if not move.is_draw]
        prefer_a_play = draw(st.booleans())
        state.apply(draw(st.sampled_from(plays if plays and prefer_a_play else legal)))
    return state


@settings(max_examples=15, deadline=None)
@given(finished_games())
def test_any_finished_game(state: GameState) -> None:
    """Streaks and bonuses add up to the score; the losing move is where winnability changes."""
    report = analyse(state, par_budget=QUICK_PAR)
    assert report.status is state.status
    assert report.score == state.score <= report.par
    bonus = PEAK_BONUS * state.peaks_cleared
    if state.status is Status.WON:
        bonus += CLEARING_BONUS_PER_CARD * state.stock_count
    assert sum(streak.points for streak in report.streaks) + bonus == state.score
    assert sum(streak.length for streak in report.streaks) == state.cards_played
    if report.lost_at is not None:
        moves = state.moves
        before = GameState.replay(state.deal, state.variant, moves[: report.lost_at - 1])
        after = GameState.replay(state.deal, state.variant, moves[: report.lost_at])
        assert (solve_from(before).winnable, solve_from(after).winnable) == (True, False)
    elif state.status is Status.LOST:
        assert report.winnable is False
    json.dumps(report.to_json())


def test_an_abandoned_game() -> None:
    report = analyse_moves(
        DEAL, Variant.TRIPEAKS, moves_of(["draw"] * 5), abandoned=True, par_budget=QUICK_PAR
    )
    assert report.status is Status.ABANDONED
    assert report.lost_at is None  # the deal could still have been won


def test_a_game_in_progress_is_not_analysed() -> None:
    with pytest.raises(TriPeaksError, match="in progress"):
        analyse_moves(DEAL, Variant.TRIPEAKS, moves_of(["draw"]))


def test_a_recorded_game() -> None:
    state = GameState.replay(DEAL, Variant.TRIPEAKS, ["draw"] * 23)
    record = parse_document(export_document(state, game_id="g1"))
    report = analyse_record(record, par_budget=QUICK_PAR)
    assert (report.status, report.score) == (state.status, state.score)


def test_the_json_form(won: GameAnalysis) -> None:
    document = won.to_json()
    assert json.loads(json.dumps(document)) == document
    assert set(document) == {
        "status", "score", "par", "par_exact", "par_line", "share", "winnable", "lost_at",
        "draws_while_play_fit", "streaks", "plays_opening_nothing", "missed_king_ace",
        "stock_left_for_last",
    }  # fmt: skip
    assert document["status"] == "won"
    assert document["stock_left_for_last"] is None  # a won game
    assert document["par_line"] == [move.text for move in won.par_line]
    assert document["streaks"][0] == {
        "first_move": won.streaks[0].first_move,
        "length": won.streaks[0].length,
        "points": won.streaks[0].points,
        "broken_by": won.streaks[0].broken_by,
    }


def test_a_known_par_and_winnability_are_used_as_given() -> None:
    """A deal's verdict, found once, serves every game on it: nothing is solved again."""
    known = find_par(DEAL, Variant.TRIPEAKS, budget=QUICK_PAR)
    state = GameState.replay(DEAL, Variant.TRIPEAKS, ["draw"] * 23)
    report = analyse(state, par=known, winnable=True, par_budget=Budget(max_nodes=0))
    assert (report.par, report.par_exact, report.par_line) == (known.par, False, known.line)
    assert report.winnable is True
    assert report.lost_at is not None
