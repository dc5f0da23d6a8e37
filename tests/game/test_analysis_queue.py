"""The analysis queue: finished games without an analysis, worked off by each event loop's analysis
loop in the worker process, claimed so that no game is analysed twice at once, never dropped."""

import asyncio
import contextlib
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from game import events, postgame
from game.analysis_worker import ANALYSIS_NICENESS
from game.engine import Variant
from game.models import AnalysisClaim, DealPar, Game, GameAnalysis, Move, Status
from game.players import Player
from game.services import game_start
from tests.accounts.helpers import play_out
from tests.concurrency import at_once
from tests.game.conftest import Seat, cut_the_servers_connections
from tests.game.worker_hold import hold_until

pytestmark = pytest.mark.django_db(transaction=True)

ANALYSED_WITHIN = 120.0
"""Seconds a test waits for analyses (the worker solves each new deal: a few seconds)."""


def finished_game(seed: str = "4", *, guest: str = "guest-q", finished_ago: float = 0.0) -> Game:
    """A game given up after two moves (a finished game as any other), ``finished_ago`` seconds
    ago; no analysis loop hears of it."""
    player = Player(user_id=None, guest_key=guest)
    game = game_start(player=player, variant=Variant.TRIPEAKS, seed=seed)
    play_out(game, moves=2, abandon=True)
    Game.objects.filter(id=game.id).update(
        finished_at=timezone.now() - timedelta(seconds=finished_ago)
    )
    return game


@pytest.fixture
def analysed(monkeypatch: pytest.MonkeyPatch) -> list[uuid.UUID]:
    """The ids of the games analysed during the test, in order, once per analysis stored."""
    seen: list[uuid.UUID] = []
    monkeypatch.setattr(events, "_analysed_listeners", [*events._analysed_listeners, seen.append])
    return seen


@contextlib.contextmanager
def held_worker(folder: Path) -> Iterator[None]:
    """Keep the analysis worker busy until the block ends: a game the loop claims meanwhile
    waits, claimed, for its analysis (a deal the worker has solved before takes it no time)."""
    released = folder / "released"
    postgame.worker_pool().submit(hold_until, str(released))
    try:
        yield
    finally:
        released.touch()


async def all_heard(analysed: list[uuid.UUID], games: list[Game]) -> None:
    """Return once the listeners have heard of every game's analysis (they hear of it just after
    it is stored)."""
    async with asyncio.timeout(ANALYSED_WITHIN):
        while not {game.id for game in games} <= set(analysed):
            await asyncio.sleep(0.1)


async def claimed(game: Game) -> None:
    """Return once a loop holds ``game`` (and has read it, in the same transaction)."""

    def held() -> bool:
        return AnalysisClaim.objects.filter(game=game, claimed_until__gt=timezone.now()).exists()

    async with asyncio.timeout(ANALYSED_WITHIN):
        while not await database_sync_to_async(held)():
            await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_a_backlog_drains_by_itself_newest_first(analysed: list[uuid.UUID]) -> None:
    """Games that ended while no loop ran (a crash, a restart) are analysed once a loop runs,
    without any command, the newest first; and so is a game that ends later, unannounced."""
    backlog = [
        await database_sync_to_async(finished_game)(finished_ago=ago) for ago in (30, 20, 10)
    ]

    postgame.analysis_loop()
    await all_heard(analysed, backlog)
    assert analysed == [game.id for game in reversed(backlog)]

    later = await database_sync_to_async(finished_game)()  # no wake: found by polling
    await all_heard(analysed, [later])
    assert analysed[-1] == later.id


