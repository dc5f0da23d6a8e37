"""The work done in the analysis process: pure engine calls, no Django.

This module is imported by a freshly spawned worker process, so it imports the engine only.
"""

import os
from collections.abc import Sequence
from typing import Any

from game.engine import Deal, GameState, Variant
from game.engine.analysis import analyse
from game.engine.moves import Move
from game.engine.solver import ParResult, find_par, solve

Verdict = dict[str, Any]
"""A deal's winnability and par, as stored in DealPar."""

ANALYSIS_NICENESS = 19


def yield_to_play() -> None:
    """Run the worker at a lower priority than the server: moves come before analyses."""
    os.nice(ANALYSIS_NICENESS)


def deal_verdict(seed: str, variant: str) -> Verdict:
    """Solve a deal: whether it can be won, and its par with a line that reaches it."""
    deal, rules = Deal.from_seed(seed), Variant(variant)
    par = find_par(deal, rules)
    winnable = solve(deal, rules).winnable
    return {
        "winnable": winnable,
        "par": par.par,
        "par_exact": par.exact,
        "par_line": [move.text for move in par.line],
    }


def analyse_finished(
    seed: str, variant: str, moves: Sequence[str], abandoned: bool, known: Verdict | None
) -> tuple[Verdict, dict[str, Any]]:
    """The deal's verdict (solved unless ``known``) and the analysis of one finished game on it."""
    verdict = known if known is not None else deal_verdict(seed, variant)
    state = GameState.replay(Deal.from_seed(seed), Variant(variant), moves)
    if abandoned and not state.status.is_over:
        state.abandon()
    par = ParResult(
        par=verdict["par"],
        line=tuple(Move.parse(text) for text in verdict["par_line"]),
        exact=verdict["par_exact"],
        nodes=0,
        elapsed_ms=0.0,
    )
    report = analyse(state, par=par, winnable=verdict["winnable"])
    return verdict, report.to_json()
