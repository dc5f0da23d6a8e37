"""The profile's graphs: figures read from the stored games, drawn as SVG with a table behind."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.charts import day_words
from accounts.history import daily_chart, par_chart, score_chart, win_rate_chart
from game.models import DealSource, Game, GameAnalysis, Mode, Status
from leaderboard.models import Daily, DailyAttempt
from tests.accounts.helpers import make_player, record_game, signed_in

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 3)  # a Thursday
NOW = datetime(2026, 12, 3, 15, tzinfo=UTC)


def at(day: date, hour: int = 12) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


def test_scores_are_the_last_games_oldest_first_with_the_tallest_bar_the_best() -> None:
    ada = make_player()
    for day, (status, score) in enumerate([(Status.WON, 500), (Status.LOST, 120)], start=1):
        record_game(
            ada, status=status, score=score, finished_at=at(date(2026, 11, day)), duration_ms=60_000
        )
    record_game(ada, status=Status.IN_PROGRESS, score=999, finished_at=None)

    chart = score_chart(ada)

    assert chart.rows == (("1 Nov 2026", "Won", "500"), ("2 Nov 2026", "Lost", "120"))
    assert [bar.tone for bar in chart.bars] == ["won", "lost"]  # abandoned games too are "lost"
    assert chart.bars[0].height == chart.height  # the best score reaches the top
    assert chart.bars[1].height == pytest.approx(chart.height * 120 / 500)
    assert chart.summary == "2 games, 1 won, best 500."


def test_win_rate_is_counted_per_monday_to_sunday_week() -> None:
    ada = make_player()
    this_week, last_week = date(2026, 11, 30), date(2026, 11, 23)
    for day, status in [
        (this_week, Status.WON),
        (this_week + timedelta(days=2), Status.LOST),
        (last_week + timedelta(days=6), Status.WON),  # Sunday: still last week
        (date(2026, 1, 5), Status.WON),  # outside the twelve weeks
    ]:
        record_game(ada, status=status, score=10, finished_at=at(day), duration_ms=60_000)

    chart = win_rate_chart(ada, TODAY)

    assert chart.rows == (("23 Nov 2026", "1", "1", "100%"), ("30 Nov 2026", "2", "1", "50%"))
    assert len(chart.bars) == 12
    assert chart.bars[-1].height == pytest.approx(chart.height / 2)
    assert chart.bars[-2].height == chart.height
    assert all(bar.height == 0 for bar in chart.bars[:-2])


def test_share_of_par_leaves_out_a_daily_game_whose_day_is_not_over() -> None:
    ada = make_player()
    casual = record_game(
        ada, status=Status.WON, score=300, finished_at=at(date(2026, 12, 1)), duration_ms=60_000
    )
    daily = record_game(
        ada, status=Status.LOST, score=200, finished_at=at(TODAY, 9), duration_ms=60_000
    )
    Game.objects.filter(id=daily.id).update(
        mode=Mode.DAILY, deal_source=DealSource.DAILY, reveal_after=at(TODAY + timedelta(days=1), 0)
    )
    for game, par in [(casual, 400), (daily, 250)]:
        GameAnalysis.objects.create(game=game, par=par, report={}, computed_at=NOW)

    chart = par_chart(ada, NOW)

    assert chart.rows == (("1 Dec 2026", "300", "400", "75%"),)
    assert chart.bars[0].height == pytest.approx(chart.height * 0.75)


def test_the_calendar_marks_each_daily_attempt_by_its_result() -> None:
    ada = make_player()
    for offset, status, score in [(2, Status.WON, 812), (1, Status.LOST, 40)]:
        day = TODAY - timedelta(days=offset)
        daily = Daily.objects.create(
            date=day, seed=f"d{offset}", commitment="0" * 64, created_at=NOW
        )
        game = record_game(ada, status=status, score=score, finished_at=at(day), duration_ms=60_000)
        DailyAttempt.objects.create(
            daily=daily,
            user=ada,
            game=game,
            created_at=at(day, 11),
            score=score,
            duration_ms=1000,
            finished_at=at(day),
        )

    chart = daily_chart(ada, TODAY)

    assert chart.rows == (("1 Dec 2026", "won, 812"), ("2 Dec 2026", "not won, 40"))
    tones = {bar.title.split(":")[0]: bar.tone for bar in chart.bars}
    assert tones["1 Dec 2026"] == "won"
    assert tones["2 Dec 2026"] == "played"
    assert tones["3 Dec 2026"] == "none"
    assert len(chart.bars) == 11 * 7 + 4  # eleven whole weeks, then Monday to Thursday


def test_the_profile_draws_each_graph_with_its_table(client: Client) -> None:
    ada = make_player()
    yesterday = timezone.now() - timedelta(days=1)
    record_game(ada, status=Status.WON, score=640, finished_at=yesterday, duration_ms=60_000)
    title = f"{day_words(yesterday.date())}: Won, 640"

    for page in (signed_in(ada).get("/accounts/profile/"), client.get("/players/ada/")):
        html = page.content.decode()
        assert html.count('role="img"') == 2  # scores and win rate; nothing analysed or daily
        assert re.search(rf'<rect class="chart__mark chart__mark--won"[^>]*><title>{title}', html)
        assert "<td>640</td>" in html
        assert "No analysed games yet." in html
        assert "No daily challenge in these weeks." in html
