"""Checking the boards against the games alone, for ``manage.py boards_verify``.

Every game behind a board row (every ranked game the all-time and weekly boards count) and every
daily attempt's game is replayed from its seed and move log, and its stored result compared with
what the moves give. The score tables are then worked out again from the replayed games alone,
with the code that rebuilds them (:mod:`leaderboard.tables`), and compared row by row with the
stored ones, and so is each attempt's place on its day's board. Nothing is written.

Players are checked a hundred at a time, so that memory stays flat whatever the number of games.
"""

import math
import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from typing import Any, Final, TypeVar

from django.utils import timezone

from game.engine import Deal, GameState, TriPeaksError, Variant
from game.models import DealSource, Game, Mode, Move, Status
from leaderboard.models import BOARD_KEY, DailyAttempt, Deals, PlayerBest, PlayerTally
from leaderboard.tables import (
    BEST_FIELDS,
    DAY_FIELDS,
    RESULT_FIELDS,
    TALLY_FIELDS,
    best_rows,
    day_result,
    result_of,
    tables_of,
    tally_rows,
)

T = TypeVar("T")

PLAYERS_AT_ONCE: Final = 100
ATTEMPTS_AT_ONCE: Final = 500
_GAME_FIELDS: Final = tuple(
    dict.fromkeys(("id", *RESULT_FIELDS, *DAY_FIELDS, "mode", "cards_left", "move_count"))
)


@dataclass(slots=True)
class Report:
    """What the check found: a line per difference, and how much it looked at."""

    differences: list[str] = field(default_factory=list)
    games: int = 0
    rows: int = 0
    attempts: int = 0

    @property
    def ok(self) -> bool:
        return not self.differences


def boards_check(*, now: datetime | None = None) -> Report:
    """Replay every game behind the boards and recompute the score tables from them; report every
    difference from what is stored."""
    now = now or timezone.now()
    report = Report()
    for players in _chunks(_players(), PLAYERS_AT_ONCE):
        _check_players(players, report)
    for attempts in _chunks(_attempts(), ATTEMPTS_AT_ONCE):
        _check_attempts(attempts, now, report)
    return report


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def counted_games() -> Any:
    """The games the all-time and weekly boards count: ranked games on a fresh deal of a
    signed-in player, over, and not hidden by a moderator."""
    return Game.objects.filter(
        owner__isnull=False, ranked=True, hidden=False, deal_source__in=Deals.values
    ).exclude(status=Status.IN_PROGRESS)


def _players() -> Iterator[int]:
    """Every player with a counted game or a row in a score table."""
    owners = counted_games().values_list("owner_id", flat=True).distinct()
    in_tables = {
        *PlayerBest.objects.values_list("user_id", flat=True).distinct(),
        *PlayerTally.objects.values_list("user_id", flat=True).distinct(),
    }
    yield from sorted(in_tables | set(owners))


def _check_players(user_ids: list[int], report: Report) -> None:
    games = list(
        counted_games()
        .filter(owner_id__in=user_ids)
        .order_by("finished_at", "id")
        .values(*_GAME_FIELDS)
    )
    moves = _moves_of([row["id"] for row in games])
    replayed = [_replayed(row, moves[row["id"]], report) for row in games]
    report.games += len(games)
    tables = tables_of(result_of(row) for row in replayed)
    _compare(
        "best score",
        BEST_FIELDS,
        list(best_rows(tables)),
        PlayerBest.objects.filter(user_id__in=user_ids).values(*BEST_FIELDS),
        report,
    )
    _compare(
        "tally",
        TALLY_FIELDS,
        list(tally_rows(tables)),
        PlayerTally.objects.filter(user_id__in=user_ids).values(*TALLY_FIELDS),
        report,
    )


_KEY: Final = ("user_id", *BOARD_KEY)


