"""A game in play: the rules, the scoring, and the end of the game.

A :class:`GameState` starts from a :class:`Deal` and a :class:`Variant`, and moves are applied to
it one at a time with :meth:`GameState.apply`. It holds everything, hidden cards included: only
:mod:`game.engine.view` turns it into what a player may see.

>>> state = GameState.replay(Deal.from_seed("1"), Variant.TRIPEAKS, ["draw", "draw"])
>>> state.seq, state.stock_count, state.status
(2, 21, <Status.IN_PROGRESS: 'in_progress'>)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from game.engine.cards import Card
from game.engine.deal import NOT_ON_THE_PEAKS, Deal
from game.engine.errors import GameOverError, IllegalMoveError
from game.engine.layout import ALL_PLAYED, COVER_MASKS, PEAK_TOPS, Position
from game.engine.masks import available_at
from game.engine.moves import DRAW, Move
from game.engine.variants import Variant

STREAK_STEP: Final = 10
"""The Nth card of a streak scores ``STREAK_STEP * N``."""
PEAK_BONUS: Final = 100
"""Added for playing a peak top."""
CLEARING_BONUS_PER_CARD: Final = 10
"""Added, on clearing the peaks, for every card still in the stock."""


class Status(StrEnum):
    """Where a game stands."""

    IN_PROGRESS = "in_progress"
    """Moves may still be made."""
    WON = "won"
    """All 28 cards on the peaks have been played."""
    LOST = "lost"
    """The stock is empty and no available card fits the waste."""
    ABANDONED = "abandoned"
    """The player gave up (or a ranked game timed out); the score so far stands."""

    @property
    def is_over(self) -> bool:
        return self is not Status.IN_PROGRESS


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """The score split by the lines of the scoring table."""

    streak_points: int
    peak_bonus: int
    clearing_bonus: int

    @property
    def total(self) -> int:
        return self.streak_points + self.peak_bonus + self.clearing_bonus

    def to_json(self) -> dict[str, int]:
        return {
            "streak_points": self.streak_points,
            "peak_bonus": self.peak_bonus,
            "clearing_bonus": self.clearing_bonus,
        }


class GameState:
    """The whole state of one game, hidden cards included."""

    __slots__ = (
        "_drawn",
        "_played",
        "_wrap",
        "deal",
        "moves",
        "score",
        "status",
        "streak",
        "variant",
        "waste",
    )

    def __init__(self, deal: Deal, variant: Variant) -> None:
        self.deal: Final = deal
        self.variant: Final = variant
        self._wrap: Final = variant.wrap
        self._played = 0  # bit p is set once the card at position p has been played
        self._drawn = 0  # cards drawn from the stock so far
        self.waste: list[Card] = [deal.waste]  # the top card is last
        self.moves: list[Move] = []
        self.score = 0
        self.streak = 0
        self.status = Status.IN_PROGRESS

    @classmethod
    def replay(cls, deal: Deal, variant: Variant, moves: Iterable[Move | str]) -> GameState:
        """The state after ``moves`` (Move objects or their text), each checked as it is made."""
        state = cls(deal, variant)
        for move in moves:
            state.apply(move if isinstance(move, Move) else Move.parse(move))
        return state

    def copy(self) -> GameState:
        """A state to change without changing this one (a move is tried on a copy, and the copy
        kept once the move is stored).

        >>> from game.engine.deal import Deal
        >>> before = GameState(Deal.from_seed("7"), Variant.TRIPEAKS)
        >>> after = before.copy()
        >>> after.apply(Move.parse("draw"))
        >>> before.seq, after.seq, before.stock_count - after.stock_count
        (0, 1, 1)
        """
        twin = GameState(self.deal, self.variant)
        twin._played, twin._drawn = self._played, self._drawn
        twin.waste, twin.moves = list(self.waste), list(self.moves)
        twin.score, twin.streak, twin.status = self.score, self.streak, self.status
        return twin

    # What anyone at the table can see or count.

    @property
    def seq(self) -> int:
        """How many moves have been made: the index the next move will take."""
        return len(self.moves)

    @property
    def waste_top(self) -> Card:
        return self.waste[-1]

    @property
    def stock_count(self) -> int:
        return len(self.deal.stock) - self._drawn

    @property
    def cards_played(self) -> int:
        return self._played.bit_count()

    @property
    def cards_left(self) -> int:
        """Cards still on the peaks."""
        return len(self.deal.tableau) - self.cards_played

    @property
    def peaks_cleared(self) -> int:
        return sum(1 for top in PEAK_TOPS if self.is_played(top))

    def is_played(self, position: Position) -> bool:
        return bool(self._played >> position & 1)

    def is_face_up(self, position: Position) -> bool:
        """Whether the card at ``position`` shows its face: it is uncovered, or on the bottom row.

        Face up and available are the same thing on the peaks: a card turns over the moment the
        last card overlapping it is played, and nothing covers it again.
        """
        mask = COVER_MASKS[position]
        return self._played & mask == mask

    def is_available(self, position: Position) -> bool:
        """Whether the card at ``position`` is on the peaks with nothing overlapping it."""
        return not self.is_played(position) and self.is_face_up(position)

    def fits_waste(self, card: Card) -> bool:
        """Whether ``card`` is a rank above or below the top waste card (K–A where it wraps)."""
        distance = abs(card.rank - self.waste[-1].rank)
        return distance == 1 or (self._wrap and distance == 12)

    def playable_positions(self) -> list[Position]:
        """Positions of the available cards that fit the waste (none once the game is over)."""
        return [] if self.status.is_over else self._fitting_positions()

    def _fitting_positions(self) -> list[Position]:
        """Positions of the available cards that fit the waste, whatever the game's status (every
        move's answer lists them: the available positions come from the process's cache)."""
        tableau, fits = self.deal.tableau, self.fits_waste
        return [p for p in available_at(self._played) if fits(tableau[p])]

    def legal_moves(self) -> list[Move]:
        """Every move allowed now: the playable cards, then ``draw`` while the stock lasts."""
        moves = [Move.play(self.deal.tableau[p]) for p in self.playable_positions()]
        if not self.status.is_over and self.stock_count:
            moves.append(DRAW)
        return moves

    def score_breakdown(self) -> ScoreBreakdown:
        """The score by scoring line: streaks, peak tops, and the clearing bonus."""
        peak_bonus = PEAK_BONUS * self.peaks_cleared
        clearing_bonus = (
            CLEARING_BONUS_PER_CARD * self.stock_count if self.status is Status.WON else 0
        )
        return ScoreBreakdown(self.score - peak_bonus - clearing_bonus, peak_bonus, clearing_bonus)

    # Changing the game.

    def apply(self, move: Move) -> None:
        """Make ``move``, or raise :class:`IllegalMoveError` and change nothing."""
        if self.status is not Status.IN_PROGRESS:
            raise GameOverError(f"The game is over ({self.status.value.replace('_', ' ')})")
        card = move.card
        if card is None:
            self._draw()
        else:
            self._play(card)
        self.moves.append(move)

    def abandon(self) -> None:
        """Give the game up; the score so far stands."""
        if self.status is not Status.IN_PROGRESS:
            raise GameOverError(f"The game is over ({self.status.value.replace('_', ' ')})")
        self.status = Status.ABANDONED

    def _draw(self) -> None:
        stock = self.deal.stock
        if self._drawn == len(stock):
            raise IllegalMoveError("The stock is empty")
        self.waste.append(stock[self._drawn])
        self._drawn += 1
        self.streak = 0
        if self._drawn == len(stock) and not self._has_play():
            self.status = Status.LOST

    def _play(self, card: Card) -> None:
        position = self.deal.positions[card.index]
        mask = COVER_MASKS[position] if position != NOT_ON_THE_PEAKS else 0
        played = self._played
        if position == NOT_ON_THE_PEAKS or played >> position & 1 or played & mask != mask:
            raise IllegalMoveError(self._why_not_on_the_peaks(card, position))
        if not self.fits_waste(card):
            raise IllegalMoveError(f"{card} does not fit on {self.waste[-1]}")
        self._played = played = played | 1 << position
        self.waste.append(card)
        self.streak += 1
        self.score += STREAK_STEP * self.streak
        if position < len(PEAK_TOPS):
            self.score += PEAK_BONUS
        if played == ALL_PLAYED:
            self.status = Status.WON
            self.score += CLEARING_BONUS_PER_CARD * self.stock_count
        elif self._drawn == len(self.deal.stock) and not self._has_play():
            self.status = Status.LOST

    def _has_play(self) -> bool:
        return bool(self._fitting_positions())

    def _why_not_on_the_peaks(self, card: Card, position: Position) -> str:
        # Only what the player has seen may be named: a card played or drawn is public, but a card
        # face down or in the stock gets one message whichever it is, so that the error never tells
        # where a hidden card lies.
        if position != NOT_ON_THE_PEAKS and self.is_played(position):
            return f"{card} has already been played"
        if card in self.waste:
            return f"{card} is on the waste pile, not on the peaks"
        return f"{card} is not a face-up card on the peaks"