@pytest.mark.asyncio
async def test_a_game_ending_wakes_the_loop(
    make_seat, sockets, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With polling out of the way, a game that ends on the loop still has its analysis pushed
    over the socket at once: the end of the game woke the loop."""
    monkeypatch.setattr(postgame, "POLL_SECONDS", 3600.0)
    postgame.analysis_loop()
    seat: Seat = await make_seat(seed="4")
    await asyncio.sleep(0.5)  # the loop has looked, found nothing, and waits
    socket = await seat.connect()
    sockets.append(socket)
    await socket.send_json_to({"type": "abandon"})
    assert (await socket.receive_json_from(timeout=5))["game"]["status"] == "abandoned"
    pushed = await socket.receive_json_from(timeout=ANALYSED_WITHIN)
    assert pushed["type"] == "analysis"
    assert pushed["analysis"]["status"] == "abandoned"


@pytest.mark.asyncio
async def test_a_game_whose_analysis_fails_is_given_up_and_the_queue_goes_on(
    analysed: list[uuid.UUID], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A game whose stored log the engine refuses fails in the worker: it is tried again, then
    given up after MAX_FAILURES, and the games behind it are analysed all the same."""
    monkeypatch.setattr(postgame, "LEASE", timedelta(0))  # a failed game is retried at once

    def broken_game() -> Game:
        game = finished_game(finished_ago=10)
        Move.objects.bulk_create(  # the stock holds 23 cards: no log has 38 more draws
            Move(game=game, seq=seq, move="draw", played_at=timezone.now()) for seq in range(2, 40)
        )
        return game

    broken = await database_sync_to_async(broken_game)()
    good = await database_sync_to_async(finished_game)(finished_ago=5)

    postgame.analysis_loop()
    await all_heard(analysed, [good])
    claim = database_sync_to_async(AnalysisClaim.objects.get)
    async with asyncio.timeout(ANALYSED_WITHIN):
        while (await claim(game_id=broken.id)).failures < postgame.MAX_FAILURES:
            await asyncio.sleep(0.1)
    await asyncio.sleep(1)
    assert (await claim(game_id=broken.id)).failures == postgame.MAX_FAILURES
    assert analysed == [good.id]
    assert f"Game {broken.id} given up after 3 failed analyses" in caplog.text


@pytest.mark.asyncio
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs pg_terminate_backend")
async def test_an_analysis_the_database_did_not_take_is_stored_once_it_answers(
    analysed: list[uuid.UUID],
    test_session_pid: int,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    """The database's connections are cut while the worker analyses a game: the analysis is kept
    and stored as soon as the database answers again, not once the game's lease is over."""
    monkeypatch.setattr(postgame, "LEASE", timedelta(hours=1))
    game = await database_sync_to_async(finished_game)()
    with held_worker(tmp_path):
        postgame.analysis_loop()
        await claimed(game)  # the loop waits for the worker now, the game claimed
        assert await database_sync_to_async(cut_the_servers_connections)(test_session_pid) > 0

    await all_heard(analysed, [game])
    assert analysed == [game.id]
    assert "PostgreSQL unavailable" in caplog.text  # the analysis was made while it was down


@pytest.mark.asyncio
async def test_a_game_deleted_while_it_is_analysed_is_let_go(
    analysed: list[uuid.UUID], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """A player who deletes their account while the worker analyses one of their games: the
    analysis is dropped without an error, and the loop goes on."""
    game = await database_sync_to_async(finished_game)()
    with held_worker(tmp_path):
        postgame.analysis_loop()
        await claimed(game)
        await database_sync_to_async(Game.objects.filter(id=game.id).delete)()

    later = await database_sync_to_async(finished_game)(guest="guest-later")
    postgame.analysis_wake()
    await all_heard(analysed, [later])
    assert analysed == [later.id]
    assert "failed" not in caplog.text


@pytest.mark.asyncio
async def test_of_a_batch_a_game_deleted_while_it_is_analysed_is_let_go_and_the_rest_stored(
    analysed: list[uuid.UUID], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """The games of a batch are stored together; one deleted meanwhile fails that, and then the
    others are stored one by one, the deleted one let go without an error."""
    games = [
        await database_sync_to_async(finished_game)(guest=f"guest-{ago}", finished_ago=ago)
        for ago in (3, 2, 1)
    ]
    with held_worker(tmp_path):
        postgame.analysis_loop()
        for game in games:
            await claimed(game)
        await database_sync_to_async(Game.objects.filter(id=games[1].id).delete)()

    await all_heard(analysed, [games[0], games[2]])
    assert analysed == [games[2].id, games[0].id]
    assert "failed" not in caplog.text
    assert not await database_sync_to_async(AnalysisClaim.objects.exists)()


def analyse_in_a_loop_of_its_own(until: Callable[[], bool]) -> None:
    """Run an event loop of this thread's own (as another web process would) with an analysis
    loop, until ``until()`` holds."""

    async def serve() -> None:
        postgame.analysis_loop()
        async with asyncio.timeout(ANALYSED_WITHIN):
            while not until():
                await asyncio.sleep(0.1)

    try:
        asyncio.run(serve())
    finally:
        connections.close_all()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
def test_two_loops_never_analyse_one_game_twice(analysed: list[uuid.UUID]) -> None:
    """Two loops on two event loops (as two web processes) share one backlog: each game is
    analysed exactly once."""
    backlog = [finished_game(finished_ago=ago) for ago in range(8)]
    ids = [game.id for game in backlog]

    def done() -> bool:
        return set(ids) <= set(analysed)

    loops = [threading.Thread(target=analyse_in_a_loop_of_its_own, args=(done,)) for _ in "ab"]
    for loop in loops:
        loop.start()
    for loop in loops:
        loop.join()
    assert Counter(analysed) == Counter(ids)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
def test_of_processes_claiming_the_same_games_at_once_one_gets_each() -> None:
    """Claims race on every game at once (threads with their own connections, as processes):
    each game is claimed by exactly one."""
    games = [finished_game(finished_ago=ago) for ago in range(20)]
    claimed = at_once(
        lambda _: [game.id for game in games if postgame.analysis_claim(game.id, timezone.now())],
        range(4),
    )
    winners = [game_id for ids in claimed for game_id in ids]
    assert sorted(winners) == sorted(game.id for game in games)


def test_a_loop_takes_the_newest_waiting_games_as_one_batch_with_their_logs() -> None:
    games = [finished_game(guest=f"guest-{ago}", finished_ago=ago) for ago in range(12)]
    floor = timezone.now() - timedelta(hours=1)

    jobs, _ = postgame.analysis_take(floor)

    assert [job.game_id for job in jobs] == [game.id for game in games[: postgame.BATCH]]
    logs = dict(Move.objects.filter(game=games[0]).order_by("seq").values_list("seq", "move"))
    assert jobs[0].moves == list(logs.values())
    assert len(jobs[0].moves) == 2
    assert all(job.abandoned for job in jobs)
    rest, _ = postgame.analysis_take(floor)  # the batch is held: the others are left
    assert [job.game_id for job in rest] == [game.id for game in games[postgame.BATCH :]]
    assert postgame.analysis_take(floor)[0] == []


def test_a_deal_solved_before_comes_with_its_job() -> None:
    first = finished_game(seed="4")
    postgame.analyse_here(first.id)
    again = finished_game(seed="4", guest="guest-a")
    other = finished_game(seed="5", guest="guest-b")
    jobs = postgame.analysis_jobs([again.id, other.id])
    par = DealPar.objects.get(seed="4")
    assert jobs[0].known == {
        "winnable": par.winnable, "par": par.par, "par_exact": par.par_exact,
        "par_line": par.par_line,
    }  # fmt: skip
    assert jobs[1].known is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
def test_of_processes_claiming_batches_of_the_same_games_at_once_one_gets_each() -> None:
    games = [finished_game(finished_ago=ago) for ago in range(20)]
    ids = [game.id for game in games]
    claimed = at_once(
        lambda turn: postgame.analysis_claims(ids[turn:] + ids[:turn], timezone.now()), range(4)
    )
    winners = [game_id for taken in claimed for game_id in taken]
    assert sorted(winners) == sorted(ids)


def test_a_claim_holds_a_game_for_its_lease_then_frees_it() -> None:
    game = finished_game()
    now = timezone.now()
    assert postgame.analysis_claim(game.id, now)
    assert not postgame.analysis_claim(game.id, now + postgame.LEASE - timedelta(seconds=1))
    assert list(postgame.claimable_games(now + timedelta(seconds=1))) == []
    assert postgame.analysis_claim(game.id, now + postgame.LEASE)


def test_the_command_leaves_alone_games_another_process_holds() -> None:
    held, free = finished_game(finished_ago=1), finished_game()
    assert postgame.analysis_claim(held.id, timezone.now())

    call_command("analyse_games")

    assert list(GameAnalysis.objects.values_list("game_id", flat=True)) == [free.id]
    assert AnalysisClaim.objects.filter(game=held).exists()


def test_the_command_retries_given_up_games_when_asked() -> None:
    game = finished_game()
    AnalysisClaim.objects.create(
        game=game, claimed_until=timezone.now(), failures=postgame.MAX_FAILURES
    )
    call_command("analyse_games")
    assert not GameAnalysis.objects.filter(game=game).exists()

    call_command("analyse_games", retry_failed=True)
    assert GameAnalysis.objects.filter(game=game).exists()
    assert not AnalysisClaim.objects.exists()  # the claim goes with the analysis stored


def test_games_in_progress_or_analysed_are_not_waiting() -> None:
    in_progress = game_start(player=Player(user_id=None, guest_key="g"), variant=Variant.TRIPEAKS)
    done = finished_game()
    postgame.analyse_here(done.id)
    waiting = finished_game(guest="guest-w")
    assert in_progress.status == Status.IN_PROGRESS
    assert list(postgame.waiting_games()) == [waiting]


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's scheduling policies")
def test_the_worker_runs_only_on_what_the_server_leaves_idle() -> None:
    """The worker process is at the lowest niceness and in Linux's idle policy, so that a move
    preempts an analysis as soon as it arrives."""
    worker = postgame.worker_pool().submit(os.getpid).result(timeout=ANALYSED_WITHIN)
    assert worker != os.getpid()
    assert os.sched_getscheduler(worker) == os.SCHED_IDLE
    assert os.getpriority(os.PRIO_PROCESS, worker) == ANALYSIS_NICENESS


@pytest.mark.asyncio
async def test_analyses_wait_while_the_process_is_busy_but_not_for_long(settings) -> None:
    """While the process keeps the CPU busy (a thread spinning here), the next batch waits for the
    load to fall, and goes at the latest after ANALYSIS_YIELD_SECONDS; a quiet process does not
    hold it back."""
    settings.ANALYSIS_YIELD_SHARE, settings.ANALYSIS_YIELD_SECONDS = 0.6, 1.0
    load = postgame.ProcessLoad()
    started = time.monotonic()
    await load.wait_until_quiet()
    quiet = time.monotonic() - started

    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(range(1000))

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        started = time.monotonic()
        await load.wait_until_quiet()
        busy = time.monotonic() - started
    finally:
        stop.set()
        spinner.join()
    assert quiet < settings.ANALYSIS_YIELD_SECONDS
    assert settings.ANALYSIS_YIELD_SECONDS <= busy < ANALYSED_WITHIN
