"""Cards: two-character codes, rank then suit (``7h``, ``Th``), and the fit rule between ranks.

>>> Card.parse("Th")
Card('Th')
>>> Card.parse("Th").rank, Card.parse("Th").suit
(10, <Suit.HEARTS: 'h'>)
>>> str(Card.parse("Ks"))
'Ks'
>>> fits(Card.parse("Kd"), Card.parse("Ac"), wrap=True)
True
>>> fits(Card.parse("7h"), Card.parse("7s"), wrap=True)
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from game.engine.errors import MalformedError

Rank = int
"""A rank value: Ace = 1, 2–10 as written, Jack = 11, Queen = 12, King = 13."""

RANK_CHARS: Final = "A23456789TJQK"
RANK_NAMES: Final = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
ACE: Final[Rank] = 1
KING: Final[Rank] = 13


class Suit(StrEnum):
    """A suit, written by its initial. Suits never matter to the rules; they are for people."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def plural(self) -> str:
        """The suit's English name, as in "seven of hearts"."""
        return self.name.lower()


SUITS: Final = tuple(Suit)


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. ``index`` (0–51) orders the deck: clubs A–K, diamonds, hearts, spades."""

    rank: Rank
    suit: Suit
    # Derived once at creation: the move path looks these up for every card it touches.
    index: int = field(init=False, repr=False, compare=False)
    code: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        is_whole_number = isinstance(self.rank, int) and not isinstance(self.rank, bool)
        if not is_whole_number or not ACE <= self.rank <= KING:
            raise MalformedError(f"{self.rank!r} is not a rank: ranks run from 1 (ace) to 13")
        if not isinstance(self.suit, Suit):
            raise MalformedError(f"{self.suit!r} is not a suit: suits are c, d, h and s")
        object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + self.rank - 1)
        object.__setattr__(self, "code", RANK_CHARS[self.rank - 1] + self.suit.value)

    @property
    def name(self) -> str:
        """The card's name in words, for screen readers and messages: "seven of hearts"."""
        return f"{RANK_NAMES[self.rank - 1]} of {self.suit.plural}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code such as ``7h``; anything else raises :class:`MalformedError`."""
        try:
            return CARDS_BY_CODE[text]
        except (KeyError, TypeError):
            raise MalformedError(
                f"{text!r} is not a card: write the rank (A 2 3 4 5 6 7 8 9 T J Q K) "
                "then the suit (c d h s), as in 7h or Th"
            ) from None

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


FULL_DECK: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit) for suit in SUITS for rank in range(ACE, KING + 1)
)
"""All 52 cards in index order: the deck before it is shuffled."""

CARDS_BY_CODE: Final[dict[str, Card]] = {card.code: card for card in FULL_DECK}


def fits(a: Card, b: Card, *, wrap: bool) -> bool:
    """Whether two cards fit: ranks one apart, or King and Ace when ``wrap`` is on."""
    distance = abs(a.rank - b.rank)
    return distance == 1 or (wrap and distance == KING - ACE)
