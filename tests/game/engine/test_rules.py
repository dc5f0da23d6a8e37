"""The rules, one at a time, on hand-built positions where we know what lies where."""

from __future__ import annotations

import re

import pytest

from game.engine import (
    DRAW,
    Deal,
    GameOverError,
    GameState,
    IllegalMoveError,
    MalformedError,
    Move,
    Status,
    Variant,
)
from tests.game.engine.conftest import (
    SPEC_BOTTOM_ROW,
    build_deal,
    clearing_deal,
    lost_by_drawing,
    play,
    snapshot,
)

HIDDEN_CARD_MESSAGE = "{card} is not a face-up card on the peaks"


def new_game(deal: Deal, variant: Variant = Variant.TRIPEAKS) -> GameState:
    return GameState(deal, variant)


def refusal(state: GameState, move: str) -> str:
    """The message of the IllegalMoveError that ``move`` raises, checking it changed nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as error:
        state.apply(Move.parse(move))
    assert snapshot(state) == before
    return str(error.value)


# The start of a game.


def test_a_new_game_shows_the_deal_waste_and_a_full_stock() -> None:
    """Nothing is played, the waste is the deal's waste card, and 23 cards wait in the stock."""
    deal = Deal.from_seed("start")
    state = new_game(deal)
    assert state.status is Status.IN_PROGRESS
    assert state.waste_top == deal.waste
    assert state.stock_count == 23
    assert state.score == state.streak == state.seq == 0
    assert state.cards_left == 28


def test_only_the_bottom_row_is_face_up_at_the_start() -> None:
    """Positions 18-27 are face up; 0-17 are face down."""
    state = new_game(Deal.from_seed("start"))
    assert [p for p in range(28) if state.is_face_up(p)] == list(SPEC_BOTTOM_ROW)
    assert [p for p in range(28) if state.is_available(p)] == list(SPEC_BOTTOM_ROW)


def test_the_stock_is_drawn_in_deal_order() -> None:
    """Each draw puts the next stock card, in the deal's order, on top of the waste."""
    deal = Deal.from_seed("stock order")
    state = new_game(deal)
    drawn = []
    for left in range(22, -1, -1):
        if state.status.is_over:
            break
        state.apply(DRAW)
        drawn.append(state.waste_top)
        assert state.stock_count == left
    assert drawn == list(deal.stock[: len(drawn)])


# Availability.


def test_a_card_with_one_overlapping_card_left_cannot_be_played() -> None:
    """Position 9 (under 18 and 19) stays face down and unplayable while 19 remains, even though
    its card fits the waste."""
    state = new_game(build_deal({18: "6c", 19: "5d", 9: "7d"}, waste="5c"))
    play(state, "6c")
    assert not state.is_face_up(9)
    assert 9 not in state.playable_positions()
    assert Move.parse("7d") not in state.legal_moves()
    assert refusal(state, "7d") == HIDDEN_CARD_MESSAGE.format(card="7d")


def test_a_card_turns_face_up_the_moment_both_overlapping_cards_are_gone_and_stays_up() -> None:
    """Playing 19 after 18 turns 9 face up at once (before it fits); it stays up through a draw
    and after it is played."""
    state = new_game(build_deal({18: "6c", 19: "5d", 20: "6h", 9: "7d"}, "5c", stock=["5h"]))
    play(state, "6c", "5d")
    assert state.is_face_up(9)
    assert state.is_available(9)
    assert 9 not in state.playable_positions()  # 7d does not fit 5d
    play(state, "draw")
    assert state.is_face_up(9)
    play(state, "6h")
    assert 9 in state.playable_positions()
    assert Move.parse("7d") in state.legal_moves()
    play(state, "7d")
    assert state.is_played(9)
    assert state.is_face_up(9)
    assert not state.is_available(9)


def test_position_21_must_be_played_before_either_11_or_12() -> None:
    """The shared bottom card: with 20 and 22 gone, 11 and 12 both wait for 21."""
    state = new_game(build_deal({20: "3c", 22: "2d", 21: "3d", 11: "4c", 12: "2h"}, waste="2c"))
    play(state, "3c", "2d")
    assert not state.is_face_up(11)
    assert not state.is_face_up(12)
    play(state, "3d")
    assert state.is_face_up(11)
    assert state.is_face_up(12)
    assert {11, 12} <= set(state.playable_positions())


