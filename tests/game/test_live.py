"""The live-game cache: one LiveGame per game, however many calls ask for it at once, and the
stored log is asked again only when it may have moved on elsewhere."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game.live import live_games
from game.models import Game, Move
from tests.game.conftest import Seat, communicator

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_calls_racing_to_load_a_game_share_one_live_game(make_seat) -> None:
    seat: Seat = await make_seat()
    games = live_games()
    first, second = await asyncio.gather(games.get(seat.game.id), games.get(seat.game.id))
    assert first is second
    assert first.lock is second.lock


async def test_a_cached_game_is_checked_against_the_database_on_connect(make_seat) -> None:
    """Another process's move (written straight to the database here) shows on the next
    state read, although this process had the game cached."""
    seat: Seat = await make_seat()
    socket = await seat.connect()  # loads and caches the game at seq 0
    await socket.disconnect()

    def move_elsewhere() -> None:
        Move.objects.create(game_id=seat.game.id, seq=0, move="draw", played_at=timezone.now())
        Game.objects.filter(id=seat.game.id).update(move_count=1)

    await database_sync_to_async(move_elsewhere)()
    socket = communicator(seat.game.id, seat.session_key)
    try:
        assert (await socket.connect())[0]
        state = await socket.receive_json_from(timeout=5)
    finally:
        await socket.disconnect()
    assert (state["game"]["seq"], state["game"]["stock_count"]) == (1, 22)
    assert (await live_games().get(seat.game.id)).just_loaded is False
