"""The public view: everything a player may see, and nothing else."""

from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import (
    DRAW,
    Card,
    Deal,
    GameState,
    Status,
    Variant,
    change_applied,
    move_change,
    public_view,
)
from game.engine.view import PublicView
from tests.game.engine.conftest import (
    SPEC_BOTTOM_ROW,
    TABLEAU_CARDS,
    lost_by_drawing,
    play_biases,
    played_positions,
    random_game,
    rank_of,
    seeds,
    seen_codes,
    spec_available,
    spec_face_up,
    spec_fits,
    variants,
)

# A card code standing on its own (not inside a longer word such as "tripeaks").
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])[A2-9TJQK][cdhs](?![0-9A-Za-z])")


def expected_tableau(state: GameState) -> list[str | None]:
    """The contract's view of the peaks, from the moves alone: None once played, the code once
    face up, "down" otherwise."""
    played = played_positions(state.deal, state.moves)
    return [
        None if p in played else state.deal.tableau[p].code if spec_face_up(p, played) else "down"
        for p in range(TABLEAU_CARDS)
    ]


def expected_playable(state: GameState) -> list[int]:
    if state.status.is_over:
        return []
    played = played_positions(state.deal, state.moves)
    waste = rank_of(state.waste_top.code)
    wrap = state.variant is Variant.TRIPEAKS
    return [
        p
        for p in range(TABLEAU_CARDS)
        if spec_available(p, played)
        and spec_fits(rank_of(state.deal.tableau[p].code), waste, wrap=wrap)
    ]


def check_view(state: GameState) -> PublicView:
    """Check one view against the contract and against what the player has seen."""
    view = public_view(state)
    text = json.dumps(view)
    shown = set(CARD_CODE.findall(text))
    assert state.waste_top.code in shown  # the scan does find codes
    assert shown <= seen_codes(state.deal, state.moves), shown - seen_codes(state.deal, state.moves)
    assert view["tableau"] == expected_tableau(state)
    assert view["tableau"] == [
        None
        if state.is_played(p)
        else state.deal.tableau[p].code
        if state.is_face_up(p)
        else "down"
        for p in range(TABLEAU_CARDS)
    ]
    assert view["playable"] == expected_playable(state)
    assert view["waste"] == state.waste_top.code
    assert view["stock_count"] == 23 - sum(1 for move in state.moves if move.is_draw)
    assert view["seq"] == len(state.moves)
    assert view["status"] == state.status.value
    assert view["score"] == state.score
    assert not {"seed", "deal", "stock"} & set(view)
    return view


def test_a_new_view_shows_the_bottom_row_the_waste_and_a_count_of_23() -> None:
    """At the start: 18 face-down cards, the ten bottom cards, the waste, 23 in the stock."""
    deal = Deal.from_seed("view")
    view = check_view(GameState(deal, Variant.TRIPEAKS))
    assert view["tableau"][:18] == ["down"] * 18
    assert view["tableau"][18:] == [deal.tableau[p].code for p in SPEC_BOTTOM_ROW]
    assert view["waste"] == deal.waste.code
    assert (view["stock_count"], view["seq"], view["score"], view["streak"]) == (23, 0, 0, 0)
    assert (view["cards_left"], view["peaks_cleared"]) == (28, 0)
    assert view["status"] == "in_progress"
    assert view["variant"] == "tripeaks"


def test_a_finished_game_offers_no_playable_cards() -> None:
    """Once the game is lost, the view lists nothing playable."""
    state = GameState(lost_by_drawing(), Variant.TRIPEAKS)
    for _ in range(23):
        state.apply(DRAW)
    view = check_view(state)
    assert view["status"] == Status.LOST.value
    assert view["playable"] == []


@settings(max_examples=40, deadline=None)
@given(seed=seeds, variant=variants, chooser=st.randoms(use_true_random=False), bias=play_biases)
def test_the_view_never_shows_a_card_the_player_has_not_seen(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float
) -> None:
    """After every move of a random game, every card code in the JSON view has been seen, and
    the peaks read "down", a code or None exactly as the contract says."""
    random_game(Deal.from_seed(seed), variant, chooser, play_bias=bias, check=check_view)


def look_alike(state: GameState) -> Deal:
    """The deal with its still-hidden cards (face down, or not yet drawn) rotated by one place:
    a different deal that, so far, looks exactly the same to the player."""
    deal = state.deal
    played = played_positions(deal, state.moves)
    down = [p for p in range(TABLEAU_CARDS) if not spec_face_up(p, played)]
    drawn = sum(1 for move in state.moves if move.is_draw)
    hidden = [deal.tableau[p] for p in down] + list(deal.stock[drawn:])
    rotated = hidden[1:] + hidden[:1]
    tableau = list(deal.tableau)
    for p, card in zip(down, rotated, strict=False):
        tableau[p] = card
    stock = [*deal.stock[:drawn], *rotated[len(down) :]]
    cards: tuple[Card, ...] = (*tableau, deal.waste, *stock)
    return Deal.from_cards(deal.seed, cards)


@settings(max_examples=60, deadline=None)
@given(
    seed=seeds,
    variant=variants,
    chooser=st.randoms(use_true_random=False),
    moves=st.integers(min_value=0, max_value=40),
)
def test_deals_that_look_the_same_give_the_same_view(
    seed: int | str, variant: Variant, chooser: random.Random, moves: int
) -> None:
    """Two deals that differ only in cards the player has not seen give identical views."""
    state = random_game(Deal.from_seed(seed), variant, chooser, max_moves=moves)
    other = look_alike(state)
    hidden_left = sum(1 for p in range(TABLEAU_CARDS) if not state.is_face_up(p))
    if hidden_left + state.stock_count >= 2:
        assert other != state.deal
    twin = GameState.replay(other, variant, state.moves)
    assert public_view(twin) == public_view(state)


@settings(max_examples=40, deadline=None)  # a whole game per example: no per-example deadline
@given(seed=seeds, variant=variants, chooser=st.randoms(use_true_random=False), bias=play_biases)
def test_each_moves_change_brings_the_view_before_it_to_the_view_after_it(
    seed: int | str, variant: Variant, chooser: random.Random, bias: float
) -> None:
    """Protocol v2 sends a move's change instead of a whole view: applied to the view before
    the move, it gives exactly the view after it, and names no card the player has not seen."""
    game = random_game(Deal.from_seed(seed), variant, chooser, play_bias=bias)
    before = GameState(game.deal, game.variant)
    for move in game.moves:
        after = before.copy()
        after.apply(move)
        change = move_change(before, after)
        assert change_applied(public_view(before), change) == public_view(after)
        seen = seen_codes(after.deal, after.moves)
        assert {code for _, code in change["turned"]} <= seen
        assert set(CARD_CODE.findall(json.dumps(change))) <= seen
        before = after