# Drawing.


def test_draw_is_allowed_even_when_a_play_exists() -> None:
    """A fitting card on the board does not forbid drawing."""
    state = new_game(build_deal({18: "8d"}, waste="9c", stock=["Kh"]))
    assert Move.parse("8d") in state.legal_moves()
    assert DRAW in state.legal_moves()
    play(state, "draw")
    assert state.waste_top.code == "Kh"
    assert state.stock_count == 22


def test_draw_on_an_empty_stock_is_illegal() -> None:
    """Once all 23 cards are drawn, draw is refused (while a play keeps the game going)."""
    state = new_game(build_deal({18: "8d"}, waste="9c", stock_end=["9s"]))
    play(state, *["draw"] * 23)
    assert state.status is Status.IN_PROGRESS
    assert DRAW not in state.legal_moves()
    message = refusal(state, "draw")
    assert "stock is empty" in message.lower()


# Playing.


def test_a_card_that_does_not_fit_is_refused() -> None:
    """An available 7h on a waste of 9c: "7h does not fit on 9c"."""
    state = new_game(build_deal({18: "7h"}, waste="9c"))
    assert refusal(state, "7h") == "7h does not fit on 9c"


def test_a_card_of_equal_rank_is_refused() -> None:
    """Two sevens in a row are not allowed."""
    state = new_game(build_deal({18: "7h"}, waste="7c"))
    assert refusal(state, "7h") == "7h does not fit on 7c"


def test_a_card_already_played_is_refused() -> None:
    """Playing 6c twice: the second time it has already been played."""
    state = new_game(build_deal({18: "6c", 19: "7c"}, waste="5c"))
    play(state, "6c", "7c")
    assert refusal(state, "6c") == "6c has already been played"


@pytest.mark.parametrize("which", ["the first waste card", "a drawn card"])
def test_a_card_on_the_waste_pile_is_refused(which: str) -> None:
    """Cards on the waste never return: neither the first waste card nor a drawn one."""
    state = new_game(build_deal({18: "8d"}, waste="9c", stock=["7s"]))
    play(state, "draw")
    card = "9c" if which == "the first waste card" else "7s"
    assert refusal(state, card) == f"{card} is on the waste pile, not on the peaks"


def test_a_face_down_card_and_a_stock_card_get_the_same_message_naming_no_place() -> None:
    """The refusal does not tell a hidden card on the peaks from one in the stock, nor whether it
    would fit, and names no position."""
    state = new_game(build_deal({0: "8h", 5: "Kc"}, waste="9c", stock=["8s", "Ks"]))
    messages = {code: refusal(state, code) for code in ("8h", "Kc", "8s", "Ks")}
    assert {m.replace(code, "<card>") for code, m in messages.items()} == {
        HIDDEN_CARD_MESSAGE.format(card="<card>")
    }
    for code, message in messages.items():
        without_card = message.replace(code, "")
        assert not re.search(r"\d", without_card), message
        assert "stock" not in message.lower()
        assert "down" not in message.lower()


def test_every_hidden_card_of_a_real_deal_is_refused_with_the_same_words() -> None:
    """At the start of a seeded game, all 41 hidden cards (18 face down, 23 in the stock) get the
    one message, with only the card's code differing."""
    deal = Deal.from_seed("hidden")
    state = new_game(deal)
    hidden = [*deal.tableau[:18], *deal.stock]
    words = {refusal(state, card.code).replace(card.code, "<card>") for card in hidden}
    assert words == {HIDDEN_CARD_MESSAGE.format(card="<card>")}


def test_a_refused_move_changes_nothing() -> None:
    """Every kind of refusal leaves the state exactly as it was (checked inside ``refusal``)."""
    state = new_game(build_deal({18: "6c", 19: "7h", 0: "Qd"}, waste="5c", stock=["2s"]))
    play(state, "6c", "draw")
    for move in ("6c", "5c", "2s", "7h", "Qd", "As"):
        refusal(state, move)
    assert [m.text for m in state.moves] == ["6c", "draw"]


