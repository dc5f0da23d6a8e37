"""The leaderboard bench's fill: games, daily attempts and score tables written with set-based SQL.

Imported by ``bench/leaderboard.py`` once Django is set up (against the bench's own database); the
score tables come out as ``scores_record`` would have left them, and every column the fill does
not name takes the model's default (``bench/inserts.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from bench.environment import database_create, database_name
from bench.inserts import insert_head
from game.models import DealSource, Game, Mode
from leaderboard.challenge import daily_seed
from leaderboard.models import Daily, DailyAttempt, PlayerBest, PlayerTally
from leaderboard.selectors import commitment_of, utc_today, week_period

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


def fill(database_url: str, games: int, players: int, days: int) -> None:
    """Make the database and fill it: players, dailies, games, attempts, score tables."""
    print(
        f"Filling {database_name(database_url)}: {games:,} games, {players:,} players, "
        f"{days} dailies"
    )
    connection.close()
    database_create(database_url, replace=True)
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
