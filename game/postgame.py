"""Par and post-game analysis: a queue kept by the database, worked off in a separate process.

The move that ends a game is acknowledged like any other. The game then waits for its analysis
in the database itself: **the queue is every finished game without a GameAnalysis row**, so
nothing is lost when a process stops, crashes or falls behind, and nothing is ever dropped.

Each event loop (one per web process; one per test) runs one :class:`AnalysisLoop`, started as
the web process starts serving (``tripeaks_site.background``), or else the first time a game ends
on it. The loop takes the newest waiting game, has the worker process
analyse it (the solver is pure Python and would hold the server's event loop; the worker runs at
the lowest priority), stores the result, pushes it to the game's watchers, and goes on until no
game is left; then it waits for a game to end on its loop (:func:`analysis_wake`) or polls every
:data:`POLL_SECONDS`, so a backlog left by a crash or by load drains by itself. One game at a time
per process is the backpressure: games that end faster than the worker keeps up wait, durably,
in the database.

**Newest first.** The player who has just finished is on the page, waiting for the analysis;
the players of older games have left, and will read theirs from their history. Under overload
the newest games are still served at once, and the backlog drains, oldest last, as load falls.

**Claims.** Two processes must not analyse one game at once. A process claims a game with a
lease (:class:`~game.models.AnalysisClaim`): a row made if missing (an insert that ignores a
conflict) and taken by a conditional update (``claimed_until`` passed, the game still without an
analysis), which the database serializes on the row, so exactly one of two processes wins. A
process that dies holding a claim frees it when the lease ends. It is portable (SQLite too) and
holds no transaction open while the solver runs, unlike ``SELECT ... FOR UPDATE SKIP LOCKED``.
The claim is deleted with the analysis stored.

**Failures.** An analysis that fails for another reason than the database being down (a bug, the
worker killed) counts a failure on the claim, and the game is tried again once the lease is over;
after :data:`MAX_FAILURES` it is given up and logged (``manage.py analyse_games --retry-failed``
puts such games back in the queue). A database outage counts nothing: the games wait, and an
analysis made meanwhile is kept, and stored as soon as the database answers.

**The floor.** Walking every finished game ever played to find the few without an analysis would
grow with the site. A loop looks only at games finished since its floor (an index on
``finished_at`` serves the walk): :data:`LOOKBACK` back when it starts, then the finish time of
the oldest game still waiting, or :data:`FLOOR_MARGIN` back when none is (a finish time is taken
before its commit, and processes' clocks differ a little). ``manage.py analyse_games`` catches
up on any older game (left when every process restarts with a backlog that old).

The loop's database work runs on a database thread of its own, never on the game's: a slow query
here never makes a game load or a move wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import uuid
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import timezone

from core.broadcast import group_send
from core.database import DatabaseThread
from core.groups import game_group
from core.outages import DatabaseUnavailable
from core.scheduled import schedule_start
from game import analysis_worker, events
from game.analysis_worker import Verdict
from game.models import AnalysisClaim, DealPar, Game, GameAnalysis, Move, Status
from game.selectors import analysis_before_reveal, reveal_due

logger = logging.getLogger(__name__)

POLL_SECONDS: Final = 5.0
"""How long an idle loop waits for a game to end on its own loop before it looks again."""
LEASE: Final = timedelta(minutes=2)
"""How long a claim holds a game: far longer than an analysis takes (a few seconds)."""
MAX_FAILURES: Final = 3
LOOKBACK: Final = timedelta(hours=6)
"""How far back a loop looks when it starts (older games: ``manage.py analyse_games``)."""
FLOOR_MARGIN: Final = timedelta(minutes=10)
CANDIDATES: Final = 10
"""Waiting games read at once, to claim the first that no other process takes meanwhile."""
ANALYSIS_DATABASE_TIMEOUT: Final = 30.0
"""Seconds the loop's database calls may take before the database is taken as down."""

_pool: ProcessPoolExecutor | None = None


def worker_pool() -> ProcessPoolExecutor:
    """The process that runs the solver, started on first use (spawned: no state is inherited).

    It exits by itself when this process is gone, even killed (``analysis_worker.worker_start``).
    """
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=analysis_worker.worker_start,
            initargs=(os.getpid(),),
        )
    return _pool


