"""The analysis teaches the four mistakes that break streaks (the rules page's tips), each with
the move it happened at: a draw while a card fitted, a play that opened nothing when another
would have turned a card over, a missed King–Ace link, and the stock left for last."""

from __future__ import annotations

import pytest

from game.engine import Card, Deal, GameState, Move, Variant, public_view
from game.engine.analysis import (
    analyse_moves,
    missed_king_ace,
    plays_opening_nothing,
    stock_left_for_last,
)
from game.engine.hint import hint
from game.engine.solver import Budget

# A hand-made deal (positions 0-27, the waste, the stock in draw order) and a game on it that
# makes each mistake once: move 2 draws while the 3♥ and the 5♠ fit the 4♣; move 3 draws while
# the A♦ fits the K♠ across the wrap; move 4 plays the 9♠, which opens nothing, while the 7♣
# would have turned over position 9 (the 4♣ beside it is gone); then the hint plays on, and the
# game ends on three draws that find nothing. The hint makes none of these mistakes.
HAND_MADE = (
    "3s 8d Qs Ts 4d 9d Ah 4s Kc As Kd 6c 8s 7h Kh 3d Qh 2d 4c 7c Ad Jd 9s 3h Jc 5s Js Jh"
    " 5h Ks 8h 5d 7d 3c 5c 9h 6s 7s Tc Ac 6d 2s 9c 4h Qc 2h 6h Th Qd 2c 8c Td"
)
MOVES_PLAYED = (
    "4c draw draw 9s draw draw draw draw draw draw 7c draw draw Jd draw draw 5s draw Ad Kd As"
    " draw Ts Jc draw 3h draw Js Qh Jh draw 3d 2d draw 7h 6c draw draw Kh Ah Kc draw draw draw"
)
MOVES = tuple(MOVES_PLAYED.split())
QUICK = Budget(max_nodes=20_000)


def hand_made() -> Deal:
    return Deal.from_cards("hand-made", tuple(Card.parse(code) for code in HAND_MADE.split()))


def test_the_analysis_finds_each_of_the_four_mistakes_on_a_hand_made_game() -> None:
    report = analyse_moves(
        hand_made(), Variant.TRIPEAKS, list(MOVES), par_budget=QUICK, winnability_budget=QUICK
    ).to_json()

    assert report["status"] == "lost"
    assert report["draws_while_play_fit"] == [
        {"move": 2, "fits": ["3h", "5s"]},
        {"move": 3, "fits": ["Ad"]},
    ]
    assert report["plays_opening_nothing"] == [{"move": 4, "card": "9s", "openers": ["7c"]}]
    assert report["missed_king_ace"] == [{"move": 3, "waste": "Ks", "cards": ["Ad"]}]
    assert report["stock_left_for_last"] == {"move": 42, "draws": 3}


def test_no_king_ace_link_is_missed_without_the_wrap() -> None:
    """Seed 7 starts on the A♥ with two Kings face up: a first draw misses the link only where
    King and Ace fit."""
    deal, draw = Deal.from_seed("7"), [Move.parse("draw")]
    assert [m.move for m in missed_king_ace(deal, Variant.TRIPEAKS, draw)] == [1]
    assert missed_king_ace(deal, Variant.NOWRAP, draw) == ()


def test_a_play_that_turns_a_card_over_is_no_mistake() -> None:
    """On the hand-made deal, the 7♣ instead of the 9♠ at move 4 turns over position 9."""
    moves = [Move.parse(text) for text in (*MOVES[:3], "7c")]
    assert plays_opening_nothing(hand_made(), Variant.TRIPEAKS, moves) == ()


def test_a_play_that_starts_a_run_to_an_opening_is_let_off() -> None:
    """Seed 0 after 9♠ 10♥ J♣ and two draws: the 7♥ opens nothing by itself while the 7♠ would,
    but the face-up cards that follow the 7♥ lead to an opening, so it may have been the way."""
    moves = [Move.parse(text) for text in ("9s", "Th", "Jc", "draw", "draw", "7h")]
    assert plays_opening_nothing(Deal.from_seed("0"), Variant.TRIPEAKS, moves) == ()


def first_legal_game(seed: str) -> GameState:
    state = GameState(Deal.from_seed(seed), Variant.TRIPEAKS)
    while not state.status.is_over:
        state.apply(state.legal_moves()[0])
    return state


def test_two_final_draws_are_not_the_stock_left_for_last() -> None:
    """Seed 3 played card-first is lost on two draws in a row: ordinary bad luck. Cut before its
    end, it is not lost at all."""
    lost = first_legal_game("3")
    assert lost.status.value == "lost"
    assert [move.is_draw for move in lost.moves[-3:]] == [False, True, True]
    assert stock_left_for_last(lost) is None
    state = GameState.replay(hand_made(), Variant.TRIPEAKS, list(MOVES[:-1]))
    assert stock_left_for_last(state) is None


@pytest.mark.parametrize("seed", [str(n) for n in range(12)])
def test_a_game_the_hint_plays_makes_none_of_the_mistakes_it_can_see(seed: str) -> None:
    """The hint never draws while a card fits, never misses the wrap, and prefers a play that
    opens: the analysis finds none of those in its games (the stock may still run out)."""
    for variant in Variant:
        state = GameState(Deal.from_seed(seed), variant)
        while not state.status.is_over:
            advice = hint(public_view(state)).move
            assert advice is not None
            state.apply(advice)
        assert plays_opening_nothing(state.deal, variant, state.moves) == ()
        assert missed_king_ace(state.deal, variant, state.moves) == ()
