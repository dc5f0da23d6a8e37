"""Fixtures for the races app: players with accounts, their sessions, rooms and sockets."""

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from game.engine import Deal, GameState, Move, Variant
from tests.sockets import socket_to

PASSWORD = "peaks-and-valleys-42"
SEED = "1"


def make_player(username: str) -> User:
    return User.objects.create_user(username=username, password=PASSWORD)


def room_socket(code: str, session_key: str | None = None) -> WebsocketCommunicator:
    return socket_to(f"/ws/races/{code}/", session_key)


def play_socket(session_key: str) -> WebsocketCommunicator:
    """A racer's player socket (``/ws/play/``), on which they open their race's games."""
    return socket_to("/ws/play/", session_key)


def next_move(state: GameState) -> Move:
    """A plain way to play: the first card that fits, else a draw."""
    playable = state.playable_positions()
    if playable:
        return Move.parse(state.deal.tableau[playable[0]].code)
    return Move.parse("draw")


def moves_to_the_end(seed: str = SEED, variant: Variant = Variant.TRIPEAKS) -> list[str]:
    """The moves that playing :func:`next_move` on ``seed`` makes until the game is over."""
    state = GameState(Deal.from_seed(seed), variant)
    moves = []
    while not state.status.is_over:
        move = next_move(state)
        state.apply(move)
        moves.append(move.text)
    return moves


@pytest.fixture
def no_countdown(settings: Any) -> None:
    """Races start at once, so that tests can move straight away."""
    settings.RACE_COUNTDOWN_SECONDS = 0
