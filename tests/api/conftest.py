"""Fixtures for the API's tests: an empty cache for each test, and a world of games to read."""

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import timezone

from game.engine import Deal, Variant
from game.models import Game, Mode
from game.players import Player
from game.services import game_start, new_seed
from leaderboard.models import Daily, DailyAttempt
from leaderboard.selectors import commitment_of, utc_today
from tests.accounts.helpers import make_player, play_out


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Each test starts with no cached answer and no request counted."""
    cache.clear()
    yield
    cache.clear()


def daily_made(day_offset: int, *, par: int | None = 1000) -> Daily:
    """The challenge of today plus ``day_offset`` days, made as ``daily_prepare`` makes it."""
    seed = new_seed()
    return Daily.objects.create(
        date=utc_today() + timedelta(days=day_offset),
        seed=seed,
        commitment=commitment_of(seed),
        par=par,
        created_at=timezone.now(),
    )


def daily_attempt(daily: Daily, user: User, *, finish: bool) -> Game:
    """A player's ranked attempt at a day's challenge, played out to its end if ``finish``."""
    game = game_start(
        player=Player(user_id=user.pk, guest_key=""),
        variant=Variant.TRIPEAKS,
        seed=daily.seed,
        mode=Mode.DAILY,
        secret_daily=True,
        reveal_after=daily.ends_at,
    )
    DailyAttempt.objects.create(daily=daily, user=user, game=game, created_at=timezone.now())
    if finish:
        play_out(game)
    else:
        play_out(game, moves=3)
    return game


def secrets_of(seed: str) -> list[str]:
    """What would give away a deal: its seed, and its stock and tableau in order, as any JSON
    answer would write them."""
    deal = Deal.from_seed(seed)
    stock = [card.code for card in deal.stock]
    tableau = [card.code for card in deal.tableau]
    return [seed, *(json.dumps(cards)[1:-1] for cards in (stock, tableau, stock[:8]))]


@dataclass(frozen=True, slots=True)
class World:
    """Players and games of every kind the API must read or refuse."""

    ada: User
    bob: User
    banned: User
    finished: Game
    """bob's casual game, played to its end: its deal is public."""
    playing: Game
    """bob's game in play: nothing of its deal may show."""
    guest_playing: Game
    daily_done: Game
    """ada's ranked attempt at today's challenge, finished: secret until the day is over."""
    daily_playing: Game
    yesterday: Daily
    today: Daily
    tomorrow: Daily
    """Made ahead, as the scheduled work makes the next days'."""

    @property
    def secrets(self) -> list[str]:
        """Everything no answer may hold: the seeds and deals of the games whose deal is secret,
        today's and tomorrow's seeds."""
        hidden = [self.playing, self.guest_playing, self.daily_done, self.daily_playing]
        seeds = [game.seed for game in hidden] + [self.today.seed, self.tomorrow.seed]
        return [secret for seed in seeds for secret in secrets_of(seed)]

    @property
    def path_values(self) -> dict[str, list[str]]:
        games = [self.finished, self.playing, self.guest_playing, self.daily_done]
        return {
            "game_id": [str(game.id) for game in [*games, self.daily_playing]],
            "username": [self.bob.username, self.ada.username, self.banned.username],
            "day": [str(self.yesterday.date), str(self.today.date), str(self.tomorrow.date)],
            "kind": ["best", "wins", "rate", "streak"],
        }


def start(user: User | None) -> Game:
    player = Player(user_id=user.pk if user else None, guest_key="" if user else "a-guest")
    return game_start(player=player, variant=Variant.TRIPEAKS)


@pytest.fixture
def world(db: None) -> World:
    ada, bob = make_player("ada"), make_player("bob", email="bob@example.com")
    banned = make_player("mallory", email="mallory@example.com")
    finished = start(bob)
    play_out(finished)
    playing = start(bob)
    play_out(playing, moves=4)
    banned_game = start(banned)
    play_out(banned_game)
    banned.is_active = False
    banned.save()
    yesterday, today, tomorrow = daily_made(-1), daily_made(0), daily_made(1)
    return World(
        ada=ada,
        bob=bob,
        banned=banned,
        finished=finished,
        playing=playing,
        guest_playing=start(None),
        daily_done=daily_attempt(today, ada, finish=True),
        daily_playing=daily_attempt(today, bob, finish=False),
        yesterday=yesterday,
        today=today,
        tomorrow=tomorrow,
    )


def body(response: Any) -> Any:
    """A JSON answer's body."""
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return json.loads(response.content)
