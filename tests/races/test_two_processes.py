"""One race served by two Daphne processes sharing PostgreSQL and Redis: everyone sees everyone.

Needs a channel layer between processes: skipped when REDIS_URL is unset. CI runs it on Redis.
"""

import asyncio
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from game.engine import Deal, GameState, Variant
from races import services
from races.models import Entry
from tests.accounts.helpers import signed_in_session
from tests.game.conftest import visible_cards
from tests.races.conftest import SEED, make_player, next_move
from tests.servers import daphne_server

pytestmark = [
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)"),
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
]

RACERS = ("ada", "bea", "cy", "dot")


@pytest.fixture
def two_servers(transactional_db: None, tmp_path) -> Iterator[tuple[str, str]]:
    with daphne_server(tmp_path) as first, daphne_server(tmp_path) as second:
        yield first, second


def seated_race(names: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]]:
    """A room with every player seated and a race started on a known deal; returns each
    player's session key and game id."""
    users = [make_player(name) for name in names]
    room = services.room_open(
        user=users[0], variant=Variant.TRIPEAKS, public=True, time_limit_s=None
    )
    for user in users[1:]:
        services.room_join(code=room.code, user=user)
    services.race_start(code=room.code, user=users[0], seed=SEED)
    games = {
        entry.user.username: str(entry.game_id)
        for entry in Entry.objects.filter(round__room=room).select_related("user")
    }
    sessions = {user.username: signed_in_session(user) for user in users}
    return {"code": room.code, **sessions}, games


async def connect(base: str, path: str, session_key: str) -> ClientConnection:
    return await websockets.connect(
        f"{base.replace('http:', 'ws:')}{path}",
        origin=Origin(base),
        additional_headers={"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={session_key}"},
    )


async def frames_until(
    socket: ClientConnection, done: Any, timeout: float = 15
) -> list[dict[str, Any]]:
    """Frames from ``socket`` until ``done(frames)`` holds (or fail after ``timeout``)."""
    frames: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while not done(frames):
            frames.append(json.loads(await socket.recv()))
    return frames


def progress_seen(frames: list[dict[str, Any]]) -> dict[str, int]:
    """Each racer's latest move count, from the progress frames received."""
    seen: dict[str, int] = {}
    for frame in frames:
        if frame["type"] == "progress":
            seen[frame["player"]] = max(seen.get(frame["player"], 0), frame["moves"])
    return seen


async def test_racers_on_two_processes_see_each_others_progress(two_servers, settings) -> None:
    """Two racers on each process each make a move: every room socket, on either process,
    hears of all four moves, and no room frame carries a card."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    ids, games = await database_sync_to_async(seated_race)(RACERS)
    code = ids["code"]
    first, second = two_servers
    home = {name: (first if i % 2 == 0 else second) for i, name in enumerate(RACERS)}
    rooms = {name: await connect(home[name], f"/ws/races/{code}/", ids[name]) for name in RACERS}
    boards = {name: await connect(home[name], "/ws/play/", ids[name]) for name in RACERS}
    try:
        opening = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
        move = next_move(opening).text
        for name in RACERS:
            await boards[name].send(json.dumps({"type": "open", "game": str(games[name])}))
            await frames_until(boards[name], lambda frames: len(frames) == 1)  # the state
            await boards[name].send(json.dumps({"type": "move", "seq": 0, "move": move}))
            answer = await frames_until(boards[name], lambda frames: len(frames) == 1)
            assert (answer[0]["type"], answer[0]["seq"]) == ("moved", 1), answer
        everyone = dict.fromkeys(RACERS, 1)
        for name in RACERS:
            frames = await frames_until(
                rooms[name], lambda frames: progress_seen(frames) == everyone
            )
            assert visible_cards(frames) == set(), name  # figures only, never a card
    finally:
        for socket in [*rooms.values(), *boards.values()]:
            await socket.close()
