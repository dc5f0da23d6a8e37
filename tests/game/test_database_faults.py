"""A database hiccup mid-play: every connection the server holds is cut under players' feet.

A batch of moves in play sent from the event loop is sent once more on a new session. What fails
(the last move of a signed-in player's game, whose transaction runs on a database thread; a game
being loaded) is answered with a retryable error (never an acknowledgement), the sockets stay
open, the clients send the same moves again, the database threads reconnect, and play goes on.
Needs PostgreSQL (``pg_terminate_backend``).
"""

import asyncio
from collections.abc import Callable
from typing import TypeVar

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from deploy.clients import Player
from game.engine import Variant
from game.models import Move
from game.players import Player as GamePlayer
from game.services import game_start
from tests.accounts.helpers import make_player, signed_in_session
from tests.game.conftest import Seat, cut_the_servers_connections, play_socket
from tests.players import CommunicatorConnection

T = TypeVar("T")
pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

PLAYERS = 20


async def in_own_thread(function: Callable[..., T], *args: object) -> T:
    """Run a query in a thread of its own that closes its connection after (the test database
    must have no session left at the end)."""

    def run() -> T:
        try:
            return function(*args)
        finally:
            connection.close()

    return await asyncio.to_thread(run)


def stored_logs(game_ids: list[object]) -> dict[object, dict[int, str]]:
    logs: dict[object, dict[int, str]] = {game_id: {} for game_id in game_ids}
    for game_id, seq, move in Move.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "seq", "move"
    ):
        logs[game_id][seq] = move
    return logs


@database_sync_to_async
def signed_in_seat(n: int) -> Seat:
    """A signed-in player's seat: their game, on a fresh deal, ends in a transaction of its own
    (it enters the score tables) on the endings' database thread."""
    user = make_player(f"player-{n}", email="")
    game = game_start(player=GamePlayer(user_id=user.pk, guest_key=""), variant=Variant.TRIPEAKS)
    return Seat("", game, signed_in_session(user))


def player_of(seat: Seat) -> Player:
    async def connect() -> CommunicatorConnection:
        socket = play_socket(seat.session_key)
        connected, _ = await socket.connect()
        assert connected
        return CommunicatorConnection(socket)

    return Player(connect, str(seat.game.id), answer_timeout=10)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")
async def test_cut_connections_close_no_socket_and_lose_no_acknowledged_move(
    make_seat, test_session_pid: int
) -> None:
    seats = [
        await (make_seat(f"guest-{n}", seed=None) if n % 2 else signed_in_seat(n))
        for n in range(PLAYERS)
    ]
    players = [player_of(seat) for seat in seats]
    # 20 ms between moves: games that last long enough to meet several cuts each, on every one of
    # the server's connections (with 5 ms, a connection cut between a player's retries and never
    # let go of hung the test only now and then). The signed-in players play at paces from 10 to
    # 55 ms, so that their games' ends, each a transaction on the endings' thread, are spread over
    # several cuts.
    paces = [0.02 if n % 2 else 0.01 + 0.0025 * n for n in range(PLAYERS)]
    games = [
        asyncio.create_task(player.play(pause=pace))
        for player, pace in zip(players, paces, strict=True)
    ]
    while not all(player.view for player in players):  # everyone at the table: now cut
        await asyncio.sleep(0.01)
    cuts = 0
    while not all(game.done() for game in games):
        await asyncio.sleep(0.2)
        cuts += await in_own_thread(cut_the_servers_connections, test_session_pid) > 0
    await asyncio.gather(*games)

    assert cuts >= 3  # the server's connections were cut mid-play, again and again
    assert [code for player in players for code in player.closed_codes] == []
    assert sum(player.retryable_errors for player in players) > 0
    logs = await in_own_thread(stored_logs, [seat.game.id for seat in seats])
    for seat, player in zip(seats, players, strict=True):
        assert player.view["status"] in {"won", "lost"}
        log = logs[seat.game.id]
        assert {seq: log.get(seq) for seq in player.acknowledged} == player.acknowledged
        assert sorted(log) == list(range(player.view["seq"]))
