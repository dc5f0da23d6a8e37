"""Properties over random seeds and random legal play, checked after every move.

The expectations are recomputed here from the contract (rules-spec.md) and the moves alone: the
engine's own scoring, availability and end-of-game code is never used to check itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import (
    DRAW,
    FULL_DECK,
    Deal,
    GameState,
    IllegalMoveError,
    Move,
    Status,
    Variant,
)
from tests.game.engine.conftest import (
    CLEARING_BONUS_PER_STOCK_CARD,
    PEAK_TOP_BONUS,
    SPEC_PEAK_TOPS,
    STOCK_CARDS,
    STREAK_STEP,
    TABLEAU_CARDS,
    play_biases,
    played_positions,
    random_game,
    rank_of,
    seeds,
    snapshot,
    spec_available,
    spec_face_up,
    spec_fits,
    variants,
)

EVERY_MOVE = [DRAW, *(Move.play(card) for card in FULL_DECK)]
# Each example is a whole game (up to 51 moves) checked after every move, so a few dozen games
# already check over a thousand positions; the two tests that try every move per position get fewer.
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None)
EXHAUSTIVE_SETTINGS = settings(PROPERTY_SETTINGS, max_examples=20)

Check = Callable[[GameState], object]


def play_randomly(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float, check: Check
) -> GameState:
    """Play a whole random game of legal moves, checking the state before the first move and
    after every move."""
    return random_game(Deal.from_seed(seed), variant, chooser, play_bias=bias, check=check)


def draws_in(moves: Sequence[Move]) -> int:
    return sum(1 for move in moves if move.is_draw)


def waste_top(deal: Deal, moves: Sequence[Move]) -> str:
    """The top waste card from the moves: the last card played or drawn, else the deal's waste."""
    if not moves:
        return deal.waste.code
    last = moves[-1]
    return last.card.code if last.card is not None else deal.stock[draws_in(moves) - 1].code


def contract_plays(deal: Deal, variant: Variant, moves: Sequence[Move]) -> set[str]:
    """Codes of the available cards that fit the waste."""
    played = played_positions(deal, moves)
    top = rank_of(waste_top(deal, moves))
    return {
        deal.tableau[p].code
        for p in range(TABLEAU_CARDS)
        if spec_available(p, played)
        and spec_fits(rank_of(deal.tableau[p].code), top, wrap=variant is Variant.TRIPEAKS)
    }


def contract_status(deal: Deal, variant: Variant, moves: Sequence[Move]) -> Status:
    """Won iff all 28 are played; lost iff the stock is empty and nothing available fits."""
    if len(played_positions(deal, moves)) == TABLEAU_CARDS:
        return Status.WON
    if draws_in(moves) == STOCK_CARDS and not contract_plays(deal, variant, moves):
        return Status.LOST
    return Status.IN_PROGRESS


def recount_score(deal: Deal, moves: Sequence[Move]) -> int:
    """The score by the contract's table, counted from the deal and the moves."""
    score = streak = drawn = 0
    played = set()
    for move in moves:
        if move.card is None:
            drawn += 1
            streak = 0
            continue
        position = deal.tableau.index(move.card)
        streak += 1
        score += STREAK_STEP * streak
        if position in SPEC_PEAK_TOPS:
            score += PEAK_TOP_BONUS
        played.add(position)
    if len(played) == TABLEAU_CARDS:
        score += CLEARING_BONUS_PER_STOCK_CARD * (STOCK_CARDS - drawn)
    return score


random_play = {
    "seed": seeds,
    "variant": variants,
    "chooser": st.randoms(use_true_random=False),
    "bias": play_biases,
}


@PROPERTY_SETTINGS
@given(**random_play)
def test_cards_are_conserved(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float
) -> None:
    """The cards left on the peaks, the waste and the stock left are the 52 cards, each once."""

    def check(state: GameState) -> None:
        deal = state.deal
        drawn = STOCK_CARDS - state.stock_count
        assert drawn == draws_in(state.moves)
        peaks = [deal.tableau[p] for p in range(TABLEAU_CARDS) if not state.is_played(p)]
        cards = [*peaks, *state.waste, *deal.stock[drawn:]]
        assert sorted(card.index for card in cards) == list(range(52))
        assert len(state.waste) == 1 + len(state.moves)
        assert state.cards_left == len(peaks)

    play_randomly(seed, variant, chooser, bias, check)


