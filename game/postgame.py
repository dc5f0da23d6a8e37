"""Par and post-game analysis: a queue kept by the database, worked off in a separate process.

The move that ends a game is acknowledged like any other. The game then waits for its analysis
in the database itself: **the queue is every finished game without a GameAnalysis row**, so
nothing is lost when a process stops, crashes or falls behind, and nothing is ever dropped.

Each event loop (one per web process; one per test) runs one :class:`AnalysisLoop`, started as
the web process starts serving (``tripeaks_site.background``), or else the first time a game ends
on it. The loop claims the newest waiting games (up to :data:`BATCH`: one, unless games end
faster than the worker keeps up), has the worker process analyse them one after the other (the
solver is pure Python and would hold the server's event loop; the worker runs at the lowest
priority), stores the results together, pushes them to the games' watchers, and goes on until no
game is left; then it waits for a game to end on its loop (:func:`analysis_wake`) or polls every
:data:`POLL_SECONDS`, so a backlog left by a crash or by load drains by itself. One worker per
process is the backpressure: games that end faster than it keeps up wait, durably, in the
database.

**Newest first.** The player who has just finished is on the page, waiting for the analysis;
the players of older games have left, and will read theirs from their history. Under overload
the newest games are still served first, and the backlog drains, oldest last, as load falls.

**Moves first.** While the web process keeps more than ``ANALYSIS_YIELD_SHARE`` of a core busy,
the loop holds its next batch back, for ``ANALYSIS_YIELD_SECONDS`` at most (:class:`ProcessLoad`):
a loaded process then analyses a batch every few seconds, and the newest player waits that much
longer for theirs.

**Claims.** Two processes must not analyse one game at once. A process claims a game with a
lease (:class:`~game.models.AnalysisClaim`): a row made if missing (an insert that ignores a
conflict) and taken by a conditional update (``claimed_until`` passed, the game still without an
analysis), which the database serializes on the row, so exactly one of two processes wins; the
update marks the rows it took with a holder of its own, which tells them apart when a batch is
claimed at once. A process that dies holding a claim frees it when the lease ends. It is
portable (SQLite too) and holds no transaction open while the solver runs, unlike
``SELECT ... FOR UPDATE SKIP LOCKED``.
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
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from django.conf import settings
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
BATCH: Final = 10
"""Waiting games a loop claims at once, the newest first: under load, the queue's bookkeeping (in
the web process, beside the moves) is paid once for them all, not once per game. The newest
game's analysis then waits for the others of its batch: a few tenths of a second, under a load
that has games waiting anyway."""
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
    return analysis_claims([game_id], now) == [game_id]


def analysis_claims(game_ids: list[uuid.UUID], now: datetime) -> list[uuid.UUID]:
    """Claim those of ``game_ids`` that no process holds, for :data:`LEASE`; return the ones this
    caller got, in the order given. Three statements, whatever the number of games.

    Conditions on the claim's own row only (the analysis is looked up in a subquery): a join
    would turn the update into "WHERE game_id IN (SELECT ...)", whose condition PostgreSQL does
    not check again on a row that another process has just claimed. The holder, new to this
    call, tells the rows this update took from those another process took meanwhile; the update
    and the read of what it took are one transaction, so that a connection lost between them
    leaves the games free, not held for a lease by a caller that never learnt of them. (The
    claims are made before it, outside: in it, two processes making the same claims could wait
    for each other.) The claims are inserted in the order of their ids, whatever the order given:
    two processes inserting the same games in different orders could each hold one that the other
    waits for, and PostgreSQL ends one of the statements as deadlocked (seen in CI).
    """
    AnalysisClaim.objects.bulk_create(
        [AnalysisClaim(game_id=game_id, claimed_until=now) for game_id in sorted(game_ids)],
        ignore_conflicts=True,
    )
    holder = uuid.uuid4()
    analysed = GameAnalysis.objects.filter(game_id=OuterRef("game_id"))
    with transaction.atomic():
        AnalysisClaim.objects.filter(
            ~Exists(analysed),
            game_id__in=game_ids,
            claimed_until__lte=now,
            failures__lt=MAX_FAILURES,
        ).update(claimed_until=now + LEASE, holder=holder)
        held = AnalysisClaim.objects.filter(game_id__in=game_ids, holder=holder)
        taken = set(held.values_list("game_id", flat=True))
    return [game_id for game_id in game_ids if game_id in taken]


def analysis_take(floor: datetime) -> tuple[list[AnalysisJob], datetime]:
    """Claim the newest claimable games finished since ``floor`` (up to :data:`BATCH`); return
    them, the newest first (none if there is none), and the floor to look from next time.

    The games are read before they are claimed: once they are claimed, nothing is left to fail
    before the loop knows of them. (Claimed and read in one transaction instead, the claim's
    write lock would be held through the reads: on SQLite, any transaction that reads and then
    writes meanwhile fails as locked.)
    """
    now = timezone.now()
    candidates = list(claimable_games(now, floor).values_list("id", flat=True)[:BATCH])
    if candidates:
        jobs = analysis_jobs(candidates)
        taken = set(analysis_claims([job.game_id for job in jobs], now))
        if taken:
            return [job for job in jobs if job.game_id in taken], floor
    oldest = waiting_games(floor).order_by("finished_at").values_list("finished_at", flat=True)
    waiting_since = oldest.first()
    recent = now - FLOOR_MARGIN
    return [], recent if waiting_since is None else min(waiting_since, recent)


def analysis_jobs(game_ids: list[uuid.UUID]) -> list[AnalysisJob]:
    """What the worker needs to analyse each game (its log as stored; its deal's verdict if
    known), in the order given; a game deleted meanwhile is left out."""
    games = Game.objects.in_bulk(game_ids)
    logs: dict[uuid.UUID, list[str]] = {game_id: [] for game_id in games}
    stored = Move.objects.filter(game_id__in=list(games)).order_by("game_id", "seq")
    for game_id, move in stored.values_list("game_id", "move"):
        logs[game_id].append(move)
    known = known_verdicts({(game.seed, game.variant) for game in games.values()})
    return [
        AnalysisJob(
            game_id=game.id,
            seed=game.seed,
            variant=game.variant,
            moves=logs[game.id],
            abandoned=game.status == Status.ABANDONED,
            reveal_after=game.reveal_after,
            known=known.get((game.seed, game.variant)),
        )
        for game in (games[game_id] for game_id in game_ids if game_id in games)
    ]


def known_verdicts(deals: set[tuple[str, str]]) -> dict[tuple[str, str], Verdict]:
    """The stored verdicts on those of ``deals`` (seed, variant) that were solved before."""
    rows = DealPar.objects.filter(seed__in={seed for seed, _ in deals}).values_list(
        "seed", "variant", "winnable", "par", "par_exact", "par_line"
    )
    return {
        (seed, variant): {"winnable": winnable, "par": par, "par_exact": exact, "par_line": line}
        for seed, variant, winnable, par, exact, line in rows
        if (seed, variant) in deals
    }


@dataclass(frozen=True, slots=True)
class Analysed:
    """A claimed game's analysis, made and not stored yet."""

    job: AnalysisJob
    verdict: Verdict
    report: dict[str, Any]


