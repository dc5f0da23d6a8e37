"""Hints: the move a player should consider next, from what the player can see and nothing else.

A hint reads only a :class:`~game.engine.view.PublicView`: the face-up cards, the played
positions, the top waste card and the number of cards left in the stock. It never sees a face-down
card or the order of the stock, so it cannot give them away: two deals that look the same to the
player get the same hint.

The advice follows the rules page: never draw while a play fits; prefer the play that clears a peak
or turns cards over; count King and Ace as neighbours when the variant does. Among the plays, the
hint looks ahead along runs of face-up cards and picks the first card of the best run: the one
that clears the most peaks, then turns over the most cards, then plays the most cards.

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

NUMBER_WORDS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move (None once the game is over) and the reason, in a player's words."""

    move: Move | None
    reason: str


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
        return Hint(None, "The game is over.")
    facts = VisibleFacts.of(view)
    playable = facts.fitting(facts.waste)
    if not playable:
        if facts.stock_count:
            return Hint(DRAW, "Draw: nothing fits.")
        return Hint(None, "No move is left.")
    runs = RunSearch(facts)
    # The best run first; between equals, the card with the lowest position (top row, then left).
    choice = max(playable, key=lambda i: (runs.best(1 << i, i).order, -facts.face_up[i][0]))
    card = facts.face_up[choice][1]
    return Hint(Move.play(card), _reason(facts, choice, runs.best(1 << choice, choice)))


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


def _reason(facts: VisibleFacts, choice: int, run: RunValue) -> str:
    """Why the chosen play is good, in a sentence a player understands."""
    card = facts.face_up[choice][1]
    own = facts.value(1 << choice)
    parts: list[str] = []
    if own.peaks_cleared:
        parts.append("clears a peak")
    elif own.turned_over:
        parts.append(f"turns over {_cards(own.turned_over)}")
    if run.length > 1:
        more = run.turned_over - own.turned_over
        then = f" that turns over {_cards(more, 'more')}" if more > 0 else ""
        parts.append(f"starts a run of {_number(run.length)} cards{then}")
    if not parts:
        parts.append("keeps your streak going" if facts.streak else "is the card that fits")
    wrap_link = {card.rank, facts.waste.rank} == {ACE, KING}
    # Cards by name, not code: the reason is read by people and by screen readers.
    link = f" on the {facts.waste.name} (King and Ace fit)" if wrap_link else ""
    return f"Play the {card.name}{link}: it {' and '.join(parts)}."


def _number(n: int) -> str:
    return NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)


def _cards(n: int, adjective: str = "") -> str:
    """``a card``, ``two cards``, ``one more card``, ``three more cards``."""
    words = f"{adjective} card" if adjective else "card"
    if n == 1:
        return f"one {words}" if adjective else f"a {words}"
    return f"{_number(n)} {words}s"
