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
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.environment import (  # noqa: E402
    database_create,
    database_name,
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

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from bench.inserts import insert_head  # noqa: E402
from game.models import DealSource, Game, Mode, Status  # noqa: E402
from leaderboard.boards import (  # noqa: E402
    BOARD_DEPTH,
    Board,
    BoardKind,
    DailyBoard,
    _spec,
    board_page,
    rank_of,
)
from leaderboard.challenge import daily_seed  # noqa: E402
from leaderboard.models import ALL_TIME, Daily, DailyAttempt, PlayerBest, PlayerTally  # noqa: E402
from leaderboard.scores import scores_record  # noqa: E402
from leaderboard.selectors import PAGE_SIZE, commitment_of, utc_today, week_period  # noqa: E402

BANNED_SHARE = 0.001
DAILY_SHARE = 0.3
"""Of all games, the ranked daily attempts."""
THIS_WEEK_SHARE = 0.1
"""Of the casual games, those finished this week (so that the weekly boards are full any day)."""
WON_SHARE, ABANDONED_SHARE, ASSISTED_SHARE = 0.3, 0.1, 0.1


@contextmanager
def step(label: str) -> Iterator[None]:
    started = time.perf_counter()
    yield
    print(f"  {label}: {time.perf_counter() - started:.1f} s", flush=True)


def execute(statement: str, params: list[Any] | None = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def fill(games: int, players: int, days: int) -> None:
    """Make the database and fill it: players, dailies, games, attempts, score tables."""
    print(
        f"Filling {database_name(DATABASE_URL)}: {games:,} games, {players:,} players, "
        f"{days} dailies"
    )
    connection.close()
    database_create(DATABASE_URL, replace=True)
    with step("migrate"):
        call_command("migrate", verbosity=0)
    now = datetime.now(UTC)
    today = utc_today(now)
    week_start = datetime.fromisoformat(week_period(now)).replace(tzinfo=UTC)
    # A bulk load: foreign-key triggers off (the rows are consistent by construction), secondary
    # indexes dropped and built again at the end, big sort memory, no waiting on the WAL.
    for setting in (
        "session_replication_role = replica",
        "temp_buffers = '1GB'",
        "work_mem = '256MB'",
        "maintenance_work_mem = '1GB'",
        "synchronous_commit = off",
    ):
        execute(f"SET {setting}")
    indexes = secondary_indexes()
    with step(f"drop {len(indexes)} secondary indexes"):
        for name, _ in indexes:
            execute(f'DROP INDEX "{name}"')
    with step("players"):
        insert, values = insert_head(
            get_user_model(),
            {
                "password": "'!'",
                "is_superuser": "false",
                "username": "'player' || lpad(i::text, 6, '0')",
                "first_name": "''",
                "last_name": "''",
                "email": "''",
                "is_staff": "false",
                "is_active": "random() >= %(banned)s",
                "date_joined": "%(joined)s",
            },
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"{insert} SELECT {values} FROM generate_series(1, %(players)s) AS i",
                {"banned": BANNED_SHARE, "joined": now - timedelta(days=400), "players": players},
            )
    with step("dailies"):
        for back in range(days):
            day = today - timedelta(days=back)
            seed = daily_seed(day, 0)  # whether the solver wins it does not matter to the boards
            Daily.objects.create(
                date=day, seed=seed, commitment=commitment_of(seed), par=2000, created_at=now
            )
    per_day = games * DAILY_SHARE / days / players
    with step("ranked daily attempts (games and attempts)"):
        # One row per (day, player) at most: a random share of the pairs, finished in their day.
        execute(
            "CREATE TEMP TABLE bench_attempt AS"
            " SELECT gen_random_uuid() AS game_id, d.id AS daily_id, u.id AS user_id,"
            " d.date::timestamp AT TIME ZONE 'UTC' + interval '1 day' AS reveal_after,"
            " LEAST(d.date::timestamp AT TIME ZONE 'UTC' + random() * interval '1 day',"
            "       %s::timestamptz - interval '1 second') AS finished_at,"
            " (20000 + random() * 600000)::bigint AS duration_ms,"
            " random() AS luck"
            " FROM leaderboard_daily AS d CROSS JOIN auth_user AS u WHERE random() < %s",
            [now, per_day],
        )
        games_insert("bench_attempt", Mode.DAILY, DealSource.DAILY)
        insert, values = insert_head(
            DailyAttempt,
            {
                "daily_id": "a.daily_id",
                "user_id": "a.user_id",
                "game_id": "a.game_id",
                "created_at": "g.started_at",
                "score": "g.score",
                "duration_ms": "g.duration_ms",
                "finished_at": "g.finished_at",
            },
        )
        execute(
            f"{insert} SELECT {values} FROM bench_attempt AS a JOIN game_game AS g"
            " ON g.id = a.game_id",
            [],
        )
    with step("casual games"):
        execute(
            "CREATE TEMP TABLE bench_casual AS"
            " SELECT gen_random_uuid() AS game_id, NULL::bigint AS daily_id,"
            " (SELECT min(id) FROM auth_user) + floor(random() * %s)::bigint AS user_id,"
            " NULL::timestamptz AS reveal_after,"
            " CASE WHEN random() < %s"
            "  THEN %s::timestamptz + random() * (%s::timestamptz - %s::timestamptz)"
            "  ELSE %s::timestamptz - random() * interval '180 days' END AS finished_at,"
            " (20000 + random() * 600000)::bigint AS duration_ms,"
            " random() AS luck"
            " FROM generate_series(1, %s - (SELECT count(*) FROM bench_attempt))",
            [players, THIS_WEEK_SHARE, week_start, now, week_start, week_start, games],
        )
        games_insert("bench_casual", Mode.CASUAL, DealSource.RANDOM)
    with step("score tables (set-based, as scores_record leaves them)"):
        execute(_COUNTED)
        insert, values = insert_head(PlayerBest, {column: column for column in _BEST_COLUMNS})
        execute(_BEST_FILL.format(insert=insert, values=values), [])
        insert, values = insert_head(PlayerTally, _TALLY_VALUES)
        execute(_TALLY_FILL.format(insert=insert, values=values), [])
    with step("build the secondary indexes again"):
        for _, definition in indexes:
            execute(definition)
    with step("VACUUM ANALYZE"):
        connection.close()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def secondary_indexes() -> list[tuple[str, str]]:
    """(name, definition) of the indexes of the filled tables that back no constraint."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'"
            " AND tablename IN ('game_game', 'leaderboard_dailyattempt', 'leaderboard_playerbest',"
            " 'leaderboard_playertally')"
            " AND indexname NOT IN (SELECT conname FROM pg_constraint)"
        )
        return list(cursor.fetchall())


def games_insert(source: str, mode: Mode, deal_source: DealSource) -> None:
    """Insert a finished game for every row of the temporary table ``source``.

    Won games score more; a share is abandoned; a share used a hint (never a daily attempt).
    """
    won, abandoned = WON_SHARE, WON_SHARE + ABANDONED_SHARE
    insert, values = insert_head(
        Game,
        {
            "id": "game_id",
            "seed": "'bench'",
            "variant": "'tripeaks'",
            "mode": "%(mode)s",
            "deal_source": "%(deal_source)s",
            "ranked": "true",
            "owner_id": "user_id",
            "guest_key": "''",
            "status": f"CASE WHEN luck < {won} THEN 'won' WHEN luck < {abandoned}"
            " THEN 'abandoned' ELSE 'lost' END",
            "score": f"CASE WHEN luck < {won} THEN 800 + (random() * 1700)::int"
            " ELSE (random() * 900)::int END",
            "cards_left": f"CASE WHEN luck < {won} THEN 0 ELSE 1 + (random() * 26)::int END",
            "move_count": "40",
            "assisted": f"%(mode)s = 'casual' AND random() < {ASSISTED_SHARE}",
            "started_at": "finished_at - duration_ms * interval '1 millisecond'",
            "last_move_at": "finished_at",
            "finished_at": "finished_at",
            "duration_ms": "duration_ms",
            "reveal_after": "reveal_after",
        },
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"{insert} SELECT {values} FROM {source}",
            {"mode": mode.value, "deal_source": deal_source.value},
        )


# Every counted game once per board view it belongs to: all time and its week, the "all" view,
# and the clean one when no hint was used. Daily attempts count on their day's board only, and
# every casual game here is standard TriPeaks on a random deal: one variant and deal pool.
_COUNTED = """
CREATE TEMP TABLE bench_counted AS
SELECT g.id, g.owner_id, p.period, v.clean_only, g.status = 'won' AS won, g.score,
    g.duration_ms, g.finished_at
FROM game_game AS g
CROSS JOIN LATERAL (VALUES ('all'),
    (to_char(date_trunc('week', g.finished_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'))) AS p(period)
CROSS JOIN LATERAL (SELECT false UNION ALL SELECT true WHERE NOT g.assisted) AS v(clean_only)
WHERE g.owner_id IS NOT NULL AND g.status <> 'in_progress' AND NOT g.hidden
    AND g.mode = 'casual'
"""

_BEST_COLUMNS = (
    "user_id", "variant", "deals", "period", "clean_only", "game_id", "score", "duration_ms",
    "finished_at",
)  # fmt: skip
_BEST_FILL = """
{insert}
SELECT DISTINCT ON (user_id, period, clean_only) {values}
FROM (SELECT owner_id AS user_id, 'tripeaks' AS variant, 'random' AS deals, period, clean_only,
    id AS game_id, score, duration_ms, finished_at FROM bench_counted) AS counted
ORDER BY user_id, period, clean_only, score DESC, duration_ms, finished_at
"""

# Runs of wins are islands: in the order games ended, a win's place among all of the player's
# games minus its place among their wins is the same along one run. The longest run (the first
# to reach that length) and the run the last game belongs to give the two streaks.
_TALLY_VALUES = {
    "user_id": "t.owner_id",
    "variant": "'tripeaks'",
    "deals": "'random'",
    "period": "t.period",
    "clean_only": "t.clean_only",
    "played": "t.played",
    "won": "t.won",
    "win_rate": "t.won * 1.0 / t.played",
    "current_streak": "coalesce(c.length, 0)",
    "longest_streak": "coalesce(l.length, 0)",
    "longest_streak_at": "l.reached",
}
_TALLY_FILL = """
{insert}
WITH ordered AS (
    SELECT owner_id, period, clean_only, won, finished_at,
        row_number() OVER (PARTITION BY owner_id, period, clean_only
                           ORDER BY finished_at, id) AS place,
        row_number() OVER (PARTITION BY owner_id, period, clean_only, won
                           ORDER BY finished_at, id) AS place_in_kind
    FROM bench_counted
), totals AS (
    SELECT owner_id, period, clean_only, count(*) AS played, count(*) FILTER (WHERE won) AS won,
        max(place) AS last_place
    FROM ordered GROUP BY owner_id, period, clean_only
), runs AS (
    SELECT owner_id, period, clean_only, count(*) AS length, max(finished_at) AS reached,
        max(place) AS last_place
    FROM ordered WHERE won GROUP BY owner_id, period, clean_only, place - place_in_kind
), longest AS (
    SELECT DISTINCT ON (owner_id, period, clean_only) owner_id, period, clean_only, length, reached
    FROM runs ORDER BY owner_id, period, clean_only, length DESC, reached
)
SELECT {values}
FROM totals AS t
LEFT JOIN longest AS l USING (owner_id, period, clean_only)
LEFT JOIN runs AS c ON (c.owner_id, c.period, c.clean_only, c.last_place)
    = (t.owner_id, t.period, t.clean_only, t.last_place)
"""


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
        fill(args.games, args.players, args.days)
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