def analyses_store(analysed: list[Analysed]) -> list[uuid.UUID]:
    """Keep each game's analysis and its deal's verdict (:func:`analysis_store`), all in one
    transaction; return the ids of the games stored. Should a game have been deleted meanwhile,
    they are stored one by one instead, and that game is let go."""
    try:
        _store(analysed)
    except IntegrityError:
        return [item.job.game_id for item in analysed if analysis_store(item)]
    for item in analysed:
        events.game_analysed(item.job.game_id)
    return [item.job.game_id for item in analysed]


def analysis_store(analysed: Analysed) -> bool:
    """Keep a deal's verdict (once) and a game's analysis, which takes the game off the queue;
    then tell the other apps. False if the game is gone (deleted with its player's account)."""
    try:
        _store([analysed])
    except IntegrityError:
        if Game.objects.filter(id=analysed.job.game_id).exists():
            raise
        return False
    events.game_analysed(analysed.job.game_id)
    return True


def _store(analysed: list[Analysed]) -> None:
    """Three statements in one transaction, whatever was there before and however many games:
    under load a game ends every few dozen moves, and its bookkeeping runs in the web process
    beside them. A game deleted meanwhile fails its analysis' foreign key, which the database
    checks at the commit (IntegrityError). The rows go in the order of their keys, so that two
    processes storing analyses of the same new deals (a race's) cannot deadlock, as the claims
    could (:func:`analysis_claims`)."""
    now = timezone.now()
    analysed = sorted(
        analysed, key=lambda item: (item.job.variant, item.job.seed, item.job.game_id)
    )
    with transaction.atomic():
        DealPar.objects.bulk_create(
            [
                DealPar(
                    seed=item.job.seed, variant=item.job.variant, **item.verdict, computed_at=now
                )
                for item in analysed
            ],
            ignore_conflicts=True,  # a deal's first verdict stands
        )
        GameAnalysis.objects.bulk_create(
            [
                GameAnalysis(
                    game_id=item.job.game_id,
                    par=item.report["par"],
                    report=item.report,
                    computed_at=now,
                )
                for item in analysed
            ],
            update_conflicts=True,
            unique_fields=["game"],
            update_fields=["par", "report", "computed_at"],
        )
        ids = [item.job.game_id for item in analysed]
        AnalysisClaim.objects.filter(game_id__in=ids).delete()


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
    [job] = analysis_jobs([game_id])
    try:
        verdict, report = analysis_worker.analyse_finished(*job.worker_args())
    except Exception:
        analysis_failed(game_id)
        raise
    analysis_store(Analysed(job, verdict, report))
    return report


