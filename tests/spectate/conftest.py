"""Fixtures for the spectate tests: players with accounts and games, and spectators' sockets."""

from collections.abc import Callable
from datetime import datetime

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from game.engine import Variant
from game.models import Game, Mode
from game.players import Player
from game.services import game_start
from tests.accounts.helpers import make_player, signed_in_session
from tests.game.conftest import game_opened
from tests.sockets import socket_to

SEED = "1"


def start_game(
    user: User,
    *,
    mode: Mode = Mode.CASUAL,
    reveal_after: datetime | None = None,
    seed: str = SEED,
) -> Game:
    return game_start(
        player=Player(user_id=user.pk, guest_key=""),
        variant=Variant.TRIPEAKS,
        mode=mode,
        seed=seed,
        reveal_after=reveal_after,
    )


class Table:
    """A signed-in player, their session and a game of theirs in progress."""

    def __init__(self, user: User, game: Game, session_key: str) -> None:
        self.user = user
        self.game = game
        self.session_key = session_key

    async def connect(self) -> WebsocketCommunicator:
        """The player's own socket with the game opened, its state read."""
        socket, first = await game_opened(self.game.id, self.session_key)
        assert first["type"] == "state", first
        return socket


@pytest.fixture
def make_table(transactional_db: None) -> Callable[..., object]:
    """Make a player (``ada`` unless named) with a signed-in session and a casual game."""

    @database_sync_to_async
    def make(username: str = "ada", seed: str = SEED) -> Table:
        user = make_player(username, email="")
        return Table(user, start_game(user, seed=seed), signed_in_session(user))

    return make


def watch_socket(game_id: object, session_key: str | None = None) -> WebsocketCommunicator:
    """A spectator's socket to a game (a guest's unless a session is given)."""
    return socket_to(f"/ws/watch/{game_id}/", session_key)
