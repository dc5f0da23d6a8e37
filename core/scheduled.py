"""Scheduled work: jobs that every web process runs by itself, at start and then at an interval.

No cron, no extra service: each web process starts the jobs with its analysis loop
(:mod:`game.postgame`), and so does ``make run``'s single process. The apps register their jobs
(:func:`on_schedule`, from their ``AppConfig.ready``). Every job must be safe when several
processes run it at once (``docs/operations.md`` lists the jobs and why each is). A job runs in
a thread of the event loop's default executor with a database connection of its own: never on
the event loop, nor on the game's database threads, so a slow job holds up no move and no game
load.

``SCHEDULED_WORK = False`` in the settings keeps a process from starting them (the test suite
does: its tests start their own).
"""

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from channels.db import database_sync_to_async
from django.conf import settings

from core.outages import DATABASE, database_unavailable

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    """A function to run now and then every ``every`` seconds (counted from the end of a run)."""

    name: str
    every: float
    run: Callable[[], object]


JOBS: Final[list[Job]] = []
"""Every job registered, in the order registered."""


def on_schedule(job: Job) -> Job:
    """Run ``job`` in every web process, at start and then every ``job.every`` seconds."""
    if job.name not in {known.name for known in JOBS}:
        JOBS.append(job)
    return job


def scheduled_work_on() -> bool:
    """Whether this process runs the scheduled jobs (on unless the settings turn it off)."""
    return bool(settings.SCHEDULED_WORK)


def schedule_start() -> list[asyncio.Task[None]]:
    """Start every job on the running event loop, unless scheduled work is off."""
    if not scheduled_work_on():
        return []
    return [asyncio.create_task(run_every(job), name=f"scheduled-{job.name}") for job in JOBS]


async def run_every(job: Job) -> None:
    """Run ``job`` now, then again ``job.every`` seconds after each run ends, until cancelled.

    A run that fails is logged (the database being down, once per outage) and the schedule goes
    on: the next run is the retry.
    """
    while True:
        try:
            await database_sync_to_async(job.run, thread_sensitive=False)()
        except Exception as error:
            if database_unavailable(error):
                DATABASE.failed(error)
            else:
                logger.exception("The scheduled job %s failed", job.name)
        await asyncio.sleep(job.every)