def shutdown() -> None:
    """Stop the worker process (tests and management commands call this when done)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None


def _pool_discard() -> None:
    """Forget a pool whose process died (killed, out of memory): the next analysis starts one."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """A claimed game: all the worker needs, and what its push needs."""

    game_id: uuid.UUID
    seed: str
    variant: str
    moves: list[str]
    abandoned: bool
    reveal_after: datetime | None
    known: Verdict | None

    def worker_args(self) -> tuple[str, str, list[str], bool, Verdict | None]:
        """The arguments of ``analysis_worker.analyse_finished`` for this game."""
        return self.seed, self.variant, self.moves, self.abandoned, self.known


def waiting_games(since: datetime | None = None) -> QuerySet[Game]:
    """The queue: finished games (since ``since``) without an analysis and not given up."""
    games = Game.objects.filter(finished_at__isnull=False, analysis__isnull=True).exclude(
        analysis_claim__failures__gte=MAX_FAILURES
    )
    return games if since is None else games.filter(finished_at__gte=since)


def claimable_games(now: datetime, since: datetime | None = None) -> QuerySet[Game]:
    """Waiting games that no process holds now, the newest first."""
    return (
        waiting_games(since).exclude(analysis_claim__claimed_until__gt=now).order_by("-finished_at")
    )


def analysis_claim(game_id: uuid.UUID, now: datetime) -> bool:
    """Claim a game for :data:`LEASE`; whether this caller got it (see the module's docstring)."""
    AnalysisClaim.objects.bulk_create(
        [AnalysisClaim(game_id=game_id, claimed_until=now)], ignore_conflicts=True
    )
    # Conditions on the claim's own row only (the analysis is looked up in a subquery): a join
    # would turn the update into "WHERE game_id IN (SELECT ...)", whose condition PostgreSQL does
    # not check again on a row that another process has just claimed.
    analysed = GameAnalysis.objects.filter(game_id=OuterRef("game_id"))
    taken = AnalysisClaim.objects.filter(
        ~Exists(analysed), game_id=game_id, claimed_until__lte=now, failures__lt=MAX_FAILURES
    ).update(claimed_until=now + LEASE)
    return taken == 1


def analysis_take(floor: datetime) -> tuple[AnalysisJob | None, datetime]:
    """Claim the newest claimable game finished since ``floor``; return it (None if there is
    none) and the floor to look from next time."""
    now = timezone.now()
    candidates = claimable_games(now, floor).values_list("id", flat=True)[:CANDIDATES]
    for game_id in list(candidates):
        if analysis_claim(game_id, now):
            return analysis_job(game_id), floor
    oldest = waiting_games(floor).order_by("finished_at").values_list("finished_at", flat=True)
    waiting_since = oldest.first()
    recent = now - FLOOR_MARGIN
    return None, recent if waiting_since is None else min(waiting_since, recent)


def analysis_job(game_id: uuid.UUID) -> AnalysisJob:
    """What the worker needs to analyse a game (its log as stored; its deal's verdict if known)."""
    game = Game.objects.get(id=game_id)
    moves = Move.objects.filter(game_id=game_id).order_by("seq").values_list("move", flat=True)
    return AnalysisJob(
        game_id=game.id,
        seed=game.seed,
        variant=game.variant,
        moves=list(moves),
        abandoned=game.status == Status.ABANDONED,
        reveal_after=game.reveal_after,
        known=known_verdict(game.seed, game.variant),
    )


def known_verdict(seed: str, variant: str) -> Verdict | None:
    """The stored verdict on a deal, if it was solved before."""
    row = (
        DealPar.objects.filter(seed=seed, variant=variant)
        .values("winnable", "par", "par_exact", "par_line")
        .first()
    )
    return dict(row) if row is not None else None


def analysis_store(
    game_id: uuid.UUID, seed: str, variant: str, verdict: Verdict, report: dict[str, Any]
) -> bool:
    """Keep a deal's verdict (once) and a game's analysis, which takes the game off the queue;
    then tell the other apps. False if the game is gone (deleted with its player's account).

    Three statements in one transaction, whatever was there before: under load a game ends every
    few dozen moves, and its bookkeeping runs in the web process beside them. A game deleted
    meanwhile fails the analysis' foreign key, which the database checks at the commit.
    """
    now = timezone.now()
    try:
        with transaction.atomic():
            DealPar.objects.bulk_create(
                [DealPar(seed=seed, variant=variant, **verdict, computed_at=now)],
                ignore_conflicts=True,  # a deal's first verdict stands
            )
            GameAnalysis.objects.bulk_create(
                [GameAnalysis(game_id=game_id, par=report["par"], report=report, computed_at=now)],
                update_conflicts=True,
                unique_fields=["game"],
                update_fields=["par", "report", "computed_at"],
            )
            AnalysisClaim.objects.filter(game_id=game_id).delete()
    except IntegrityError:
        if Game.objects.filter(id=game_id).exists():
            raise
        return False
    events.game_analysed(game_id)
    return True


def analysis_failed(game_id: uuid.UUID) -> int:
    """Count a failed analysis of a claimed game; return its failures so far."""
    AnalysisClaim.objects.filter(game_id=game_id).update(failures=F("failures") + 1)
    failures = AnalysisClaim.objects.filter(game_id=game_id).values_list("failures", flat=True)
    return failures.first() or 0


def analyse_here(game_id: uuid.UUID) -> dict[str, Any] | None:
    """Claim a game, analyse it in this process and store the result (``manage.py
    analyse_games``); None when another process holds it. A failure is counted, and raised."""
    if not analysis_claim(game_id, timezone.now()):
        return None
    job = analysis_job(game_id)
    try:
        verdict, report = analysis_worker.analyse_finished(*job.worker_args())
    except Exception:
        analysis_failed(game_id)
        raise
    analysis_store(job.game_id, job.seed, job.variant, verdict, report)
    return report


class AnalysisLoop:
    """One event loop's analysis: its database thread, its floor, and the task that works off the
    queue one game at a time (with the scheduled jobs of :mod:`core.scheduled`, started beside
    it)."""

    def __init__(self) -> None:
        self._database = DatabaseThread("analysis-db", timeout=ANALYSIS_DATABASE_TIMEOUT)
        self._wake = asyncio.Event()
        self._floor = timezone.now() - LOOKBACK
        # An analysis made while the database was down, kept until it is stored.
        self._unstored: tuple[AnalysisJob, tuple[Verdict, dict[str, Any]]] | None = None
        self._tasks = [asyncio.create_task(self._run(), name="analysis-loop"), *schedule_start()]

    def wake(self) -> None:
        """Look for waiting games now (a game has just ended on this loop)."""
        self._wake.set()

    async def _run(self) -> None:
        # Python 3.11's wait_for (the database thread's) returns a call's result when the call
        # ends as the task is cancelled, and the cancellation is lost: the loop checks for it.
        task = asyncio.current_task()
        assert task is not None
        while not task.cancelling():
            self._wake.clear()
            try:
                busy = await self.step()
            except DatabaseUnavailable:  # logged once per outage; the games wait in the database
                busy = False
            except Exception:
                logger.exception("The analysis loop failed; it goes on")
                busy = False
            if not busy and not task.cancelling():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)

    async def step(self) -> bool:
        """Analyse the newest waiting game, if there is one, store the analysis and push it;
        return whether there was one."""
        if self._unstored is None:
            job, self._floor = await self._database.run(analysis_take, self._floor)
            if job is None:
                return False
            try:
                self._unstored = job, await self._analyse(job)
            except Exception:
                await self._failed(job)
                return True
        job, (verdict, report) = self._unstored
        try:
            stored = await self._database.run(
                analysis_store, job.game_id, job.seed, job.variant, verdict, report
            )
        except DatabaseUnavailable:
            raise  # kept, and stored at the next step: the game stays claimed meanwhile
        except Exception:
            self._unstored = None
            await self._failed(job)
            return True
        self._unstored = None
        if not stored:
            return True
        if not reveal_due(job.reveal_after):
            report = analysis_before_reveal(report, own=True)  # only the player watches a game
        await group_send(
            game_group(job.game_id),
            {"type": "game.analysis", "game": str(job.game_id), "analysis": report},
        )
        return True

    async def _analyse(self, job: AnalysisJob) -> tuple[Verdict, dict[str, Any]]:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                worker_pool(), analysis_worker.analyse_finished, *job.worker_args()
            )
        except BrokenProcessPool:
            _pool_discard()
            raise

    async def _failed(self, job: AnalysisJob) -> None:
        """Log a failed analysis and count it (the game is tried again once its lease is over)."""
        logger.exception("The analysis of game %s failed", job.game_id)
        failures = await self._database.run(analysis_failed, job.game_id)
        if failures >= MAX_FAILURES:
            logger.error("Game %s given up after %d failed analyses", job.game_id, failures)

    def close(self) -> None:
        """Stop the tasks (if their event loop still runs them) and close the database thread."""
        for task in self._tasks:
            if not task.done() and not task.get_loop().is_closed():
                task.cancel()
        self._database.close()


_loops: dict[asyncio.AbstractEventLoop, AnalysisLoop] = {}


def analysis_loop() -> AnalysisLoop:
    """The running event loop's analysis loop, started on first use."""
    loop = asyncio.get_running_loop()
    analysis = _loops.get(loop)
    if analysis is None:
        analysis = _loops[loop] = AnalysisLoop()
    return analysis


def analysis_wake() -> None:
    """A game has just ended (committed) on this event loop: have its analysis made."""
    analysis_loop().wake()


def close_all() -> None:
    """Stop every event loop's analysis loop (tests call this after each test)."""
    loops = list(_loops.values())
    _loops.clear()
    for analysis in loops:
        analysis.close()
