"""Races as games change: progress frames for the room, and ending a round when it is due.

:func:`race_game_changed` runs after each move's broadcast, in the task that sends the process's
broadcasts in their order (``core.broadcast.broadcast_soon``), so it stays cheap: which race a game
belongs to is cached per process (read once per game), an ordinary move costs one channel-layer
send, and a game's end reads its racer's status, then checks the round in a task of its own so
that neither the mover's game nor the broadcasts after it are held meanwhile.
"""

import asyncio
import functools
import logging
import uuid
from collections import OrderedDict
from typing import Any, Final

from channels.db import database_sync_to_async
from django.utils import timezone

from core.broadcast import broadcast_soon
from core.groups import room_group
from core.outages import database_unavailable
from game import events
from game.live import live_games
from game.models import Mode
from game.postgame import analysis_wake
from game.selectors import GameSnapshot
from races import selectors, services
from races.selectors import RaceGame, RacerStatus

logger = logging.getLogger(__name__)

MAX_CACHED_GAMES: Final = 10_000
_NOT_A_RACE: Final = object()

_race_games: OrderedDict[uuid.UUID, RaceGame | object] = OrderedDict()
_running: set[asyncio.Task[Any]] = set()
_reports: dict[uuid.UUID, asyncio.Task[None]] = {}
"""The progress reports that read the database, by game, until each is made: a game's next
report waits for its last, so that the room hears of its moves in order."""


async def race_game_of(game_id: uuid.UUID) -> RaceGame | None:
    """The race a game belongs to, from this process's cache or, once, the database."""
    found = _race_games.get(game_id)
    if found is None:
        found = await database_sync_to_async(selectors.race_game)(game_id) or _NOT_A_RACE
        _race_games[game_id] = found
        while len(_race_games) > MAX_CACHED_GAMES:
            _race_games.popitem(last=False)
    return found if isinstance(found, RaceGame) else None


async def race_game_changed(snapshot: GameSnapshot) -> None:
    """Tell the game's room how its racer stands now; check whether the round is over.

    It runs in the task that sends every broadcast of the process, so it never waits there: an
    ordinary move of a race game this process knows is reported at once, and a report that must
    read the database first (the game's race, once; its racer's status, when it ends) is made in
    a task of its own, after the game's report before it.
    """
    if snapshot.mode not in (Mode.RACE, Mode.CHALLENGE):
        return
    game_id = snapshot.game_id
    race = _race_games.get(game_id)
    if race is _NOT_A_RACE:
        return
    if isinstance(race, RaceGame) and not snapshot.over and game_id not in _reports:
        _progress_report(race, snapshot, RacerStatus.PLAYING)
        return
    task = asyncio.create_task(_report_read(snapshot, _reports.get(game_id)))
    _reports[game_id] = task
    task.add_done_callback(functools.partial(_report_done, game_id))


async def _report_read(snapshot: GameSnapshot, after: asyncio.Task[None] | None) -> None:
    """The report of a change that needs the database, once the game's last report is made."""
    if after is not None:
        await asyncio.wait([after])
    race = await race_game_of(snapshot.game_id)
    if race is None:
        return
    status = RacerStatus.PLAYING
    if snapshot.over:
        try:
            status = (
                await database_sync_to_async(selectors.entry_status)(snapshot.game_id) or status
            )
        except Exception:
            # The database did not answer (or SQLite was locked): no report, but nothing else
            # would check this round again before its deadline.
            check_soon(race.code)
            raise
    _progress_report(race, snapshot, status)


def _progress_report(race: RaceGame, snapshot: GameSnapshot, status: str) -> None:
    """Send the room the racer's progress frame (in the background, after the broadcasts made
    before it), then check the round in a task of its own if the game ended or time is up."""
    try:
        progress = {
            "type": "progress",
            "round": race.round_number,
            "player": race.player,
            **selectors.progress_of_view(snapshot.view(), status=status),
        }
        broadcast_soon(room_group(race.code), {"type": "race.progress", "progress": progress})
    finally:
        if snapshot.over or (race.ends_at is not None and timezone.now() >= race.ends_at):
            check_soon(race.code)


def _report_done(game_id: uuid.UUID, task: asyncio.Task[None]) -> None:
    if _reports.get(game_id) is task:
        del _reports[game_id]
    if not task.cancelled() and task.exception() is not None:
        error = task.exception()
        logger.error("Reporting on race game %s failed", game_id, exc_info=error)


def check_soon(code: str) -> None:
    """End the room's round in a task of its own if it is due."""
    task = asyncio.create_task(race_check(code), name=f"race-check-{code}")
    _running.add(task)
    task.add_done_callback(_running.discard)


CHECK_TRIES: Final = 5
CHECK_RETRY_SECONDS: Final = 1.0


async def race_check(code: str) -> services.RaceEnd:
    """End the room's round if it is due, then settle the games that changed. A check the
    database did not answer is tried again a few times: it may be the round's last."""
    for tries in range(1, CHECK_TRIES + 1):
        try:
            end = await database_sync_to_async(services.race_end_if_due)(code=code)
        except services.RoomNotFound:
            return services.RaceEnd()
        except Exception as error:
            if database_unavailable(error) and tries < CHECK_TRIES:
                await asyncio.sleep(CHECK_RETRY_SECONDS)
                continue
            logger.exception("Checking the end of the race in room %s failed", code)
            return services.RaceEnd()
        await games_settle(end)
        return end
    return services.RaceEnd()


async def games_settle(end: services.RaceEnd) -> None:
    """After a race service changed games outside the move path: this process's cached games are
    read again (their status, and their deal's reveal time), games it ended get their analysis,
    and the other apps hear of them."""
    games = live_games()
    for game_id in end.games:
        games.forget(game_id)
    for game_id in end.abandoned:
        games.forget(game_id)
        try:
            live = await games.get(game_id)
            analysis_wake()
            await events.game_changed(GameSnapshot.of(live))
        except Exception:
            logger.exception("Settling race game %s failed", game_id)


def register() -> None:
    events.on_game_changed(race_game_changed)
