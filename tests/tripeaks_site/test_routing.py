"""A websocket to a path that names no socket is refused cleanly: an error frame, close 4404."""

import json

import pytest
from channels.db import database_sync_to_async

from tests.accounts.helpers import make_player, signed_in_session
from tests.fuzz import UNROUTED_SOCKET_PATHS
from tests.sockets import socket_to

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

NOT_FOUND = {"type": "error", "code": "not_found", "message": "No such socket"}


async def refusal(path: str, session_key: str | None = None) -> tuple[dict[str, str], int]:
    """The frame a socket to ``path`` sends on connect, and its close code."""
    socket = socket_to(path, session_key)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    frame = json.loads(await socket.receive_from(timeout=5))
    closed = await socket.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    await socket.disconnect()
    return frame, closed["code"]


@pytest.mark.parametrize("path", UNROUTED_SOCKET_PATHS)
async def test_a_path_without_a_route_is_not_found(path: str) -> None:
    assert await refusal(path) == (NOT_FOUND, 4404)


async def test_a_signed_in_player_is_refused_the_same_way() -> None:
    session_key = await database_sync_to_async(lambda: signed_in_session(make_player("ada")))()

    assert await refusal("/ws/nothing/", session_key) == (NOT_FOUND, 4404)


async def test_a_nul_byte_never_reaches_a_route_that_would_match_it() -> None:
    """``/ws/races/<str:code>/`` matches any code; a NUL byte in it would fail on PostgreSQL."""
    assert await refusal("/ws/races/a%00b/") == (NOT_FOUND, 4404)
    assert await refusal("/ws/daily/2026-11-30/%00") == (NOT_FOUND, 4404)
