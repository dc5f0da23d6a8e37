"""Rebuilding a player's score tables from their games gives exactly what recording the games
one by one gave; hidden games count nowhere, in either."""

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from game.models import DealSource, Game, Mode, Status
from leaderboard import challenge, scores
from leaderboard.models import Daily, DailyAttempt, PlayerBest, PlayerTally
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, finished_game, ranked_result

pytestmark = pytest.mark.django_db


def tables(user: User) -> dict[str, Any]:
    fields = ("period", "clean_only")
    return {
        "best": sorted(
            PlayerBest.objects.filter(user=user).values(
                *fields, "game_id", "score", "duration_ms", "finished_at"
            ),
            key=lambda row: (row["period"], row["clean_only"]),
        ),
        "tally": sorted(
            PlayerTally.objects.filter(user=user).values(
                *fields,
                "played",
                "won",
                "win_rate",
                "current_streak",
                "longest_streak",
                "longest_streak_at",
            ),
            key=lambda row: (row["period"], row["clean_only"]),
        ),
        "days": sorted(
            DailyAttempt.objects.filter(user=user).values_list(
                "daily_id", "score", "duration_ms", "finished_at"
            )
        ),
    }


@pytest.fixture
def daily(clock: Clock) -> Daily:
    clock.set(at(DAY, 6))
    return challenge.daily_for(DAY)


def test_a_rebuild_gives_what_recording_game_by_game_gave(players: Any, daily: Daily) -> None:
    ada, bob = players(2)
    rng = random.Random(6)
    # Games are recorded as they end, so in the order of their ends (one player's two games
    # never end in the same microsecond).
    ends = sorted(
        at(DAY - timedelta(days=rng.randrange(20)), rng.randrange(24), second=i) for i in range(60)
    )
    for end in ends:
        finished_game(
            ada,
            score=rng.choice([100, 400, 400, 900, 1500]),
            duration_ms=rng.choice([30_000, 60_000, 60_000]),
            status=rng.choice([Status.WON, Status.WON, Status.LOST, Status.ABANDONED]),
            assisted=rng.random() < 0.3,
            finished_at=end,
        )
    ranked_result(daily, ada, score=2000, duration_ms=50_000, finished_at=at(DAY, 10))
    finished_game(  # an unranked replay of the day's deal: counts nowhere
        ada,
        score=3000,
        mode=Mode.DAILY,
        deal_source=DealSource.REPLAY,
        reveal_after=daily.ends_at,
        finished_at=at(DAY, 11),
    )
    finished_game(bob, score=700, finished_at=at(DAY, 9))
    recorded, bobs = tables(ada), tables(bob)

    assert scores.player_scores_rebuild(user_id=ada.pk) == set()

    assert tables(ada) == recorded
    assert tables(bob) == bobs


def test_hidden_games_are_not_recorded(players: Any, daily: Daily) -> None:
    (ada,) = players(1)
    game = Game.objects.create(
        seed="s", owner=ada, status=Status.WON, score=900, cards_left=0,
        started_at=at(DAY, 8), finished_at=at(DAY, 9), duration_ms=3_600_000, hidden=True,
    )  # fmt: skip
    scores.scores_record([game.id])
    assert not PlayerBest.objects.filter(user=ada).exists()
    assert not PlayerTally.objects.filter(user=ada).exists()


def test_a_rebuild_takes_a_hidden_daily_attempt_off_the_day_and_puts_it_back(
    players: Any, daily: Daily
) -> None:
    ada, bob = players(2)
    attempt = ranked_result(daily, ada, score=2000, duration_ms=50_000, finished_at=at(DAY, 10))
    ranked_result(daily, bob, score=1000, duration_ms=50_000, finished_at=at(DAY, 10))
    Game.objects.filter(id=attempt.game_id).update(hidden=True)

    assert scores.player_scores_rebuild(user_id=ada.pk) == {daily.id}

    attempt.refresh_from_db()
    assert (attempt.score, attempt.duration_ms, attempt.finished_at) == (None, None, None)
    assert not PlayerBest.objects.filter(user=ada).exists()
    Game.objects.filter(id=attempt.game_id).update(hidden=False)
    assert scores.player_scores_rebuild(user_id=ada.pk) == {daily.id}
    attempt.refresh_from_db()
    assert (attempt.score, attempt.finished_at) == (2000, at(DAY, 10))
    assert scores.player_scores_rebuild(user_id=ada.pk) == set()  # nothing changed this time