def _compare(
    table: str,
    fields: tuple[str, ...],
    wanted: list[dict[str, Any]],
    stored: Iterable[dict[str, Any]],
    report: Report,
) -> None:
    """Report the rows of a score table that are missing, extra or different."""
    expected = {tuple(row[name] for name in _KEY): row for row in wanted}
    found = {tuple(row[name] for name in _KEY): row for row in stored}
    report.rows += len(found)
    for key in sorted(expected.keys() | found.keys(), key=str):
        name = _row_name(table, key)
        if key not in found:
            report.differences.append(f"{name}: missing, the games give {_shown(expected[key])}")
        elif key not in expected:
            report.differences.append(f"{name}: stored, but no game counts on it")
        else:
            for column in fields:
                want, have = expected[key][column], found[key][column]
                if not _same(want, have):
                    report.differences.append(f"{name}: {column} is {have}, the games give {want}")


def _same(want: object, have: object) -> bool:
    if isinstance(want, float) and isinstance(have, float):
        return math.isclose(want, have)
    return want == have


def _row_name(table: str, key: tuple[Any, ...]) -> str:
    user_id, variant, deals, period, clean = key
    view = "clean" if clean else "all"
    return f"{table} row of player {user_id} ({variant}, {deals}, {period}, {view})"


def _shown(row: dict[str, Any]) -> str:
    return ", ".join(f"{name} {value}" for name, value in row.items() if name not in _KEY)


def _replayed(row: dict[str, Any], moves: list[str], report: Report) -> dict[str, Any]:
    """The game's row with the result its moves give (and each stored field that differs
    reported)."""
    try:
        state = GameState.replay(Deal.from_seed(row["seed"]), Variant(row["variant"]), moves)
    except TriPeaksError as error:
        report.differences.append(f"game {row['id']}: its move log does not replay: {error}")
        return row
    if row["status"] == Status.ABANDONED and not state.status.is_over:
        state.abandon()
    given = {
        "status": state.status.value,
        "score": state.score,
        "cards_left": state.cards_left,
        "move_count": state.seq,
    }
    for name, value in given.items():
        if row[name] != value:
            report.differences.append(
                f"game {row['id']}: {name} is {row[name]}, its moves give {value}"
            )
    return {**row, **given}


def _moves_of(game_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[str]]:
    moves: dict[uuid.UUID, list[str]] = defaultdict(list)
    logged = Move.objects.filter(game_id__in=game_ids).order_by("game_id", "seq")
    for game_id, move in logged.values_list("game_id", "move"):
        moves[game_id].append(move)
    return moves


def _attempts() -> Iterator[DailyAttempt]:
    return DailyAttempt.objects.select_related("daily").order_by("id").iterator(chunk_size=500)


def _check_attempts(attempts: list[DailyAttempt], now: datetime, report: Report) -> None:
    """Replay each attempt's game and work out its place on its day's board again."""
    game_ids = [attempt.game_id for attempt in attempts]
    games = {
        row["id"]: row
        for row in Game.objects.filter(id__in=game_ids).values(*_GAME_FIELDS, "ranked", "hidden")
    }
    moves = _moves_of(game_ids)
    report.attempts += len(attempts)
    for attempt in attempts:
        row = games[attempt.game_id]
        name = f"daily attempt of player {attempt.user_id} on {attempt.daily.date}"
        if (row["mode"], row["deal_source"], row["ranked"]) != (Mode.DAILY, DealSource.DAILY, True):
            report.differences.append(f"{name}: its game {row['id']} is not a ranked daily game")
            continue
        if row["seed"] != attempt.daily.seed:
            report.differences.append(f"{name}: its game {row['id']} is not on the day's deal")
            continue
        replayed = _replayed(row, moves[row["id"]], report)
        report.games += 1
        timed = Move.objects.filter(game_id=row["id"]).order_by("seq")
        wanted = day_result(
            replayed,
            ends_at=attempt.daily.ends_at,
            now=now,
            moves=timed.values_list("move", "played_at").iterator,
        )
        stored = (attempt.score, attempt.duration_ms, attempt.finished_at)
        expected = (
            (None, None, None)
            if wanted is None
            else (wanted.score, wanted.duration_ms, wanted.finished_at)
        )
        if stored != expected:
            report.differences.append(
                f"{name}: the board has {_result_words(stored)}, the game gives"
                f" {_result_words(expected)}"
            )


def _result_words(result: tuple[Any, ...]) -> str:
    score, duration, finished_at = result
    if score is None:
        return "no result"
    return f"{score} points in {duration} ms, finished {finished_at.isoformat()}"