YIELD_STEP: Final = 0.25
"""Seconds between two looks at the process's load while an analysis waits for it to fall."""


class ProcessLoad:
    """How busy this process keeps the CPU (all its threads), for the analysis loop to yield to.

    The worker runs in Linux's idle policy (``analysis_worker.yield_to_play``), yet under the move
    bench's load it still took 0.4 of a core, and its bookkeeping here runs beside the moves:
    4,900-5,100 moves a second, against 5,000-5,700 with the worker stopped. So
    while the process keeps more than ``ANALYSIS_YIELD_SHARE`` of a core busy, the next batch
    waits, for ``ANALYSIS_YIELD_SECONDS`` at most: under overload the worker analyses a batch of
    up to :data:`BATCH` games every few seconds, the rest waiting durably, and the newest
    player's analysis comes that much later.
    """

    def __init__(self) -> None:
        self._cpu, self._at = time.process_time(), time.monotonic()

    def share(self) -> float:
        """The CPU this process used since the last look, per second (then looks again)."""
        cpu, at = time.process_time(), time.monotonic()
        used = (cpu - self._cpu) / max(at - self._at, 1e-3)
        self._cpu, self._at = cpu, at
        return used

    async def wait_until_quiet(self) -> None:
        """Return once the process is less busy than ``ANALYSIS_YIELD_SHARE`` of a core over the
        last :data:`YIELD_STEP` or longer, or ``ANALYSIS_YIELD_SECONDS`` from now."""
        deadline = time.monotonic() + settings.ANALYSIS_YIELD_SECONDS
        if time.monotonic() - self._at < YIELD_STEP:  # too short a time to judge by
            await asyncio.sleep(YIELD_STEP)
        while self.share() > settings.ANALYSIS_YIELD_SHARE and time.monotonic() < deadline:
            await asyncio.sleep(min(YIELD_STEP, max(0.0, deadline - time.monotonic())))


class AnalysisLoop:
    """One event loop's analysis: its database thread, its floor, and the task that works off the
    queue a batch at a time (with the scheduled jobs of :mod:`core.scheduled`, started beside
    it)."""

    def __init__(self) -> None:
        self._database = DatabaseThread("analysis-db", timeout=ANALYSIS_DATABASE_TIMEOUT)
        self._wake = asyncio.Event()
        self._floor = timezone.now() - LOOKBACK
        # Analyses made and not stored yet (the database was down), kept until they are.
        self._unstored: list[Analysed] = []
        self._busy = ProcessLoad()
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
        """Analyse the newest waiting games, if there are any (a batch), store the analyses and
        push them; return whether there were any."""
        if not self._unstored:
            await self._busy.wait_until_quiet()
            jobs, self._floor = await self._database.run(analysis_take, self._floor)
            if not jobs:
                return False
            self._unstored = await self._analyse_all(jobs)
            if not self._unstored:  # every analysis of the batch failed (and was counted)
                return True
        analysed = self._unstored
        try:
            stored = set(await self._database.run(analyses_store, analysed))
        except DatabaseUnavailable:
            raise  # kept, and stored at the next step: the games stay claimed meanwhile
        except Exception:
            self._unstored = []
            for item in analysed:
                await self._failed(item.job)
            return True
        self._unstored = []
        for item in analysed:
            if item.job.game_id in stored:
                await self._push(item)
        return True

    async def _analyse_all(self, jobs: list[AnalysisJob]) -> list[Analysed]:
        """The analyses of a batch, in its order; a game whose analysis fails is counted."""
        analysed = []
        for job in jobs:
            try:
                analysed.append(Analysed(job, *await self._analyse(job)))
            except Exception:
                await self._failed(job)
        return analysed

    async def _push(self, analysed: Analysed) -> None:
        """Send a stored analysis to the game's watchers."""
        job, report = analysed.job, analysed.report
        if not reveal_due(job.reveal_after):
            report = analysis_before_reveal(report, own=True)  # only the player watches a game
        await group_send(
            game_group(job.game_id),
            {"type": "game.analysis", "game": str(job.game_id), "analysis": report},
        )

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
