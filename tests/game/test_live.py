"""The live-game cache and the move writer: one LiveGame per game, however many calls ask for it
at once; the stored log is asked again only when it may have moved on elsewhere; a move the
database refuses fails alone in its batch."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game.live import live_games
from game.models import Game, Move
from tests.game.conftest import Seat, communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_calls_racing_to_load_a_game_share_one_live_game(make_seat) -> None:
    seat: Seat = await make_seat()
    games = live_games()
    first, second = await asyncio.gather(games.get(seat.game.id), games.get(seat.game.id))
    assert first is second
    assert first.lock is second.lock


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
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


@pytest.mark.django_db
def test_a_move_the_database_refuses_fails_alone_in_its_batch() -> None:
    """A batch with one row the database refuses (a constraint) is written move by move: the
    refused move fails with Django's IntegrityError, the others are written."""
    from django.db import IntegrityError

    from game.engine import Variant
    from game.live import MoveWrite, write_moves
    from game.players import Player
    from game.services import game_start

    def a_game(key: str) -> Game:
        return game_start(player=Player(None, key), variant=Variant.TRIPEAKS, seed="1")

    good, bad = a_game("good"), a_game("bad")
    now = timezone.now()

    def draw(game: Game, status: str) -> MoveWrite:
        return MoveWrite(
            game_id=game.id, seq=0, move="draw", played_at=now, status=status, score=0,
            cards_left=28, finished_at=None if status == "in_progress" else now,
            duration_ms=None if status == "in_progress" else 1,
        )  # fmt: skip

    # "won" with 28 cards left breaks the game_won_means_cleared constraint.
    results = write_moves([draw(good, "in_progress"), draw(bad, "won")])
    assert results[0] is None
    assert isinstance(results[1], IntegrityError)
    assert list(Move.objects.filter(game=good).values_list("move", flat=True)) == ["draw"]
    assert not Move.objects.filter(game=bad).exists()
    assert Game.objects.get(id=bad.id).move_count == 0
