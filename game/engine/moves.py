"""Moves: ``draw``, or the code of a tableau card to play onto the waste.

>>> Move.parse("draw").is_draw, str(Move.parse("7h")), Move.parse("7h").card
(True, '7h', Card('7h'))
>>> Move.parse("undo")
Traceback (most recent call last):
...
game.engine.errors.MalformedError: 'undo' is not a move: send draw, or a card code such as 7h
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from game.engine.cards import FULL_DECK, Card
from game.engine.errors import MalformedError

DRAW_TEXT: Final = "draw"


@dataclass(frozen=True, slots=True)
class Move:
    """One move: play ``card`` from the peaks onto the waste, or draw when ``card`` is None."""

    card: Card | None = None

    @property
    def is_draw(self) -> bool:
        return self.card is None

    @property
    def text(self) -> str:
        """The move in the contract's notation: ``draw`` or a card code."""
        return DRAW_TEXT if self.card is None else self.card.code

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move; anything but ``draw`` or a card code raises :class:`MalformedError`."""
        try:
            return MOVES_BY_TEXT[text]
        except (KeyError, TypeError):
            raise MalformedError(
                f"{text!r} is not a move: send draw, or a card code such as 7h"
            ) from None

    @classmethod
    def play(cls, card: Card) -> Move:
        return MOVES_BY_TEXT[card.code]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


DRAW: Final = Move()
MOVES_BY_TEXT: Final[dict[str, Move]] = {DRAW_TEXT: DRAW} | {
    card.code: Move(card) for card in FULL_DECK
}
