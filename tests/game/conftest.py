"""Fixtures for the game app: players, their sessions, and websocket connections."""

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from core.broadcast import GroupMessage, group_send_many
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


def play_socket(
    session_key: str | None,
    origin: bytes = ORIGIN,
    extra_headers: Sequence[tuple[bytes, bytes]] = (),
) -> WebsocketCommunicator:
    """A player's socket (``/ws/play/``), not yet connected: it opens with no game."""
    return socket_to("/ws/play/", session_key, origin=origin, extra_headers=extra_headers)


async def game_opened(
    game_id: object, session_key: str | None, extra_headers: Sequence[tuple[bytes, bytes]] = ()
) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """A player's socket, connected, that was asked to open ``game_id``; and its answer (the
    game's state, or the error that refused it)."""
    socket = play_socket(session_key, extra_headers=extra_headers)
    connected, _ = await socket.connect()
    assert connected
    await socket.send_json_to({"type": "open", "game": str(game_id)})
    answer: dict[str, Any] = await socket.receive_json_from(timeout=5)
    return socket, answer


class Seat:
    """A guest at the table: their session, and a game of theirs."""

    def __init__(self, guest_key: str, game: Game, session_key: str) -> None:
        self.player = Player(user_id=None, guest_key=guest_key)
        self.game = game
        self.session_key = session_key

    async def connect(
        self, extra_headers: Sequence[tuple[bytes, bytes]] = ()
    ) -> WebsocketCommunicator:
        """Open a player's socket on the game and read the state ``open`` answers."""
        socket, first = await game_opened(self.game.id, self.session_key, extra_headers)
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


@pytest.fixture
def test_session_pid(transactional_db: None) -> int:
    """The database session of the test's own thread (it empties the tables afterwards)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
        return int(pid)


def cut_the_servers_connections(spared: int) -> int:
    """Terminate every session on the test database but the test's own; return how many."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), %s)",
            [spared],
        )
        (count,) = cursor.fetchone()
        return int(count)


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


def drop_broadcasts(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    """The next ``count`` broadcasts of games are lost, as when Redis goes away for a moment."""
    dropped = 0

    async def lossy(messages: Sequence[GroupMessage], *, layer: Any = None) -> bool:
        nonlocal dropped
        kept = []
        for group, message in messages:
            if dropped < count and message["type"] == "game.update":
                dropped += 1
            else:
                kept.append((group, message))
        return await group_send_many(kept, layer=layer)

    monkeypatch.setattr("core.broadcast.group_send_many", lossy)
