"""Analysis of a finished game: par and the player's share of it, the move that lost a winnable
deal, draws made while a card fitted, and the streaks.

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
from typing import Any

from game.engine.cards import Card
from game.engine.deal import Deal
from game.engine.errors import TriPeaksError
from game.engine.export import GameRecord
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
