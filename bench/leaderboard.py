"""Leaderboard reads at scale: every board's first and a deep page, and players' rank lookups.

Fills a PostgreSQL database of its own (``leaderboard_<the bench database>``, dropped and made
again: see ``bench/environment.py``) with finished games over many players: casual games over the
last half year (a share of them this week) and ranked daily attempts over the last days, a few
players banned. Games, attempts and the score tables are written with set-based SQL, the score
tables as ``scores_record`` would have left them; every column the fill does not name gets its
default from the model, and a column without one stops the fill with its name, so that the fill
cannot fall behind the models unnoticed (``bench/inserts.py``). Then it runs the real selectors
(``leaderboard.selectors``) and prints, for each board page and for ``rank_of``, the p50 and p99 of
the database's execution time (``EXPLAIN ANALYZE`` of the exact statements the selector sends) and
of the selector's wall time, and the cost of recording a finished game (``scores_record``).

    .venv/bin/python bench/leaderboard.py [--games 1000000] [--players 100000] [--days 30]
                                          [--samples 200] [--reuse] [--smoke]

Needs PostgreSQL. ``--reuse`` times an existing fill; ``--smoke`` fills 2,000 games over 200 players
and times each figure 3 times. Prints figures only; nothing here passes or fails. Games have no move
logs: no board reads them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.environment import (  # noqa: E402
    leaderboard_database_url,
)
from bench.options import arguments  # noqa: E402

DATABASE_URL = leaderboard_database_url()
os.environ.update(
    {
        "DATABASE_URL": DATABASE_URL,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "LOG_LEVEL": "WARNING",
    }
)
os.environ.pop("REDIS_URL", None)  # no channel layer: the bench pushes no board
os.environ["DJANGO_SETTINGS_MODULE"] = "tripeaks_site.settings"

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402

from bench.leaderboard_fill import execute, fill  # noqa: E402
from game.models import DealSource, Game, Status  # noqa: E402
from leaderboard.boards import (  # noqa: E402
    BOARD_DEPTH,
    Board,
    BoardKind,
    DailyBoard,
    _spec,
    board_page,
    rank_of,
)
from leaderboard.models import ALL_TIME, Daily  # noqa: E402
from leaderboard.scores import scores_record  # noqa: E402
from leaderboard.selectors import PAGE_SIZE, week_period  # noqa: E402

# ---- Timing -----------------------------------------------------------------------------------


def captured(call: Callable[[], object]) -> tuple[list[tuple[str, Any]], object]:
    """The statements (SQL and parameters) a selector call sends, and its result."""
    statements: list[tuple[str, Any]] = []

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        result = call()
    return statements, result


def database_ms(statements: list[tuple[str, Any]]) -> float:
    """The execution time PostgreSQL reports for the statements, summed (planning apart)."""
    total = 0.0
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(f"EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) {sql}", params)
            plan = cursor.fetchone()[0]
            plan = json.loads(plan) if isinstance(plan, str) else plan
            total += plan[0]["Execution Time"]
    return total


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def measure(call: Callable[[], object], samples: int) -> tuple[float, float, float, float]:
    """(db p50, db p99, wall p50, wall p99) in ms over ``samples`` runs of ``call``."""
    database, wall = [], []
    for _ in range(samples):
        started = time.perf_counter()
        call()
        wall.append((time.perf_counter() - started) * 1000)
        statements, _ = captured(call)
        database.append(database_ms(statements))
    return (*percentiles(database), *percentiles(wall))


def board_rows(board: Board | DailyBoard) -> int:
    """How many rows a board has, banned players apart (to pick its deep page)."""
    return _spec(board).shown.count()


def report(label: str, figures: tuple[float, float, float, float]) -> None:
    db50, db99, wall50, wall99 = figures
    print(f"  {label:<44} db {db50:6.2f} / {db99:6.2f} ms   wall {wall50:6.2f} / {wall99:6.2f} ms")


def time_boards(samples: int, deep_page: int) -> None:
    connection.close()
    now = datetime.now(UTC)
    week = week_period(now)
    chance = random.Random(2026)
    execute("SELECT setseed(0.2026)")
    dailies = list(Daily.objects.order_by("-date").values_list("id", "date")[:2])
    boards: list[tuple[str, Board | DailyBoard]] = []
    for daily_id, day in dailies:
        boards.append((f"daily {day}", DailyBoard(daily_id)))
    for kind in BoardKind:
        for period, period_name in ((ALL_TIME, "all time"), (week, "this week")):
            for clean in (False, True):
                name = f"{kind.value} {period_name} {'clean' if clean else 'all'}"
                boards.append((name, Board(kind, period, clean)))
    print(
        f"\nBoards: p50 / p99 over {samples} runs; db = PostgreSQL execution time of the"
        " selector's statements, wall = the selector call from Python"
    )
    for name, board in boards:
        rows = board_rows(board)
        deep = min(deep_page, max(1, -(-min(rows, BOARD_DEPTH) // PAGE_SIZE)))
        print(f"{name}: {rows:,} rows", flush=True)
        report("first page", measure(partial(board_page, board, 1), samples))
        report(
            f"page {deep} (rows {(deep - 1) * PAGE_SIZE + 1:,}-)",
            measure(partial(board_page, board, deep), samples),
        )
        # Players on the board, drawn at random (the sampling is not timed).
        on_board = list(_spec(board).shown.order_by("?").values_list("user_id", flat=True)[:500])
        if not on_board:
            continue
        picks = iter(chance.choice(on_board) for _ in range(samples * 2))
        report("rank_of a random player", measure(partial(rank_next, picks, board), samples))


def rank_next(players: Iterator[int], board: Board | DailyBoard) -> object:
    """The rank of the next player drawn."""
    return rank_of(next(players), board)


def time_writes(samples: int) -> None:
    """The cost of entering one finished game into the score tables (two upserts)."""
    owners = list(Game.objects.values_list("owner_id", flat=True).distinct()[:10_000])
    chance = random.Random(7)
    wall = []
    now = datetime.now(UTC)
    for _ in range(samples):
        with transaction.atomic():
            game = Game.objects.create(
                id=uuid.uuid4(),
                seed="bench",
                deal_source=DealSource.RANDOM,
                ranked=True,
                owner_id=chance.choice(owners),
                status=Status.WON,
                score=chance.randrange(2500),
                cards_left=0,
                started_at=now - timedelta(minutes=5),
                finished_at=now,
                duration_ms=300_000,
            )
            started = time.perf_counter()
            scores_record([game.id])
            wall.append((time.perf_counter() - started) * 1000)
    p50, p99 = percentiles(wall)
    print(
        f"\nscores_record, one finished game ({samples} runs): p50 {p50:.2f} ms, p99 {p99:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=30, help="daily challenges to fill")
    parser.add_argument("--samples", type=int, default=200, help="timed runs per figure")
    parser.add_argument(
        "--deep-page", type=int, default=BOARD_DEPTH // PAGE_SIZE, help="the deep page timed"
    )
    parser.add_argument("--reuse", action="store_true", help="time the existing fill")
    args = arguments(parser, {"games": 2000, "players": 200, "days": 3, "samples": 3})
    if not args.reuse:
        started = time.perf_counter()
        fill(DATABASE_URL, args.games, args.players, args.days)
        print(f"  filled in {time.perf_counter() - started:.0f} s")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT count(*) FROM game_game), (SELECT count(*) FROM auth_user),"
            " (SELECT count(*) FROM leaderboard_dailyattempt),"
            " (SELECT count(*) FROM leaderboard_playerbest),"
            " (SELECT count(*) FROM leaderboard_playertally),"
            " (SELECT count(*) FROM auth_user WHERE NOT is_active)"
        )
        counts = cursor.fetchone()
    print(
        "Database: {:,} games, {:,} players, {:,} daily attempts, {:,} best rows,"
        " {:,} tally rows, {:,} banned players".format(*counts)
    )
    time_boards(args.samples, args.deep_page)
    time_writes(args.samples)


if __name__ == "__main__":
    main()
