"""Analysis of a finished game: par and the player's share of it, the move that lost a winnable
deal, the streaks, and the four mistakes that break streaks (the rules page's tips): a draw made
while a card fitted, a play that opened nothing when another would have turned a card over, a
King–Ace link missed, and the stock left for last.

The mistakes are judged from what the player could see at the time (the hint's own reading of
the board, :mod:`game.engine.hint`), never from the face-down cards.

An analysis uses the whole deal, hidden cards included, so it is only made for a game that is over
(as with :func:`game.engine.export.export_document`).

>>> from game.engine.deal import Deal
>>> from game.engine.variants import Variant
>>> report = analyse_moves(Deal.from_seed("7"), Variant.TRIPEAKS, ["draw"] * 23)
>>> report.status.value, report.score, report.draws_while_play_fit[0].move
('lost', 0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from game.engine.cards import ACE, KING, Card
from game.engine.deal import Deal
from game.engine.errors import TriPeaksError
from game.engine.export import GameRecord
from game.engine.hint import RunSearch, RunValue, VisibleFacts
from game.engine.moves import Move
from game.engine.solver import (
    PAR_BUDGET,
    WINNABILITY_BUDGET,
    Budget,
    ParResult,
    find_par,
    solve,
    solve_from,
)
from game.engine.state import STREAK_STEP, GameState, Status
from game.engine.variants import Variant
from game.engine.view import public_view


@dataclass(frozen=True, slots=True)
class Streak:
    """Consecutive plays with no draw between them. Move numbers count from 1."""

    first_move: int
    length: int
    points: int
    """Streak points only: 10 for the first card, 20 for the second, … (peak bonuses apart)."""
    broken_by: int | None
    """The draw that ended the streak, or None when the game ended first."""


@dataclass(frozen=True, slots=True)
class DrawWhilePlayFit:
    """A draw made while cards on the peaks fitted the waste."""

    move: int
    fits: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayOpeningNothing:
    """A play that turned no card over and cleared no peak, nor could the run of face-up cards
    it started, while another card that fitted would have turned a card over at once."""

    move: int
    card: Card
    openers: tuple[Card, ...]
    """The cards that fitted and would have turned a card over, or cleared a peak."""


@dataclass(frozen=True, slots=True)
class MissedKingAce:
    """A draw made while a card fitted the waste through the King–Ace link (a King on an Ace,
    or an Ace on a King), in a variant with the wrap."""

    move: int
    waste: Card
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class StockLeftForLast:
    """A lost game that ended on a run of draws with no play between them: the last cards of the
    stock went by and none of them gave a play."""

    move: int
    """The first draw of the run."""
    draws: int


FINAL_DRAWS: Final = 3
"""Draws in a row that end a lost game before the stock counts as left for last (one or two
final draws that find nothing are ordinary bad luck)."""


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """What a finished game shows against the best that the deal allowed."""

    status: Status
    score: int
    par: int
    par_exact: bool
    par_line: tuple[Move, ...]
    winnable: bool | None
    """Whether the deal could be won from the start (None when the search ran out of budget)."""
    lost_at: int | None
    """For a game not won on a winnable deal: the first move after which it could not be won."""
    draws_while_play_fit: tuple[DrawWhilePlayFit, ...]
    streaks: tuple[Streak, ...]
    plays_opening_nothing: tuple[PlayOpeningNothing, ...] = ()
    missed_king_ace: tuple[MissedKingAce, ...] = ()
    stock_left_for_last: StockLeftForLast | None = None

    @property
    def share(self) -> float | None:
        """The score as a fraction of par (None when par is 0)."""
        return self.score / self.par if self.par else None

    def to_json(self) -> dict[str, Any]:
        """The analysis as plain JSON values."""
        share = self.share
        return {
            "status": self.status.value,
            "score": self.score,
            "par": self.par,
            "par_exact": self.par_exact,
            "par_line": [move.text for move in self.par_line],
            "share": None if share is None else round(share, 4),
            "winnable": self.winnable,
            "lost_at": self.lost_at,
            "draws_while_play_fit": [
                {"move": draw.move, "fits": [card.code for card in draw.fits]}
                for draw in self.draws_while_play_fit
            ],
            "streaks": [
                {
                    "first_move": streak.first_move,
                    "length": streak.length,
                    "points": streak.points,
                    "broken_by": streak.broken_by,
                }
                for streak in self.streaks
            ],
            "plays_opening_nothing": [
                {
                    "move": play.move,
                    "card": play.card.code,
                    "openers": [card.code for card in play.openers],
                }
                for play in self.plays_opening_nothing
            ],
            "missed_king_ace": [
                {
                    "move": missed.move,
                    "waste": missed.waste.code,
                    "cards": [card.code for card in missed.cards],
                }
                for missed in self.missed_king_ace
            ],
            "stock_left_for_last": None
            if self.stock_left_for_last is None
            else {"move": self.stock_left_for_last.move, "draws": self.stock_left_for_last.draws},
        }


def analyse_record(
    record: GameRecord,
    *,
    winnability_budget: Budget = WINNABILITY_BUDGET,
    par_budget: Budget = PAR_BUDGET,
) -> GameAnalysis:
    """Analyse the game a document records (replayed here; see :func:`export.verify` first)."""
    return analyse_moves(
        record.deal,
        record.variant,
        record.moves,
        abandoned=record.status is Status.ABANDONED,
        winnability_budget=winnability_budget,
        par_budget=par_budget,
    )


def analyse_moves(
    deal: Deal,
    variant: Variant,
    moves: Sequence[Move | str],
    *,
    abandoned: bool = False,
    winnability_budget: Budget = WINNABILITY_BUDGET,
    par_budget: Budget = PAR_BUDGET,
) -> GameAnalysis:
    """Analyse the game that ``moves`` make on ``deal``; ``abandoned`` if it was given up."""
    state = GameState.replay(deal, variant, moves)
    if abandoned and not state.status.is_over:
        state.abandon()
    return analyse(state, winnability_budget=winnability_budget, par_budget=par_budget)


def analyse(
    state: GameState,
    *,
    par: ParResult | None = None,
    winnable: bool | None = None,
    winnability_budget: Budget = WINNABILITY_BUDGET,
    par_budget: Budget = PAR_BUDGET,
) -> GameAnalysis:
    """Analyse the finished game ``state`` holds.

    The deal's par and winnability, when already known (from :func:`find_par` and :func:`solve`,
    say for a deal many players share), are passed as ``par`` and ``winnable``; otherwise they are
    found here, within the budgets.
    """
    if not state.status.is_over:
        raise TriPeaksError("A game in progress cannot be analysed: it would reveal hidden cards")
    deal, variant, moves = state.deal, state.variant, tuple(state.moves)
    if par is None:
        par = find_par(deal, variant, budget=par_budget)
    best, best_line = par.par, par.line
    if state.score > best:  # only when the par search ran out: the player's line is better
        best, best_line = state.score, moves
    if state.status is Status.WON:
        winnable = True
    elif winnable is None:
        winnable = solve(deal, variant, budget=winnability_budget).winnable
    return GameAnalysis(
        status=state.status,
        score=state.score,
        par=best,
        par_exact=par.exact,
        par_line=best_line,
        winnable=winnable,
        lost_at=_lost_at(state, winnable, winnability_budget),
        draws_while_play_fit=draws_while_play_fit(deal, variant, moves),
        streaks=streaks(moves),
        plays_opening_nothing=plays_opening_nothing(deal, variant, moves),
        missed_king_ace=missed_king_ace(deal, variant, moves),
        stock_left_for_last=stock_left_for_last(state),
    )


def _lost_at(state: GameState, winnable: bool | None, budget: Budget) -> int | None:
    """The first move after which the deal could no longer be won, when the game threw a win away.

    Once a position cannot be won, nothing after it can: so the answer is found by halving the
    moves, asking the solver about the position after each middle move.
    """
    if winnable is not True or state.status is Status.WON:
        return None
    deal, variant, moves = state.deal, state.variant, state.moves
    if state.status is not Status.LOST:
        final = solve_from(GameState.replay(deal, variant, moves), budget=budget).winnable
        if final is not False:
            return None
    still_winnable, lost = 0, len(moves)
    while lost - still_winnable > 1:
        middle = (still_winnable + lost) // 2
        position = GameState.replay(deal, variant, moves[:middle])
        answer = solve_from(position, budget=budget).winnable
        if answer is None:
            return None
        if answer:
            still_winnable = middle
        else:
            lost = middle
    return lost


def draws_while_play_fit(
    deal: Deal, variant: Variant, moves: Sequence[Move]
) -> tuple[DrawWhilePlayFit, ...]:
    """Each draw made while a card on the peaks fitted, with the cards that fitted.

    >>> draws = draws_while_play_fit(Deal.from_seed("7"), Variant.TRIPEAKS, [Move.parse("draw")])
    >>> [(draw.move, len(draw.fits) > 0) for draw in draws]
    [(1, True)]
    """
    state = GameState(deal, variant)
    found: list[DrawWhilePlayFit] = []
    for number, move in enumerate(moves, start=1):
        if move.is_draw:
            playable = state.playable_positions()
            if playable:
                found.append(DrawWhilePlayFit(number, tuple(deal.tableau[p] for p in playable)))
        state.apply(move)
    return tuple(found)


def plays_opening_nothing(
    deal: Deal, variant: Variant, moves: Sequence[Move]
) -> tuple[PlayOpeningNothing, ...]:
    """Each play that opened nothing while another fitting card would have turned one over.

    As the hint reads the board, from the face-up cards alone: the play is let off when the run
    of face-up cards it starts would turn a card over later (it may have been the way to one).
    """
    state = GameState(deal, variant)
    found: list[PlayOpeningNothing] = []
    for number, move in enumerate(moves, start=1):
        if move.card is not None:
            facts = VisibleFacts.of(public_view(state))
            fitting = facts.fitting(facts.waste)
            played = next(i for i in fitting if facts.face_up[i][1] == move.card)
            if not _opens(RunSearch(facts).best(1 << played, played)):
                openers = tuple(
                    facts.face_up[i][1]
                    for i in fitting
                    if i != played and _opens(facts.value(1 << i))
                )
                if openers:
                    found.append(PlayOpeningNothing(number, move.card, openers))
        state.apply(move)
    return tuple(found)


def _opens(run: RunValue) -> bool:
    return run.peaks_cleared > 0 or run.turned_over > 0


def missed_king_ace(
    deal: Deal, variant: Variant, moves: Sequence[Move]
) -> tuple[MissedKingAce, ...]:
    """Each draw made while a card fitted through the King–Ace link (never in a variant
    without the wrap).

    >>> [(missed.move, missed.waste.code, [c.code for c in missed.cards]) for missed in
    ...  missed_king_ace(Deal.from_seed("7"), Variant.TRIPEAKS, [Move.parse("draw")])]
    [(1, 'Ah', ['Kc', 'Kh'])]
    """
    state = GameState(deal, variant)
    found: list[MissedKingAce] = []
    for number, move in enumerate(moves, start=1):
        if move.is_draw and variant.wrap:
            waste = state.waste_top
            linked = tuple(
                deal.tableau[p]
                for p in state.playable_positions()
                if {deal.tableau[p].rank, waste.rank} == {ACE, KING}
            )
            if linked:
                found.append(MissedKingAce(number, waste, linked))
        state.apply(move)
    return tuple(found)


def stock_left_for_last(state: GameState) -> StockLeftForLast | None:
    """The run of draws a lost game ended on, when it is FINAL_DRAWS or longer.

    >>> lost = GameState.replay(Deal.from_seed("7"), Variant.TRIPEAKS, ["draw"] * 23)
    >>> stock_left_for_last(lost)
    StockLeftForLast(move=1, draws=23)
    """
    if state.status is not Status.LOST:
        return None
    draws = 0
    for move in reversed(state.moves):
        if not move.is_draw:
            break
        draws += 1
    if draws < FINAL_DRAWS:
        return None
    return StockLeftForLast(len(state.moves) - draws + 1, draws)


def streaks(moves: Sequence[Move]) -> tuple[Streak, ...]:
    """The streaks of a game, in order, with the draw that broke each.

    >>> [(s.first_move, s.length, s.points, s.broken_by) for s in streaks(
    ...     [Move.parse(text) for text in ("7h", "8h", "draw", "draw", "9c")])]
    [(1, 2, 30, 3), (5, 1, 10, None)]
    """
    found: list[Streak] = []
    first, length = 0, 0
    for number, move in enumerate(moves, start=1):
        if not move.is_draw:
            first, length = (first or number), length + 1
        elif length:
            found.append(_streak(first, length, broken_by=number))
            first, length = 0, 0
    if length:
        found.append(_streak(first, length, broken_by=None))
    return tuple(found)


def _streak(first: int, length: int, *, broken_by: int | None) -> Streak:
    return Streak(first, length, STREAK_STEP * length * (length + 1) // 2, broken_by)
