"""The score tables' writes: finished games entered into them in the transaction that finishes
them (:func:`scores_record`, told by ``game.events``), a player's rows rebuilt from their games
(after a moderator hides or restores one), and the day boards pushed once their results commit."""

import uuid
from datetime import datetime
from typing import Any, Final

from django.db import connection, models, transaction
from django.utils import timezone

from core.broadcast import after_commit, group_send_soon
from game.models import Game, Mode, Move, Status
from leaderboard.boards import daily_board_snapshot
from leaderboard.models import Daily, DailyAttempt, Deals, PlayerBest, PlayerTally
from leaderboard.tables import (
    DAY_FIELDS,
    RESULT_FIELDS,
    DayResult,
    Key,
    Result,
    Tables,
    best_rows,
    day_result,
    keys_of,
    result_of,
    tally_rows,
)

_GAME_FIELDS: Final = tuple(dict.fromkeys((*RESULT_FIELDS, *DAY_FIELDS, "mode", "ranked")))


def scores_record(game_ids: list[uuid.UUID]) -> None:
    """Enter games that have just ended into the score tables, in the transaction ending them.

    Only ranked games of signed-in players count, and not those a moderator hid. A casual game
    on a fresh deal counts on the all-time and weekly boards of its variant and deal pool: two
    upserts (all time and this week, in the "all" view and, for a game played without hints, the
    clean one) for its best score and tally. A ranked daily attempt counts on its day's board
    only, and the board's new first page is pushed once committed. Replays of a known deal and
    race games count nowhere here.
    """
    rows = list(
        Game.objects.filter(id__in=game_ids, owner__isnull=False, hidden=False, ranked=True)
        .exclude(status=Status.IN_PROGRESS)
        .order_by("finished_at", "id")
        .values(*_GAME_FIELDS)
    )
    if not rows:
        return
    attempts = _attempts_of([row["id"] for row in rows if row["mode"] == Mode.DAILY])
    boards_changed: set[int] = set()
    for row in rows:
        if row["mode"] == Mode.DAILY:
            attempt = attempts.get(row["id"])
            day = None if attempt is None else _day_result(row, attempt.daily.ends_at)
            if attempt is None or day is None:
                continue
            DailyAttempt.objects.filter(id=attempt.id).update(**_day_fields(day))
            boards_changed.add(attempt.daily_id)
        elif row["deal_source"] in Deals.values:
            result = result_of(row)
            keys = keys_of(result)
            _best_upsert(result, keys)
            _tally_upsert(result, keys)
    daily_boards_announce_on_commit(boards_changed)


def _attempts_of(game_ids: list[uuid.UUID]) -> dict[uuid.UUID, DailyAttempt]:
    if not game_ids:
        return {}
    attempts = DailyAttempt.objects.filter(game_id__in=game_ids).select_related("daily")
    return {attempt.game_id: attempt for attempt in attempts}


def _day_result(row: dict[str, Any], ends_at: datetime) -> DayResult | None:
    """:func:`leaderboard.tables.day_result` of a game read with :data:`_GAME_FIELDS`."""
    moves = Move.objects.filter(game_id=row["id"]).order_by("seq").values_list("move", "played_at")
    return day_result(row, ends_at=ends_at, now=timezone.now(), moves=moves.iterator)


def _day_fields(result: DayResult | None) -> dict[str, Any]:
    return {
        "score": None if result is None else result.score,
        "duration_ms": None if result is None else result.duration_ms,
        "finished_at": None if result is None else result.finished_at,
    }


def daily_boards_announce_on_commit(daily_ids: set[int]) -> None:
    """Push the first page of each of these days' boards once the transaction commits."""
    for daily_id in sorted(daily_ids):
        after_commit(daily_board_announce, daily_id)


@transaction.atomic
def player_scores_rebuild(*, user_id: int) -> set[int]:
    """Count a player's games into the score tables afresh, and their daily results; return the
    days whose board changed (their first page is pushed once committed).

    For a moderator hiding or restoring a game: the tables only ever add games up, so taking
    one out means counting the rest again, in the order they ended, exactly as
    :func:`scores_record` would have. One read of the player's finished ranked games and one
    insert per table, whatever their number. A ban needs none of this: boards leave banned
    players out when read.
    """
    rows = (
        Game.objects.filter(owner_id=user_id, ranked=True)
        .exclude(status=Status.IN_PROGRESS)
        .order_by("finished_at", "id")
        .values(*_GAME_FIELDS)
    )
    attempts = {
        attempt.game_id: attempt
        for attempt in DailyAttempt.objects.filter(user_id=user_id).select_related("daily")
    }
    tables = Tables()
    day_results: dict[int, DayResult | None] = {}
    for row in rows:
        attempt = attempts.get(row["id"])
        if attempt is not None:
            day_results[attempt.id] = _day_result(row, attempt.daily.ends_at)
        elif not row["hidden"] and row["deal_source"] in Deals.values:
            tables.count(result_of(row))
    _tables_replace(user_id, tables)
    changed = _day_results_store(day_results)
    daily_boards_announce_on_commit(changed)
    return changed


