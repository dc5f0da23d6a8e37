"""Fixtures for the game app: players, their sessions, and websocket connections."""

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from game.engine import Variant
from game.models import Game
from game.players import GUEST_KEY_SESSION_FIELD, Player
from game.services import game_start
from tests.sockets import ORIGIN, socket_to


def guest_session(guest_key: str) -> str:
    """A stored session for a guest, as a browser would hold it; returns the session key."""
    session = SessionStore()
    session[GUEST_KEY_SESSION_FIELD] = guest_key
    session.create()
    assert session.session_key is not None
    return session.session_key


def communicator(
    game_id: object, session_key: str | None, origin: bytes = ORIGIN
) -> WebsocketCommunicator:
    return socket_to(f"/ws/games/{game_id}/", session_key, origin=origin)


class Seat:
    """A guest at the table: their session, and a game of theirs."""

    def __init__(self, guest_key: str, game: Game, session_key: str) -> None:
        self.player = Player(user_id=None, guest_key=guest_key)
        self.game = game
        self.session_key = session_key

    async def connect(self) -> WebsocketCommunicator:
        """Open a websocket to the game and read the state sent on connect."""
        socket = communicator(self.game.id, self.session_key)
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_json_from(timeout=5)
        assert first["type"] == "state", first
        return socket


@pytest.fixture
def make_seat(transactional_db: None) -> Callable[..., Awaitable[Seat]]:
    """Make a guest with a stored session and a new game (of a chosen seed, for known deals)."""
    from channels.db import database_sync_to_async as sync_to_async

    def make(guest_key: str, seed: str | None, variant: Variant) -> Seat:
        player = Player(user_id=None, guest_key=guest_key)
        game = game_start(player=player, variant=variant, seed=seed)
        return Seat(guest_key, game, guest_session(guest_key))

    async def make_async(
        guest_key: str = "guest-a", seed: str | None = "1", variant: Variant = Variant.TRIPEAKS
    ) -> Seat:
        return await sync_to_async(make)(guest_key, seed, variant)

    return make_async


def visible_cards(message: Any) -> set[str]:
    """Every string in a message that is a card code."""
    from game.engine.cards import CARDS_BY_CODE

    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str) and value in CARDS_BY_CODE:
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(message)
    return found
