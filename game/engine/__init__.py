"""The TriPeaks rules engine: pure Python, standard library only, no Django.

Everything in the project that needs a rule asks this package: cards and moves
(:mod:`~game.engine.cards`, :mod:`~game.engine.moves`), the seeded deal
(:mod:`~game.engine.deal`, :mod:`~game.engine.rng`), the rules and scoring
(:mod:`~game.engine.state`), what a player may see (:mod:`~game.engine.view`), game documents
(:mod:`~game.engine.export`), the solver (:mod:`~game.engine.solver`), hints from the public view
(:mod:`~game.engine.hint`) and the analysis of finished games (:mod:`~game.engine.analysis`).
``python -m game.engine`` is its command line.

>>> state = GameState.replay(Deal.from_seed("7"), Variant.TRIPEAKS, [])
>>> state.status.value, len(state.legal_moves()) >= 1
('in_progress', True)
"""

from game.engine.analysis import (
    DrawWhilePlayFit,
    GameAnalysis,
    Streak,
    analyse,
    analyse_moves,
    analyse_record,
)
from game.engine.cards import FULL_DECK, Card, Rank, Suit, fits
from game.engine.deal import Deal, Seed, normalise_seed
from game.engine.errors import (
    GameOverError,
    IllegalMoveError,
    MalformedError,
    TriPeaksError,
    VerificationError,
)
from game.engine.export import (
    FORMAT,
    GameRecord,
    deal_document,
    export_document,
    parse_document,
    verify,
)
from game.engine.hint import Hint, Why, hint
from game.engine.layout import COVERED_BY, PEAK_TOPS, POSITIONS, Position
from game.engine.moves import DRAW, Move
from game.engine.solver import (
    Budget,
    ParResult,
    SolveResult,
    find_par,
    find_par_from,
    solve,
    solve_from,
)
from game.engine.state import GameState, ScoreBreakdown, Status
from game.engine.variants import Variant
from game.engine.view import MoveChange, PublicView, change_applied, move_change, public_view

__all__ = [
    "COVERED_BY",
    "DRAW",
    "FORMAT",
    "FULL_DECK",
    "PEAK_TOPS",
    "POSITIONS",
    "Budget",
    "Card",
    "Deal",
    "DrawWhilePlayFit",
    "GameAnalysis",
    "GameOverError",
    "GameRecord",
    "GameState",
    "Hint",
    "IllegalMoveError",
    "MalformedError",
    "Move",
    "MoveChange",
    "ParResult",
    "Position",
    "PublicView",
    "Rank",
    "ScoreBreakdown",
    "Seed",
    "SolveResult",
    "Status",
    "Streak",
    "Suit",
    "TriPeaksError",
    "Variant",
    "VerificationError",
    "Why",
    "analyse",
    "analyse_moves",
    "analyse_record",
    "change_applied",
    "deal_document",
    "export_document",
    "find_par",
    "find_par_from",
    "fits",
    "hint",
    "move_change",
    "normalise_seed",
    "parse_document",
    "public_view",
    "solve",
    "solve_from",
    "verify",
]