def _tables_replace(user_id: int, tables: Tables) -> None:
    PlayerBest.objects.filter(user_id=user_id).delete()
    PlayerTally.objects.filter(user_id=user_id).delete()
    PlayerBest.objects.bulk_create(PlayerBest(**row) for row in best_rows(tables))
    PlayerTally.objects.bulk_create(PlayerTally(**row) for row in tally_rows(tables))


def _day_results_store(day_results: dict[int, DayResult | None]) -> set[int]:
    """Give each ranked attempt its result (none for a hidden game); return the days whose board
    changed."""
    changed: set[int] = set()
    stored = DailyAttempt.objects.filter(id__in=day_results).values_list(
        "id", "daily_id", "score", "duration_ms", "finished_at"
    )
    for attempt_id, daily_id, *result in stored:
        wanted = _day_fields(day_results[attempt_id])
        if result != list(wanted.values()):
            DailyAttempt.objects.filter(id=attempt_id).update(**wanted)
            changed.add(daily_id)
    return changed


def daily_board_announce(daily_id: int) -> None:
    """Push a day's board, first page, to everyone watching it (run once the result committed).

    Called in the move writer's database thread: the send goes out in the background, and the
    moves of the batch are answered without waiting for it.
    """
    daily = Daily.objects.get(id=daily_id)
    group_send_soon(
        daily.group_name, {"type": "board.update", "board": daily_board_snapshot(daily)}
    )


# Upserts in SQL that PostgreSQL and SQLite both speak (INSERT … ON CONFLICT … DO UPDATE): the ORM
# cannot say "keep the better of the two" or "add one" in a single statement.


def _table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _prepared(model: type[models.Model], name: str, value: object) -> Any:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field.get_db_prep_value(value, connection, prepared=False)


def _best_upsert(result: Result, keys: list[Key]) -> None:
    """Keep the game as the player's best where it beats the stored one (a higher score, or the
    same score in less time), as :func:`leaderboard.tables.better` decides."""
    table = _table(PlayerBest)
    values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s)"] * len(keys))
    sql = (
        f"INSERT INTO {table} (user_id, variant, deals, period, clean_only, game_id, score,"
        f" duration_ms, finished_at) VALUES {values}"
        " ON CONFLICT (user_id, variant, deals, period, clean_only) DO UPDATE SET"
        " game_id = excluded.game_id, score = excluded.score,"
        " duration_ms = excluded.duration_ms, finished_at = excluded.finished_at"
        f" WHERE excluded.score > {table}.score"
        f" OR (excluded.score = {table}.score AND excluded.duration_ms < {table}.duration_ms)"
    )
    params: list[Any] = []
    for key in keys:
        params += [
            result.user_id,
            *key,
            _prepared(PlayerBest, "game", result.game_id),
            result.score,
            result.duration_ms,
            _prepared(PlayerBest, "finished_at", result.finished_at),
        ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _tally_upsert(result: Result, keys: list[Key]) -> None:
    """Count the game: one more played, a win or not, the streak that goes on or breaks (as
    :meth:`leaderboard.tables.Tally.count` does)."""
    table = _table(PlayerTally)
    values = ", ".join(["(%s, %s, %s, %s, %s, 1, %s, %s, %s, %s, %s)"] * len(keys))
    longer = f"excluded.won = 1 AND {table}.current_streak + 1 > {table}.longest_streak"
    sql = (
        f"INSERT INTO {table} (user_id, variant, deals, period, clean_only, played, won, win_rate,"
        f" current_streak, longest_streak, longest_streak_at) VALUES {values}"
        " ON CONFLICT (user_id, variant, deals, period, clean_only) DO UPDATE SET"
        f" played = {table}.played + 1,"
        f" won = {table}.won + excluded.won,"
        f" win_rate = ({table}.won + excluded.won) * 1.0 / ({table}.played + 1),"
        f" current_streak = CASE WHEN excluded.won = 1 THEN {table}.current_streak + 1 ELSE 0 END,"
        f" longest_streak = CASE WHEN {longer} THEN {table}.current_streak + 1"
        f" ELSE {table}.longest_streak END,"
        f" longest_streak_at = CASE WHEN {longer} THEN excluded.longest_streak_at"
        f" ELSE {table}.longest_streak_at END"
    )
    won = 1 if result.won else 0
    reached = _prepared(PlayerTally, "longest_streak_at", result.finished_at if won else None)
    params: list[Any] = []
    for key in keys:
        params += [result.user_id, *key, won, float(won), won, won, reached]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
