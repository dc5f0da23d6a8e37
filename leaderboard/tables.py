"""The score tables worked out from games alone, without a query: what a game adds to them, and
what a day's ranked attempt scores.

One piece of code for every use: :mod:`leaderboard.scores` counts a player's games afresh
(a moderator hid or restored one), the migration that split the boards by variant rebuilt every
row with it, and ``manage.py boards_verify`` recomputes the tables with it to check the stored
ones. :func:`leaderboard.scores.scores_record`, on the move path, adds one game at a time in
SQL and must agree with :meth:`Tables.count`.
"""

import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from game.engine import Deal, GameState, Move, Variant
from game.models import Status, duration_ms
from leaderboard.models import ALL_TIME, BOARD_KEY
from leaderboard.selectors import week_period

Key = tuple[str, str, str, bool]
"""A board's rows: (variant, deal pool, period, clean games only)."""


@dataclass(frozen=True, slots=True)
class Result:
    """A finished ranked game, as the all-time and weekly boards count it."""

    game_id: uuid.UUID
    user_id: int
    variant: str
    deals: str
    won: bool
    score: int
    duration_ms: int
    finished_at: datetime
    clean: bool


RESULT_FIELDS: Final = (
    "id", "owner_id", "variant", "deal_source", "status", "score", "duration_ms", "finished_at",
    "assisted",
)  # fmt: skip
"""The columns of a game that make its :class:`Result`."""


def result_of(row: Mapping[str, Any]) -> Result:
    """The result of a finished ranked game, from its columns (:data:`RESULT_FIELDS`)."""
    return Result(
        game_id=row["id"],
        user_id=row["owner_id"],
        variant=row["variant"],
        deals=row["deal_source"],
        won=row["status"] == Status.WON,
        score=row["score"],
        duration_ms=row["duration_ms"],
        finished_at=row["finished_at"],
        clean=not row["assisted"],
    )


def keys_of(result: Result) -> list[Key]:
    """The boards a game counts on: those of its variant and deal pool, all time and its week,
    in the "all" view and, for a game played without hints, the clean one."""
    periods = (ALL_TIME, week_period(result.finished_at))
    views = (False, True) if result.clean else (False,)
    return [(result.variant, result.deals, period, clean) for period in periods for clean in views]


def better(result: Result, best: Result | None) -> bool:
    """Whether ``result`` takes the best row from ``best``: a higher score, or the same score in
    less time (the same in the same time: the earlier finish keeps it)."""
    return best is None or (result.score, -result.duration_ms) > (best.score, -best.duration_ms)


@dataclass(slots=True)
class Tally:
    """A player's tally on one board, counted game by game in the order the games ended."""

    played: int = 0
    won: int = 0
    current_streak: int = 0
    longest_streak: int = 0
    longest_streak_at: datetime | None = None

    def count(self, result: Result) -> None:
        self.played += 1
        if not result.won:
            self.current_streak = 0
            return
        self.won += 1
        self.current_streak += 1
        if self.current_streak > self.longest_streak:
            self.longest_streak = self.current_streak
            self.longest_streak_at = result.finished_at

    @property
    def win_rate(self) -> float:
        return self.won / self.played


@dataclass(slots=True)
class Tables:
    """Best scores and tallies by (player, board)."""

    bests: dict[tuple[int, Key], Result] = field(default_factory=dict)
    tallies: dict[tuple[int, Key], Tally] = field(default_factory=dict)

    def count(self, result: Result) -> None:
        """Add a game; games are counted in the order they ended."""
        for key in keys_of(result):
            row = (result.user_id, key)
            if better(result, self.bests.get(row)):
                self.bests[row] = result
            self.tallies.setdefault(row, Tally()).count(result)


def tables_of(results: Iterable[Result]) -> Tables:
    """The score tables that ``results``, listed in the order the games ended, give."""
    tables = Tables()
    for result in results:
        tables.count(result)
    return tables


BEST_FIELDS: Final = (
    "user_id", *BOARD_KEY, "game_id", "score", "duration_ms", "finished_at",
)  # fmt: skip
TALLY_FIELDS: Final = (
    "user_id", *BOARD_KEY, "played", "won", "win_rate", "current_streak", "longest_streak",
    "longest_streak_at",
)  # fmt: skip


def best_rows(tables: Tables) -> Iterator[dict[str, Any]]:
    """The rows of the best-score table, by column (:data:`BEST_FIELDS`)."""
    for (user_id, key), best in tables.bests.items():
        yield {
            "user_id": user_id,
            **dict(zip(BOARD_KEY, key, strict=True)),
            "game_id": best.game_id,
            "score": best.score,
            "duration_ms": best.duration_ms,
            "finished_at": best.finished_at,
        }


def tally_rows(tables: Tables) -> Iterator[dict[str, Any]]:
    """The rows of the tally table, by column (:data:`TALLY_FIELDS`)."""
    for (user_id, key), tally in tables.tallies.items():
        yield {
            "user_id": user_id,
            **dict(zip(BOARD_KEY, key, strict=True)),
            "played": tally.played,
            "won": tally.won,
            "win_rate": tally.win_rate,
            "current_streak": tally.current_streak,
            "longest_streak": tally.longest_streak,
            "longest_streak_at": tally.longest_streak_at,
        }


@dataclass(frozen=True, slots=True)
class DayResult:
    """A ranked daily attempt's place on its day's board."""

    score: int
    duration_ms: int
    finished_at: datetime


DAY_FIELDS: Final = (
    "hidden", "score", "duration_ms", "finished_at", "started_at", "seed", "variant",
)  # fmt: skip
"""The columns of a ranked attempt's game that make its :class:`DayResult`."""
Moves = Iterable[tuple[str, datetime]]
"""A game's logged moves and when each was played, in order."""


def day_result(
    row: Mapping[str, Any], *, ends_at: datetime, now: datetime, moves: Callable[[], Moves]
) -> DayResult | None:
    """A ranked attempt's result on its day's board, from its game's columns (:data:`DAY_FIELDS`),
    or None while it has none: a game a moderator hid, or one still in play within its day.

    A game that ended within the day ranks as it ended. One still in play when the day ended
    ranks as it stood then, as if given up at midnight: the moves played from then on, on a deal
    by then public, do not count (``moves`` is read only for such a game).
    """
    finished_at = row["finished_at"]
    if row["hidden"]:
        return None
    if finished_at is not None and finished_at < ends_at:
        return DayResult(row["score"], row["duration_ms"], finished_at)
    if finished_at is None and now < ends_at:
        return None
    state = GameState(Deal.from_seed(row["seed"]), Variant(row["variant"]))
    for move, played_at in moves():
        if played_at >= ends_at:
            break
        state.apply(Move.parse(move))
    return DayResult(state.score, duration_ms(row["started_at"], ends_at), ends_at)
