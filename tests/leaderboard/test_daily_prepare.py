"""``daily_prepare``: the coming days' challenges made ahead, with their par; safe to run in
several processes at once (every web process runs it by itself, core.scheduled)."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection

from leaderboard.challenge import days_prepare
from leaderboard.models import Daily
from leaderboard.selectors import utc_today
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_command_makes_today_and_the_next_days_with_par() -> None:
    output = io.StringIO()
    call_command("daily_prepare", days=1, stdout=output)
    today = utc_today()
    days = list(Daily.objects.order_by("date"))
    assert [daily.date for daily in days] == [today, today + timedelta(days=1)]
    assert all(daily.par is not None for daily in days)
    assert output.getvalue().splitlines() == [
        "closed 0 ranked attempts",
        *(f"{daily.date}: par {daily.par}, commitment {daily.commitment}" for daily in days),
    ]


def test_two_processes_preparing_at_once_make_each_day_once() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite runs one writer at a time")
    prepared = at_once(lambda _: days_prepare(days=0).days, range(2))
    [today] = Daily.objects.all()
    assert [[(daily.id, daily.par) for daily in days] for days in prepared] == [
        [(today.id, today.par)]
    ] * 2
