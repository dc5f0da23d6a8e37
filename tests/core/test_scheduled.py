"""Scheduled work: each job runs at once, then at its interval, whatever a run does; and a web
process's analysis loop starts them, so the coming days' challenges are made without a command."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from core import scheduled
from game import postgame
from leaderboard.models import Daily
from leaderboard.selectors import utc_today

PREPARED_WITHIN = 180.0
"""Seconds to solve three days' deals (winnability and par) on a busy machine."""


@pytest.mark.asyncio
async def test_a_job_runs_at_once_then_at_its_interval_even_after_a_failure() -> None:
    runs: list[int] = []

    def job() -> None:
        runs.append(len(runs))
        if len(runs) == 2:
            raise RuntimeError("a run that fails")

    task = asyncio.create_task(scheduled.run_every(scheduled.Job("test", 0.05, job)))
    try:
        async with asyncio.timeout(10):
            while len(runs) < 4:
                await asyncio.sleep(0.01)
    finally:
        task.cancel()
    assert runs[:4] == [0, 1, 2, 3]


@pytest.mark.asyncio
async def test_no_job_starts_while_scheduled_work_is_off(settings) -> None:
    settings.SCHEDULED_WORK = False
    assert scheduled.schedule_start() == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_analysis_loop_makes_the_coming_days_challenges(settings) -> None:
    """A web process (here: this test's event loop) with scheduled work on makes today's and the
    next two days' challenges, with their par, as soon as its analysis loop starts."""
    settings.SCHEDULED_WORK = True
    postgame.analysis_loop()
    prepared = database_sync_to_async(
        lambda: list(Daily.objects.filter(par__isnull=False).values_list("date", flat=True))
    )
    async with asyncio.timeout(PREPARED_WITHIN):
        while len(await prepared()) < 3:
            await asyncio.sleep(0.2)
    today = utc_today()
    assert sorted(await prepared()) == [today + timedelta(days=n) for n in range(3)]
