"""Par and post-game analysis: computed in a worker process once a game is over, never in the way.

The move that ends a game is acknowledged like any other; then a task hands the finished game to
a separate process (the solver is pure Python and would hold the server's event loop), stores the
result, and pushes it to everyone watching the game. ``manage.py analyse_games`` computes any
analysis that a restart interrupted.
"""

import asyncio
import logging
import multiprocessing
import uuid
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from channels.layers import get_channel_layer
from django.utils import timezone

from core.outages import DatabaseUnavailable
from game import analysis_worker, events
from game.analysis_worker import Verdict
from game.live import DatabaseThread, LiveGame, replay_log
from game.models import DealPar, Game, GameAnalysis, Status
from game.selectors import analysis_before_reveal, reveal_due

logger = logging.getLogger(__name__)
MAX_WAITING_ANALYSES: Final = 64
_pool: ProcessPoolExecutor | None = None
_running: set[asyncio.Task[None]] = set()
# One analysis at a time is handed to the worker; the rest wait here, as tasks of the event loop.
# Were they queued in the executor instead, a stopping server would wait for every one of them
# (concurrent.futures finishes its queue at exit) rather than for the one in hand.
_worker_turns: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def worker_pool() -> ProcessPoolExecutor:
    """The process that runs the solver, started on first use (spawned: no state is inherited)."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=analysis_worker.yield_to_play,
        )
    return _pool


def shutdown() -> None:
    """Stop the worker process (tests and management commands call this when done)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None


def analysis_schedule(live: LiveGame, database: DatabaseThread) -> asyncio.Task[None] | None:
    """Start analysing a game that has just ended; the task runs on without the caller.

    When more games are waiting than the worker can catch up on soon, this one is left for
    ``manage.py analyse_games`` (its page says the analysis is on its way) rather than letting the
    queue, and the memory it holds, grow without bound.
    """
    if len(_running) >= MAX_WAITING_ANALYSES:
        logger.warning("Analysis queue full: game %s left for analyse_games", live.game_id)
        return None
    task = asyncio.create_task(_analyse(live, database), name=f"analyse-{live.game_id}")
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


async def _analyse(live: LiveGame, database: DatabaseThread) -> None:
    try:
        await _analyse_and_push(live, database)
    except DatabaseUnavailable:  # logged as an outage; analyse_games catches up on the game
        pass
    except Exception:  # an analysis is a bonus: its failure must not touch play
        logger.exception("The analysis of game %s failed", live.game_id)


async def _analyse_and_push(live: LiveGame, database: DatabaseThread) -> None:
    state = live.state
    seed, variant = state.deal.seed, state.variant.value
    moves = [move.text for move in state.moves]
    abandoned = state.status.value == Status.ABANDONED
    loop = asyncio.get_running_loop()
    async with _worker_turn(loop):
        known = await database.run(known_verdict, seed, variant)
        verdict, report = await loop.run_in_executor(
            worker_pool(), analysis_worker.analyse_finished, seed, variant, moves, abandoned, known
        )
    await database.run(analysis_store, live.game_id, seed, variant, verdict, report)
    await database.run(events.game_analysed, live.game_id)
    if not reveal_due(live.reveal_after):
        report = analysis_before_reveal(report, own=True)  # only the player watches a game
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(live.group_name, {"type": "game.analysis", "analysis": report})


def _worker_turn(loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
    """The turn to use the worker process, one analysis at a time, for this event loop."""
    turn = _worker_turns.get(loop)
    if turn is None:
        for stale in [other for other in _worker_turns if other.is_closed()]:
            del _worker_turns[stale]
        turn = _worker_turns[loop] = asyncio.Semaphore(1)
    return turn


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
) -> None:
    """Keep a deal's verdict (once) and a game's analysis."""
    now = timezone.now()
    DealPar.objects.get_or_create(
        seed=seed, variant=variant, defaults={**verdict, "computed_at": now}
    )
    GameAnalysis.objects.update_or_create(
        game_id=game_id, defaults={"par": report["par"], "report": report, "computed_at": now}
    )


def analyse_now(game: Game) -> dict[str, Any]:
    """Analyse a finished game in this process and store the result (for the management command)."""
    state = replay_log(game)
    verdict, report = analysis_worker.analyse_finished(
        game.seed,
        game.variant,
        [move.text for move in state.moves],
        game.status == Status.ABANDONED,
        known_verdict(game.seed, game.variant),
    )
    analysis_store(game.id, game.seed, game.variant, verdict, report)
    events.game_analysed(game.id)
    return report
