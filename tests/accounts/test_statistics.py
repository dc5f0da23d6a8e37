"""A player's statistics, computed from their stored games, checked against figures by hand."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from accounts.selectors import PlayerStatistics, player_statistics, win_streaks
from game.models import Status
from tests.accounts.helpers import make_player, record_game

pytestmark = pytest.mark.django_db

W, L, A = Status.WON, Status.LOST, Status.ABANDONED

# Results in the order the games ended: status, score, length in seconds. Game 8 started before
# game 7 but ended after it, so only the order of ending gives a current streak of 1.
RESULTS = [
    (W, 500, 300),
    (W, 400, 200),
    (L, 150, 120),
    (W, 600, 250),
    (W, 350, 100),
    (W, 450, 150),
    (A, 90, 60),
    (W, 700, 400),
]
UNRANKED = {2, 8}
"""Games 2 and 8 were played on a deal seen before: they count in the figures all the same."""


@pytest.fixture
def ada() -> User:
    """Ada's eight finished games, one in play, and another player's games beside them."""
    ada = make_player("ada")
    other = make_player("bea", email="")
    start = timezone.now() - timedelta(days=1)
    for minute, (status, score, seconds) in enumerate(RESULTS, start=1):
        record_game(
            ada,
            status=status,
            score=score,
            finished_at=start + timedelta(minutes=minute),
            duration_ms=seconds * 1000,
            ranked=minute not in UNRANKED,
        )
    record_game(ada, status=Status.IN_PROGRESS, score=80, finished_at=None)
    record_game(other, status=W, score=990, finished_at=start, duration_ms=10_000)
    record_game(other, status=L, score=5, finished_at=timezone.now(), duration_ms=10_000)
    return ada


def test_the_figures_match_a_hand_count(ada: User) -> None:
    """8 played, 6 won (75%), best 700, average 3240 / 8 = 405, streaks 1 and 3 (games 4-6),
    and a win takes (300 + 200 + 250 + 100 + 150 + 400) / 6 = 233.33 s on average."""
    assert player_statistics(ada) == PlayerStatistics(
        games_played=8,
        games_won=6,
        games_unranked=2,
        win_rate=0.75,
        best_score=700,
        average_score=405.0,
        current_win_streak=1,
        longest_win_streak=3,
        average_win_ms=233_333,
        daily_streak=0,
    )


def test_the_figures_take_three_queries_however_many_games(
    ada: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    """Totals, the results in order, and the days of the daily challenge attempts."""
    with django_assert_num_queries(3):
        player_statistics(ada)


def test_a_newcomer_has_nothing_to_average() -> None:
    assert player_statistics(make_player("cleo")) == PlayerStatistics(
        games_played=0,
        games_won=0,
        games_unranked=0,
        win_rate=None,
        best_score=None,
        average_score=None,
        current_win_streak=0,
        longest_win_streak=0,
        average_win_ms=None,
        daily_streak=0,
    )


def test_losses_only_make_no_win_time(db: None) -> None:
    dora = make_player("dora")
    record_game(dora, status=L, score=40, finished_at=timezone.now(), duration_ms=5000)
    statistics = player_statistics(dora)
    assert (statistics.win_rate, statistics.average_win_ms) == (0.0, None)


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        ([], (0, 0)),
        ([W], (1, 1)),
        ([L, A], (0, 0)),
        ([W, W, L], (0, 2)),
        ([W, L, W, W], (2, 2)),
        ([W, W, W, A, W], (1, 3)),
    ],
)
def test_win_streaks(statuses: list[str], expected: tuple[int, int]) -> None:
    assert win_streaks(statuses) == expected


def test_the_profile_shows_the_figures(ada: User) -> None:
    client = Client()
    client.force_login(ada)
    html = client.get("/accounts/profile/").content.decode()
    for label, value in [
        ("Games played", "8"),
        ("Games won", "6"),
        ("Unranked games", "2"),
        ("Win rate", "75%"),
        ("Best score", "700"),
        ("Average score", "405"),
        ("Current win streak", "1"),
        ("Longest win streak", "3"),
        ("Average time of a win", "3:53"),
    ]:
        assert f"<dt>{label}</dt><dd>{value}</dd>" in html
    assert html.count('aria-label="Replay of the game started') == 8
    assert html.count('aria-label="Continue the game started') == 1
    assert html.count('class="games-table__unranked">Unranked: a deal seen before</td>') == 2
    assert html.count("<td>Leaderboards</td>") == 7  # the six ranked ones, and the one in play


def test_a_public_profile_shows_figures_and_finished_games_only(ada: User) -> None:
    """Anyone may see a player's record and replays; their game in play is not listed."""
    html = Client().get("/players/ada/").content.decode()
    assert "<dt>Win rate</dt><dd>75%</dd>" in html
    assert html.count(">Replay</a>") == 8
    assert ">Continue</a>" not in html
    assert "Your profile" not in html


def test_an_unknown_or_inactive_player_has_no_profile(ada: User) -> None:
    assert Client().get("/players/nobody/").status_code == 404
    User.objects.filter(pk=ada.pk).update(is_active=False)
    assert Client().get("/players/ada/").status_code == 404
