"""Fixtures for the leaderboard tests: a clock that stands still, and players."""

from collections.abc import Callable
from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from game.models import Game
from leaderboard import challenge
from leaderboard.models import Daily
from tests.accounts.helpers import make_player, signed_in
from tests.game.conftest import make_seat  # noqa: F401  (a fixture shared with game's tests)
from tests.leaderboard.helpers import DAY, at, play_out


class Clock:
    """The time every ``timezone.now()`` call sees, until the test moves it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._monkeypatch = monkeypatch

    def set(self, moment: datetime) -> None:
        self._monkeypatch.setattr(timezone, "now", lambda: moment)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


@pytest.fixture
def players(db: None) -> Callable[..., list[User]]:
    """Make ``count`` players named p000, p001, …"""

    def make(count: int, prefix: str = "p") -> list[User]:
        return [make_player(f"{prefix}{i:03}", email="") for i in range(count)]

    return make


@pytest.fixture
def ada(db: None) -> User:
    return make_player("ada")


@pytest.fixture
def ada_client(ada: User) -> Client:
    return signed_in(ada)


@pytest.fixture
def finished_attempt(clock: Clock, ada: User) -> Game:
    """Ada's ranked attempt at DAY's challenge (par 2000), played out on the day."""
    clock.set(at(DAY, 14))
    daily = challenge.daily_for(DAY)
    Daily.objects.filter(id=daily.id).update(par=2000)
    game = challenge.daily_attempt_start(user=ada, day=DAY)
    play_out(game, finished_at=at(DAY, 14, 6))
    return game