# The end of the game.


def test_no_move_is_accepted_after_the_game_is_won() -> None:
    """A won game refuses draws, plays and abandon with GameOverError; nothing is legal."""
    deal, moves = clearing_deal()
    state = play(new_game(deal), *moves)
    assert state.status is Status.WON
    assert state.legal_moves() == []
    assert state.playable_positions() == []
    for move in ("draw", "Ac"):
        before = snapshot(state)
        with pytest.raises(GameOverError, match="over"):
            state.apply(Move.parse(move))
        assert snapshot(state) == before
    with pytest.raises(GameOverError):
        state.abandon()


def test_no_move_is_accepted_after_the_game_is_lost() -> None:
    """A lost game refuses every move with GameOverError."""
    state = new_game(lost_by_drawing())
    play(state, *["draw"] * 23)
    assert state.status is Status.LOST
    with pytest.raises(GameOverError):
        state.apply(DRAW)
    with pytest.raises(GameOverError):
        state.abandon()


def test_abandon_keeps_the_score_and_stops_play() -> None:
    """The score earned so far stands; afterwards every move and a second abandon are refused."""
    state = new_game(build_deal({18: "6c", 19: "7c"}, waste="5c"))
    play(state, "6c", "7c")
    score = state.score
    assert score > 0
    state.abandon()
    assert state.status is Status.ABANDONED
    assert state.score == score
    assert state.legal_moves() == []
    with pytest.raises(GameOverError):
        state.apply(DRAW)
    with pytest.raises(GameOverError):
        state.abandon()
    assert state.score == score


# Variants.


def test_nowrap_refuses_a_king_on_an_ace_and_an_ace_on_a_king() -> None:
    """In tripeaks-nowrap King and Ace do not fit; in tripeaks they do."""
    king_on_ace = build_deal({18: "Kh"}, waste="As")
    ace_on_king = build_deal({18: "Ah"}, waste="Ks")
    assert refusal(new_game(king_on_ace, Variant.NOWRAP), "Kh") == "Kh does not fit on As"
    assert refusal(new_game(ace_on_king, Variant.NOWRAP), "Ah") == "Ah does not fit on Ks"
    play(new_game(king_on_ace, Variant.TRIPEAKS), "Kh")
    play(new_game(ace_on_king, Variant.TRIPEAKS), "Ah")


def test_nowrap_still_plays_a_queen_on_a_king_and_a_two_on_an_ace() -> None:
    """Only the wrap differs between the variants."""
    play(new_game(build_deal({18: "Qh"}, waste="Ks"), Variant.NOWRAP), "Qh")
    play(new_game(build_deal({18: "2h"}, waste="As"), Variant.NOWRAP), "2h")


@pytest.mark.parametrize("name", ["tripeaks", "tripeaks-nowrap"])
def test_variants_are_named_as_in_the_contract(name: str) -> None:
    """Both variant names read back to a variant with the same name."""
    assert Variant.parse(name).value == name


@pytest.mark.parametrize("name", ["TriPeaks", "golf", "", None, "nowrap"])
def test_an_unknown_variant_is_malformed(name: object) -> None:
    """Anything but the two names is refused, listing the names there are."""
    with pytest.raises(MalformedError, match="tripeaks-nowrap"):
        Variant.parse(name)


# Replay.


def test_replay_gives_the_state_that_applying_the_moves_gives() -> None:
    """GameState.replay accepts move texts or Move objects and checks each move."""
    deal, moves = clearing_deal(draws=["9d"])
    stepwise = play(new_game(deal), *moves)
    assert snapshot(GameState.replay(deal, Variant.TRIPEAKS, moves)) == snapshot(stepwise)
    as_moves = [Move.parse(m) for m in moves]
    assert snapshot(GameState.replay(deal, Variant.TRIPEAKS, as_moves)) == snapshot(stepwise)
    with pytest.raises(IllegalMoveError):
        GameState.replay(deal, Variant.TRIPEAKS, [moves[-1]])  # a peak top, face down