@PROPERTY_SETTINGS
@given(**random_play)
def test_the_score_equals_an_independent_recount(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float
) -> None:
    """After every move the score is what the scoring table gives for the moves so far, and the
    breakdown's lines add up to it."""

    def check(state: GameState) -> None:
        assert state.score == recount_score(state.deal, state.moves)
        breakdown = state.score_breakdown()
        assert breakdown.streak_points + breakdown.peak_bonus + breakdown.clearing_bonus == (
            state.score
        )
        assert breakdown.peak_bonus == PEAK_TOP_BONUS * sum(
            1 for top in SPEC_PEAK_TOPS if state.is_played(top)
        )

    play_randomly(seed, variant, chooser, bias, check)


@EXHAUSTIVE_SETTINGS
@given(**random_play)
def test_the_legal_moves_are_exactly_the_ones_the_contract_allows(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float
) -> None:
    """legal_moves() lists each available fitting card and draw while the stock lasts; no
    unavailable card is ever listed; every other move of the 53 is refused and changes nothing."""

    def check(state: GameState) -> None:
        legal = state.legal_moves()
        if state.status.is_over:
            assert legal == []
            return
        plays = contract_plays(state.deal, variant, state.moves)
        assert {m.card.code for m in legal if m.card is not None} == plays
        assert (DRAW in legal) == (state.stock_count > 0)
        assert {state.deal.tableau[p].code for p in state.playable_positions()} == plays
        before = snapshot(state)
        for move in EVERY_MOVE:
            if move not in legal:
                try:
                    state.apply(move)
                except IllegalMoveError:
                    continue
                raise AssertionError(f"{move} was accepted but is not a legal move")
        assert snapshot(state) == before

    play_randomly(seed, variant, chooser, bias, check)


@EXHAUSTIVE_SETTINGS
@given(**random_play)
def test_no_hidden_card_is_ever_playable(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float
) -> None:
    """A face-down card or a card still in the stock is never playable, and trying one is refused
    with the same words whichever it is."""

    def check(state: GameState) -> None:
        deal = state.deal
        played = played_positions(deal, state.moves)
        down = [p for p in range(TABLEAU_CARDS) if not spec_face_up(p, played)]
        undrawn = deal.stock[STOCK_CARDS - state.stock_count :]
        hidden = [*(deal.tableau[p] for p in down), *undrawn]
        assert not set(down) & set(state.playable_positions())
        assert not {Move.play(card) for card in hidden} & set(state.legal_moves())
        if state.status.is_over:
            return
        for card in hidden:
            with pytest.raises(IllegalMoveError) as error:
                state.apply(Move.play(card))
            assert str(error.value) == f"{card} is not a face-up card on the peaks"

    play_randomly(seed, variant, chooser, bias, check)


@PROPERTY_SETTINGS
@given(**random_play)
def test_a_game_ends_exactly_when_the_contract_says(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float
) -> None:
    """Won iff all 28 are played; lost iff the stock is empty and no available card fits;
    otherwise in progress, with at least one legal move."""

    def check(state: GameState) -> None:
        assert state.status is contract_status(state.deal, variant, state.moves)
        if state.status is Status.IN_PROGRESS:
            assert state.legal_moves()

    final = play_randomly(seed, variant, chooser, bias, check)
    assert final.status in {Status.WON, Status.LOST}


@PROPERTY_SETTINGS
@given(**random_play, stop=st.integers(min_value=0, max_value=51))
def test_replaying_the_move_log_reproduces_the_state(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float, stop: int
) -> None:
    """Replaying any prefix of a game's moves gives the state the game had at that point."""
    states: list[tuple[object, ...]] = []
    final = play_randomly(seed, variant, chooser, bias, lambda s: states.append(snapshot(s)))
    stop = min(stop, final.seq)
    replayed = GameState.replay(final.deal, variant, [m.text for m in final.moves[:stop]])
    assert snapshot(replayed) == states[stop]
