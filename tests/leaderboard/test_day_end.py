"""A ranked daily attempt still in play when its day ends is closed as it stood at midnight: given
up, ranked with the points it had then. ``manage.py daily_prepare`` closes it, and so does reading
the day's board; the moves its player made after midnight count nowhere."""

import io
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from game.models import Game, Status
from leaderboard import challenge
from leaderboard.boards import DailyBoard, board_page
from leaderboard.challenge import daily_attempts_close
from leaderboard.models import Daily, DailyAttempt
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, play_out

pytestmark = pytest.mark.django_db

NEXT_DAY = DAY + timedelta(days=1)
MIDNIGHT = at(NEXT_DAY, 0)


@pytest.fixture
def daily(clock: Clock) -> Daily:
    clock.set(at(DAY, 6))
    return challenge.daily_for(DAY)


def attempt_in_play(clock: Clock, user: User, *, moves: int) -> tuple[Game, int]:
    """Start the user's attempt at 23:50 and make ``moves`` moves at 23:55; return the game and
    its score then."""
    clock.set(at(DAY, 23, 50))
    game = challenge.daily_attempt_start(user=user, day=DAY)
    state = play_out(game, finished_at=at(DAY, 23, 55), moves=moves)
    return game, state.score


def prepare() -> str:
    out = io.StringIO()
    call_command("daily_prepare", "--days", "0", stdout=out)
    return out.getvalue()


def test_daily_prepare_closes_an_attempt_left_in_play_as_it_stood_at_midnight(
    clock: Clock, daily: Daily, ada: User
) -> None:
    game, score = attempt_in_play(clock, ada, moves=4)
    clock.set(at(NEXT_DAY, 3))

    first, again = prepare(), prepare()

    game.refresh_from_db()
    attempt = DailyAttempt.objects.get(game=game)
    assert first.startswith("closed 1 ranked attempt\n")
    assert again.startswith("closed 0 ranked attempts\n")
    assert (game.status, game.score, game.finished_at) == (Status.ABANDONED, score, MIDNIGHT)
    assert game.duration_ms == 10 * 60 * 1000
    assert (attempt.score, attempt.duration_ms, attempt.finished_at) == (
        score, 10 * 60 * 1000, MIDNIGHT,
    )  # fmt: skip
    assert [(row.player, row.score) for row in board_page(DailyBoard(daily.id)).rows] == [
        ("ada", score)
    ]


def test_moves_made_after_midnight_do_not_count(clock: Clock, daily: Daily, ada: User) -> None:
    """Ada went on playing at 00:10 on a deal by then public: the game is given up when it is
    closed, but ranks as it stood at midnight."""
    game, score = attempt_in_play(clock, ada, moves=3)
    clock.set(at(NEXT_DAY, 0, 10))
    later = play_out(game, finished_at=at(NEXT_DAY, 0, 10), moves=8)
    assert later.score > score
    clock.set(at(NEXT_DAY, 0, 20))

    assert daily_attempts_close() == [game.id]

    game.refresh_from_db()
    attempt = DailyAttempt.objects.get(game=game)
    assert (game.status, game.score, game.finished_at) == (
        Status.ABANDONED, later.score, at(NEXT_DAY, 0, 20),
    )  # fmt: skip
    assert (attempt.score, attempt.finished_at) == (score, MIDNIGHT)


def test_reading_the_day_s_board_closes_it(
    clock: Clock, daily: Daily, ada: User, client: Client
) -> None:
    game, score = attempt_in_play(clock, ada, moves=2)
    clock.set(at(NEXT_DAY, 9))

    html = client.get(f"/daily/{DAY}/").content.decode()

    assert Game.objects.get(id=game.id).status == Status.ABANDONED
    assert re.search(rf">ada</a>.*?<td>{score}</td>", html, re.DOTALL)
    assert "closed as it stood then" in html


def test_attempts_of_today_stay_in_play(clock: Clock, daily: Daily, ada: User) -> None:
    game, _ = attempt_in_play(clock, ada, moves=2)
    clock.set(at(DAY, 23, 59))
    assert daily_attempts_close() == []
    assert "closed 0" in prepare()
    assert Game.objects.get(id=game.id).status == Status.IN_PROGRESS
    assert DailyAttempt.objects.get(game=game).score is None


def test_the_daily_page_says_what_happens_at_midnight(
    clock: Clock, daily: Daily, ada_client: Client
) -> None:
    clock.set(at(DAY, 8))
    before = ada_client.get("/daily/").content.decode()
    ada_client.post("/daily/start")
    during = ada_client.get("/daily/").content.decode()
    for html in (before, during):
        assert "closed as it stands" in html
        assert "points it had at midnight" in html
