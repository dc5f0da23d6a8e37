"""Hints come from the public view alone, are always legal, and follow the rules page's advice."""

from __future__ import annotations

import inspect

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.cards import FULL_DECK, Card, fits
from game.engine.deal import Deal
from game.engine.hint import A_PLAY, GAME_OVER, NOTHING_FITS, Hint, Why, hint
from game.engine.layout import POSITIONS
from game.engine.moves import DRAW, Move
from game.engine.state import GameState
from game.engine.variants import Variant
from game.engine.view import PublicView, public_view

PLAYED = settings(max_examples=60, deadline=None)


@st.composite
def games(draw: st.DrawFn) -> GameState:
    """A game after some random legal moves (possibly over)."""
    state = GameState(Deal.from_seed(draw(st.integers(0, 10**6))), draw(st.sampled_from(Variant)))
    for _ in range(draw(st.integers(0, 60))):
        if state.status.is_over:
            break
        state.apply(draw(st.sampled_from(state.legal_moves())))
    return state


def look_alike(state: GameState, data: st.DataObject) -> GameState:
    """The same moves on a deal whose hidden cards (face down, or in the stock) are shuffled."""
    deal = state.deal
    face_down = [p for p in POSITIONS if not state.is_face_up(p)]
    drawn = len(deal.stock) - state.stock_count
    hidden = [deal.tableau[p] for p in face_down] + list(deal.stock[drawn:])
    shuffled = data.draw(st.permutations(hidden))
    tableau = list(deal.tableau)
    for position, card in zip(face_down, shuffled, strict=False):
        tableau[position] = card
    stock = (*deal.stock[:drawn], *shuffled[len(face_down) :])
    other = Deal.from_cards(deal.seed, (*tableau, deal.waste, *stock))
    return GameState.replay(other, state.variant, state.moves)


@PLAYED
@given(games(), st.data())
def test_deals_that_look_the_same_get_the_same_hint(state: GameState, data: st.DataObject) -> None:
    """Shuffling the cards the player cannot see never changes the hint."""
    other = look_alike(state, data)
    assert public_view(other) == public_view(state)
    assert hint(public_view(other)) == hint(public_view(state))


def test_a_hint_can_only_be_asked_of_the_public_view() -> None:
    """The one argument is a public view: there is no way to hand it a face-down card."""
    parameters = inspect.signature(hint, eval_str=True).parameters
    assert [(name, p.annotation) for name, p in parameters.items()] == [("view", PublicView)]


@PLAYED
@given(games())
def test_a_hint_is_a_legal_move_and_never_a_draw_while_a_card_fits(state: GameState) -> None:
    advice = hint(public_view(state))
    if state.status.is_over:
        assert advice.move is None
        return
    assert advice.move in state.legal_moves()
    assert (advice.move == DRAW) == (not state.playable_positions())
    assert advice.why.situation == (NOTHING_FITS if advice.move == DRAW else A_PLAY)
    assert advice.why.card == advice.move.card


def deal_with(waste: str, bottom_row: dict[int, str], stock: tuple[str, ...] = ()) -> Deal:
    """A deal with the given waste card, bottom-row cards and first stock cards.

    The rest of the bottom row holds cards whose ranks fit none of those cards, so that no run can
    reach them; everything else follows in deck order.
    """
    chosen = [Card.parse(code) for code in (waste, *bottom_row.values(), *stock)]
    unreachable = [
        card
        for card in FULL_DECK
        if not any(fits(card, other, wrap=True) or card == other for other in chosen)
    ]
    fillers = iter(unreachable)
    by_position = {position: Card.parse(code) for position, code in bottom_row.items()}
    bottom = [by_position.get(position) or next(fillers) for position in range(18, 28)]
    first_stock = [Card.parse(code) for code in stock]
    placed = {*bottom, *first_stock, Card.parse(waste)}
    rest = [card for card in FULL_DECK if card not in placed]
    cards = (*rest[:18], *bottom, Card.parse(waste), *first_stock, *rest[18:])
    return Deal.from_cards("made", cards)


def test_king_and_ace_fit_when_the_variant_wraps() -> None:
    """On a King the Ace is played, and the reason says why, when ranks wrap; else it draws."""
    deal = deal_with("Kc", {22: "Ad"})
    wrapping = hint(public_view(GameState(deal, Variant.TRIPEAKS)))
    assert wrapping.move == Move.parse("Ad")
    assert wrapping.why.wraps_onto == Card.parse("Kc")
    assert hint(public_view(GameState(deal, Variant.NOWRAP))) == Hint(DRAW, Why(NOTHING_FITS))


def test_the_play_that_starts_a_longer_run_comes_first() -> None:
    """With 7c on the waste, 8d leads on to 9s (turning over a card), while 6h leads nowhere."""
    deal = deal_with("7c", {18: "8d", 19: "9s", 27: "6h"})
    advice = hint(public_view(GameState(deal, Variant.TRIPEAKS)))
    assert advice == Hint(
        Move.parse("8d"),
        Why(A_PLAY, card=Card.parse("8d"), run=2, run_turns_over=1),
    )


def test_the_play_that_turns_a_card_over_comes_first() -> None:
    """With 6s gone, 4d turns over the card it and 6s covered; 4h, as good a fit, turns none."""
    deal = deal_with("5c", {18: "4d", 19: "6s", 27: "4h"}, stock=("5h",))
    state = GameState.replay(deal, Variant.TRIPEAKS, ["6s", "draw"])
    advice = hint(public_view(state))
    assert advice == Hint(Move.parse("4d"), Why(A_PLAY, card=Card.parse("4d"), turns_over=1))


def test_nothing_to_suggest_once_the_game_is_over() -> None:
    state = GameState.replay(Deal.from_seed("7"), Variant.TRIPEAKS, ["draw"] * 23)
    assert hint(public_view(state)) == Hint(None, Why(GAME_OVER))
