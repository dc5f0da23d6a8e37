"""The migrations that made games know whether they rank, and split the boards by variant and
deal pool: existing games get the right flag, and the score tables are rebuilt from the games."""

import io
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps

from game.engine import Deal, GameState, Move, Variant
from game.engine.solver import find_par
from game.models import Game
from leaderboard import scores
from leaderboard.models import DailyAttempt, PlayerBest, PlayerTally
from tests.leaderboard.helpers import DAY, at

BEFORE = [("game", "0004_live_games_index"), ("leaderboard", "0002_inactive_players_index")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def old_apps() -> Iterator[StateApps]:
    """The models as they were before the migrations; the database is migrated to the end again
    afterwards, whatever the test did."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    yield executor.loader.project_state(BEFORE).apps
    migrate_forward()


def migrate_forward() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def old_game(
    apps: StateApps,
    owner: Any,
    seed: str,
    hour: int,
    *,
    line: list[str] | None = None,
    variant: str = "tripeaks",
    **fields: Any,
) -> Any:
    """A game played to its end (along ``line``, else the first legal move each time) and stored
    as the old schema stored it, move log included."""
    state = GameState(Deal.from_seed(seed), Variant(variant))
    while not state.status.is_over:
        state.apply(Move.parse(line[state.seq]) if line else state.legal_moves()[0])
    finished_at = at(DAY, hour)
    game = apps.get_model("game", "Game").objects.create(
        seed=seed, variant=variant, owner_id=owner.pk,
        status=state.status.value, score=state.score, cards_left=state.cards_left,
        move_count=state.seq, started_at=finished_at - timedelta(minutes=5),
        last_move_at=finished_at, finished_at=finished_at, duration_ms=300_000,
        **fields,
    )  # fmt: skip
    moves = apps.get_model("game", "Move")
    moves.objects.bulk_create(
        moves(game_id=game.id, seq=i, move=move.text, played_at=finished_at)
        for i, move in enumerate(state.moves)
    )
    return game


def par_line(seed: str) -> list[str]:
    return [move.text for move in find_par(Deal.from_seed(seed), Variant.TRIPEAKS).line]


def test_old_games_get_their_flags_and_the_tables_are_rebuilt_from_them(
    old_apps: StateApps,
) -> None:
    users = old_apps.get_model("auth", "User")
    ada = users.objects.create(username="ada")
    bob = users.objects.create(username="bob")
    fresh = old_game(old_apps, ada, "s-fresh", 9)
    again = old_game(old_apps, ada, "s-fresh", 10, line=par_line("s-fresh"))  # "play again"
    shared = old_game(old_apps, bob, "s-fresh", 11, line=par_line("s-fresh"))  # ada's, shared
    nowrap = old_game(old_apps, bob, "s-nowrap", 9, variant="tripeaks-nowrap")
    race = old_game(old_apps, bob, "s-race", 10, mode="race", line=par_line("s-race"))
    daily = old_apps.get_model("leaderboard", "Daily").objects.create(
        date=DAY, seed="s-day", commitment="c", created_at=at(DAY, 0)
    )
    attempts = old_apps.get_model("leaderboard", "DailyAttempt")
    attempt_game = old_game(old_apps, bob, "s-day", 12, mode="daily")
    attempts.objects.create(
        daily=daily, user_id=bob.pk, game_id=attempt_game.id, created_at=at(DAY, 11, 55),
        score=attempt_game.score, duration_ms=300_000, finished_at=at(DAY, 12),
    )  # fmt: skip
    late_game, at_midnight = late_attempt(old_apps, ada, daily)
    daily_replay = old_game(old_apps, bob, "s-day", 13, mode="daily", line=par_line("s-day"))
    old_apps.get_model("leaderboard", "PlayerBest").objects.create(  # the old table: mixed up
        user_id=ada.pk, period="all", clean_only=False, game_id=again.id, score=again.score,
        duration_ms=300_000, finished_at=at(DAY, 10),
    )  # fmt: skip
    assert again.score > fresh.score

    migrate_forward()

    flags = {game.id: (game.deal_source, game.ranked) for game in Game.objects.all()}
    assert flags == {
        fresh.id: ("random", True),
        again.id: ("replay", False),
        shared.id: ("replay", False),
        nowrap.id: ("random", True),
        race.id: ("race", False),
        attempt_game.id: ("daily", True),
        late_game.id: ("daily", True),
        daily_replay.id: ("replay", False),
    }
    best = {
        (row.user_id, row.variant, row.period, row.clean_only): row.game_id
        for row in PlayerBest.objects.all()
    }
    assert best[(ada.pk, "tripeaks", "all", False)] == fresh.id
    assert best[(bob.pk, "tripeaks-nowrap", "all", True)] == nowrap.id
    assert set(best.values()) == {fresh.id, nowrap.id}
    assert PlayerTally.objects.get(user_id=ada.pk, period="all", clean_only=False).played == 1
    assert DailyAttempt.objects.get(game_id=attempt_game.id).score == attempt_game.score
    late = DailyAttempt.objects.get(game_id=late_game.id)  # it counted nowhere: now at midnight
    assert (late.score, late.finished_at) == (at_midnight, at(DAY + timedelta(days=1), 0))
    out = io.StringIO()
    call_command("boards_verify", stdout=out)  # raises on any difference
    assert out.getvalue().startswith(
        "OK 4 games replayed, 16 score-table rows and 2 daily attempts"
    )
    rebuilt = tables()
    for user in (ada, bob):
        scores.player_scores_rebuild(user_id=user.pk)
    assert tables() == rebuilt


def tables() -> tuple[list[Any], list[Any]]:
    fields = ("user_id", "variant", "deals", "period", "clean_only")
    return (
        sorted(PlayerBest.objects.values_list(*fields, "game_id", "score")),
        sorted(PlayerTally.objects.values_list(*fields, "played", "won", "longest_streak")),
    )


def late_attempt(apps: StateApps, owner: Any, daily: Any) -> tuple[Any, int]:
    """A ranked attempt whose first three moves came before midnight and the rest after, as the
    old schema left it (no result: it counted nowhere); and its score at midnight."""
    state = GameState(Deal.from_seed(daily.seed), Variant.TRIPEAKS)
    times = []
    while not state.status.is_over:
        state.apply(state.legal_moves()[0])
        times.append(at(DAY, 23, 58) if state.seq <= 3 else at(DAY + timedelta(days=1), 0, 2))
    midnight = GameState.replay(state.deal, state.variant, state.moves[:3]).score
    game = apps.get_model("game", "Game").objects.create(
        seed=daily.seed, variant="tripeaks", owner_id=owner.pk, mode="daily",
        status=state.status.value, score=state.score, cards_left=state.cards_left,
        move_count=state.seq, started_at=at(DAY, 23, 50), last_move_at=times[-1],
        finished_at=times[-1], duration_ms=720_000, reveal_after=at(DAY + timedelta(days=1), 0),
    )  # fmt: skip
    apps.get_model("game", "Move").objects.bulk_create(
        apps.get_model("game", "Move")(game_id=game.id, seq=i, move=move.text, played_at=moment)
        for i, (move, moment) in enumerate(zip(state.moves, times, strict=True))
    )
    apps.get_model("leaderboard", "DailyAttempt").objects.create(
        daily=daily, user_id=owner.pk, game_id=game.id, created_at=at(DAY, 23, 50)
    )
    return game, midnight
