"""Hints: the move a player should consider next, from what the player can see and nothing else.

A hint reads only a :class:`~game.engine.view.PublicView`: the face-up cards, the played
positions, the top waste card and the number of cards left in the stock. It never sees a face-down
card or the order of the stock, so it cannot give them away: two deals that look the same to the
player get the same hint.

The advice follows the rules page: never draw while a play fits; prefer the play that clears a peak
or turns cards over; count King and Ace as neighbours when the variant does. Among the plays, the
hint looks ahead along runs of face-up cards and picks the first card of the best run: the one
that clears the most peaks, then turns over the most cards, then plays the most cards.

Why a hint is what it is comes as facts (:class:`Why`), which the site puts into the player's
language (``game.hint_words``); the engine itself writes no sentence.

>>> from game.engine.deal import Deal
>>> from game.engine.state import GameState
>>> from game.engine.variants import Variant
>>> from game.engine.view import public_view
>>> state = GameState.replay(Deal.from_seed("1"), Variant.TRIPEAKS, [])
>>> advice = hint(public_view(state))
>>> advice.move in state.legal_moves()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from game.engine.cards import ACE, KING, Card, fits
from game.engine.layout import COVER_MASKS, PEAK_TOPS, POSITIONS, Position
from game.engine.moves import DRAW, Move
from game.engine.state import Status
from game.engine.variants import Variant
from game.engine.view import FACE_DOWN, PublicView

GAME_OVER: Final = "over"
NOTHING_FITS: Final = "draw"
NO_MOVE_LEFT: Final = "stuck"
A_PLAY: Final = "play"


@dataclass(frozen=True, slots=True)
class Why:
    """Why a hint is what it is: the situation (:data:`GAME_OVER`, :data:`NOTHING_FITS` so draw,
    :data:`NO_MOVE_LEFT`, or :data:`A_PLAY`) and, for a play, what it achieves."""

    situation: str
    card: Card | None = None
    """The card to play."""
    wraps_onto: Card | None = None
    """The waste card, when the play fits it only because King and Ace are neighbours."""
    clears_peak: bool = False
    turns_over: int = 0
    """Cards the play itself turns over (unless it clears a peak, which says more)."""
    run: int = 0
    """The length of the run of face-up plays it starts, when longer than the play alone."""
    run_turns_over: int = 0
    """Cards that run turns over beyond the play's own."""
    streak: bool = False
    """Whether a streak is going (said of a play that achieves nothing else)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move (None once the game is over or stuck) and why."""

    move: Move | None
    why: Why


@dataclass(frozen=True, slots=True)
class RunValue:
    """What a run of plays achieves, compared in this order: peaks, cards turned over, length."""

    peaks_cleared: int
    turned_over: int
    length: int

    @property
    def order(self) -> tuple[int, int, int]:
        return self.peaks_cleared, self.turned_over, self.length


@dataclass(frozen=True, slots=True)
class VisibleFacts:
    """What a player can see: the hint is computed from these alone."""

    wrap: bool
    played: int
    face_up: tuple[tuple[Position, Card], ...]
    waste: Card
    stock_count: int
    streak: int

    @classmethod
    def of(cls, view: PublicView) -> VisibleFacts:
        """Read the visible facts from a public view."""
        tableau = view["tableau"]
        return cls(
            wrap=Variant.parse(view["variant"]).wrap,
            played=sum(1 << p for p in POSITIONS if tableau[p] is None),
            face_up=tuple(
                (p, Card.parse(code))
                for p in POSITIONS
                if (code := tableau[p]) is not None and code != FACE_DOWN
            ),
            waste=Card.parse(view["waste"]),
            stock_count=view["stock_count"],
            streak=view["streak"],
        )

    def fitting(self, card: Card) -> tuple[int, ...]:
        """Indexes into ``face_up`` of the cards that fit ``card``."""
        return tuple(i for i, (_, up) in enumerate(self.face_up) if fits(up, card, wrap=self.wrap))

    def value(self, run: int) -> RunValue:
        """What playing the face-up cards in ``run`` (a mask of ``face_up`` indexes) achieves."""
        positions = [p for i, (p, _) in enumerate(self.face_up) if run >> i & 1]
        played = self.played | sum(1 << p for p in positions)
        turned_over = sum(
            1
            for p in POSITIONS
            if not played >> p & 1
            and played & COVER_MASKS[p] == COVER_MASKS[p]
            and self.played & COVER_MASKS[p] != COVER_MASKS[p]
        )
        return RunValue(
            peaks_cleared=sum(1 for p in positions if p in PEAK_TOPS),
            turned_over=turned_over,
            length=len(positions),
        )


def hint(view: PublicView) -> Hint:
    """The move to consider next in the game ``view`` shows, and why."""
    if Status(view["status"]).is_over:
        return Hint(None, Why(GAME_OVER))
    facts = VisibleFacts.of(view)
    playable = facts.fitting(facts.waste)
    if not playable:
        if facts.stock_count:
            return Hint(DRAW, Why(NOTHING_FITS))
        return Hint(None, Why(NO_MOVE_LEFT))
    runs = RunSearch(facts)
    # The best run first; between equals, the card with the lowest position (top row, then left).
    choice = max(playable, key=lambda i: (runs.best(1 << i, i).order, -facts.face_up[i][0]))
    card = facts.face_up[choice][1]
    return Hint(Move.play(card), _why(facts, choice, runs.best(1 << choice, choice)))


class RunSearch:
    """The best run of face-up plays that continues a given run.

    Only face-up cards count: a card turned over during the run is unknown until it is seen.
    """

    __slots__ = ("_facts", "_memo", "_next")

    def __init__(self, facts: VisibleFacts) -> None:
        self._facts = facts
        self._next = tuple(facts.fitting(card) for _, card in facts.face_up)
        self._memo: dict[tuple[int, int], RunValue] = {}

    def best(self, run: int, last: int) -> RunValue:
        """The best value of a run that starts with ``run`` (a mask) and goes on from ``last``."""
        key = (run, last)
        known = self._memo.get(key)
        if known is None:
            known = self._facts.value(run)
            for following in self._next[last]:
                if not run >> following & 1:
                    candidate = self.best(run | 1 << following, following)
                    if candidate.order > known.order:
                        known = candidate
            self._memo[key] = known
        return known


def _why(facts: VisibleFacts, choice: int, run: RunValue) -> Why:
    """What the chosen play achieves, as a player would be told it."""
    card = facts.face_up[choice][1]
    own = facts.value(1 << choice)
    wraps = {card.rank, facts.waste.rank} == {ACE, KING}
    return Why(
        A_PLAY,
        card=card,
        wraps_onto=facts.waste if wraps else None,
        clears_peak=own.peaks_cleared > 0,
        turns_over=0 if own.peaks_cleared else own.turned_over,
        run=run.length if run.length > 1 else 0,
        run_turns_over=max(0, run.turned_over - own.turned_over) if run.length > 1 else 0,
        streak=facts.streak > 0,
    )
