"""What stands before every websocket: the origin check, the session and user of the cookie."""

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from core.sockets import JsonSocket, websocket_stack
from game.players import GUEST_KEY_SESSION_FIELD
from tests.accounts.helpers import make_player, signed_in_session
from tests.game.conftest import guest_session
from tests.sockets import ORIGIN, socket_to

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class WhoIsThere(JsonSocket):
    """Says who the stack found behind the connection, on connect and on every frame."""

    async def connect(self) -> None:
        await self.accept()
        await self.send_json(self.who())

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send_json(self.who())

    def who(self) -> dict[str, Any]:
        user = self.scope["user"]
        return {
            "guest_key": self.scope["session"].get(GUEST_KEY_SESSION_FIELD, ""),
            "user": user.pk if user.is_authenticated else None,
        }


application = websocket_stack(WhoIsThere.as_asgi())


def socket(session_key: str | None, origin: bytes = ORIGIN) -> WebsocketCommunicator:
    return socket_to("/ws/who/", session_key, origin=origin, application=application)


def signed_in_player() -> tuple[int, str]:
    user = make_player("ada")
    return user.pk, signed_in_session(user)


async def test_a_guest_is_known_by_their_session_on_every_frame() -> None:
    session_key = await database_sync_to_async(guest_session)("guest-a")
    connection = socket(session_key)
    connected, _ = await connection.connect()
    assert connected
    assert await connection.receive_json_from(timeout=5) == {"guest_key": "guest-a", "user": None}
    await connection.send_to(text_data="again")
    assert await connection.receive_json_from(timeout=5) == {"guest_key": "guest-a", "user": None}
    await connection.disconnect()


async def test_a_signed_in_player_is_known_by_their_session() -> None:
    user_id, session_key = await database_sync_to_async(signed_in_player)()
    connection = socket(session_key)
    connected, _ = await connection.connect()
    assert connected
    assert await connection.receive_json_from(timeout=5) == {"guest_key": "", "user": user_id}
    await connection.disconnect()


async def test_no_cookie_is_an_anonymous_visitor() -> None:
    connection = socket(None)
    connected, _ = await connection.connect()
    assert connected
    assert await connection.receive_json_from(timeout=5) == {"guest_key": "", "user": None}
    await connection.disconnect()


async def test_a_socket_from_another_origin_is_refused() -> None:
    session_key = await database_sync_to_async(guest_session)("guest-a")
    connection = socket(session_key, origin=b"http://evil.example")
    connected, _ = await connection.connect()
    assert not connected
