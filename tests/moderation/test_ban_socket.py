"""A ban reaches a player's open websocket: it is told and closed with 4401, and cannot open
another one (their session is gone)."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from core.errors import CLOSE_BANNED
from game.engine import Variant
from game.models import Game
from game.players import Player
from game.services import game_start
from moderation import services
from tests.accounts.helpers import make_player, signed_in_session
from tests.game.conftest import game_opened


def player_with_game() -> tuple[User, Game, str]:
    user = make_player("ada")
    game = game_start(player=Player(user_id=user.pk, guest_key=""), variant=Variant.TRIPEAKS)
    return user, game, signed_in_session(user)


def superuser() -> User:
    # A superuser has every permission; the group made by the migration is gone once a
    # transactional test has flushed the tables.
    return User.objects.create_superuser("root", "root@example.com", "x")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_banned_player_s_open_socket_is_closed_with_4401() -> None:
    user, game, session_key = await database_sync_to_async(player_with_game)()
    actor = await database_sync_to_async(superuser)()
    socket, opened = await game_opened(game.id, session_key)
    assert opened["type"] == "state"

    await database_sync_to_async(services.player_ban)(
        actor=actor, user_id=user.pk, reason="cheating"
    )

    message = await socket.receive_json_from(timeout=5)
    assert (message["type"], message["code"]) == ("error", "banned")
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": CLOSE_BANNED}
    await socket.disconnect()

    # A new socket is accepted, but its game is refused: the session no longer signs anyone in.
    again: WebsocketCommunicator
    again, refused = await game_opened(game.id, session_key)
    assert refused["type"] == "error"
    assert refused["code"] == "forbidden"
    await again.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_other_players_sockets_stay_open() -> None:
    _, game, session_key = await database_sync_to_async(player_with_game)()
    actor = await database_sync_to_async(superuser)()
    other = await database_sync_to_async(make_player)("bob", email="bob@example.com")
    socket, _ = await game_opened(game.id, session_key)

    await database_sync_to_async(services.player_ban)(
        actor=actor, user_id=other.pk, reason="not ada"
    )

    assert await socket.receive_nothing(timeout=0.5)
    await socket.send_json_to({"type": "sync"})
    assert (await socket.receive_json_from(timeout=5))["type"] == "state"
    await socket.disconnect()
