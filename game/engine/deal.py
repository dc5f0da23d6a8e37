"""Deals: the 52 cards laid out from a seed.

The first 28 cards of the shuffled deck go to positions 0–27, the next starts the waste, and the
remaining 23 form the stock in the order they will be drawn. The deal depends on the seed alone,
so one seed gives the same cards in every variant.

>>> deal = Deal.from_seed("1")
>>> len(deal.tableau), len(deal.stock), deal == Deal.from_seed(1)
(28, 23, True)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from game.engine.cards import FULL_DECK, Card
from game.engine.errors import MalformedError
from game.engine.layout import TABLEAU_SIZE, Position
from game.engine.rng import DealRandom

Seed = str
"""A seed is a string; an integer seed stands for its decimal string."""

SEED_MAX_LENGTH: Final = 128
STOCK_SIZE: Final = 52 - TABLEAU_SIZE - 1
NOT_ON_THE_PEAKS: Final = -1


def normalise_seed(seed: int | str) -> Seed:
    """The seed as the string the generator reads: an integer becomes its decimal string.

    >>> normalise_seed(2026), normalise_seed("daily-2026-11-30")
    ('2026', 'daily-2026-11-30')
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise MalformedError(f"{seed!r} is not a seed: a seed is a string or a whole number")
    text = str(seed)
    if not 1 <= len(text) <= SEED_MAX_LENGTH:
        raise MalformedError(f"a seed has 1 to {SEED_MAX_LENGTH} characters, not {len(text)}")
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise MalformedError("a seed cannot contain control characters")
    return text


@dataclass(frozen=True, slots=True)
class Deal:
    """Where every card lies at the start: the peaks, the first waste card, and the stock."""

    seed: Seed
    tableau: tuple[Card, ...]
    waste: Card
    stock: tuple[Card, ...]
    # For each card index, its position on the peaks, or NOT_ON_THE_PEAKS.
    positions: tuple[Position, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.tableau) != TABLEAU_SIZE or len(self.stock) != STOCK_SIZE:
            raise MalformedError(
                f"a deal has {TABLEAU_SIZE} cards on the peaks and {STOCK_SIZE} in the stock, "
                f"not {len(self.tableau)} and {len(self.stock)}"
            )
        cards = (*self.tableau, self.waste, *self.stock)
        if not all(isinstance(card, Card) for card in cards):
            raise MalformedError("a deal is made of cards")
        if len(set(cards)) != len(FULL_DECK):
            raise MalformedError("a deal holds each of the 52 cards exactly once")
        positions = [NOT_ON_THE_PEAKS] * len(FULL_DECK)
        for position, card in enumerate(self.tableau):
            positions[card.index] = position
        object.__setattr__(self, "positions", tuple(positions))

    @classmethod
    def from_seed(cls, seed: int | str) -> Deal:
        """The deal a seed gives, the same on every machine."""
        return _deal_from_seed(normalise_seed(seed))

    @classmethod
    def from_cards(cls, seed: Seed, cards: tuple[Card, ...]) -> Deal:
        """A deal from a whole deck in deal order: 28 for the peaks, the waste, then the stock."""
        if len(cards) != len(FULL_DECK):
            raise MalformedError(f"a deck has {len(FULL_DECK)} cards, not {len(cards)}")
        return cls(
            seed=seed,
            tableau=cards[:TABLEAU_SIZE],
            waste=cards[TABLEAU_SIZE],
            stock=cards[TABLEAU_SIZE + 1 :],
        )


@lru_cache(maxsize=4096)
def _deal_from_seed(seed: Seed) -> Deal:
    # Cached: a deal never changes, and the move path replays games of the same seeds often.
    return Deal.from_cards(seed, tuple(DealRandom(seed).shuffled(FULL_DECK)))
