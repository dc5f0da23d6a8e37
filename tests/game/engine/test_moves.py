"""Moves: ``draw`` or a card code, read and written exactly."""

from __future__ import annotations

import pytest

from game.engine import DRAW, Card, MalformedError, Move
from tests.game.engine.conftest import ALL_CODES


def test_draw_reads_and_writes_back_exactly() -> None:
    """``draw`` is the draw move, carries no card, and is written ``draw``."""
    move = Move.parse("draw")
    assert move == DRAW
    assert move.is_draw
    assert move.card is None
    assert move.text == str(move) == "draw"


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_card_code_is_a_play_that_writes_back_exactly(code: str) -> None:
    """A card code is the move that plays that card; its text is the code."""
    move = Move.parse(code)
    assert not move.is_draw
    assert move.card == Card.parse(code)
    assert move.text == str(move) == code
    assert Move.play(Card.parse(code)) == move


MALFORMED_MOVES: list[object] = [
    "Draw", "DRAW", " draw", "draw ", "undo", "pass",
    "7x", "10h", "7H", "", None, 7, " 7h", [],
]  # fmt: skip


@pytest.mark.parametrize("text", MALFORMED_MOVES, ids=repr)
def test_malformed_move_text_raises_malformed_error_saying_what_a_move_is(text: object) -> None:
    """Only ``draw`` and exact card codes are moves; the message quotes the input and shows both."""
    with pytest.raises(MalformedError) as error:
        Move.parse(text)  # type: ignore[arg-type]
    message = str(error.value)
    assert repr(text) in message
    assert "draw" in message
    assert "7h" in message


def test_malformed_move_is_a_value_error() -> None:
    """Callers that only know ValueError still catch a malformed move."""
    with pytest.raises(ValueError, match="is not a move"):
        Move.parse("7x")
