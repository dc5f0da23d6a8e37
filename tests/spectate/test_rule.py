"""The rule of who may be watched (spectate.selectors.watchable_games), clause by clause, both
ways: each game below differs from a watchable one by one thing."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import PlayerSettings
from game.engine import Variant
from game.models import Game, Mode
from game.players import Player
from game.services import game_start
from spectate.selectors import game_watchable, watchable_games
from tests.accounts.helpers import make_player, play_out
from tests.spectate.conftest import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada() -> User:
    return make_player("ada")


def test_a_casual_game_in_progress_of_a_signed_in_player_can_be_watched(ada: User) -> None:
    game = start_game(ada)
    assert game_watchable(game.id)
    assert list(watchable_games()) == [game]


def test_a_guests_game_cannot_be_watched() -> None:
    """A guest never chose to allow watching."""
    game = game_start(player=Player(user_id=None, guest_key="a-guest"), variant=Variant.TRIPEAKS)
    assert not game_watchable(game.id)


def test_a_player_who_turned_watching_off_cannot_be_watched(ada: User) -> None:
    game = start_game(ada)
    PlayerSettings.objects.filter(user=ada).update(allow_watching=False)
    assert not game_watchable(game.id)
    PlayerSettings.objects.filter(user=ada).update(allow_watching=True)
    assert game_watchable(game.id)


def test_a_player_without_a_settings_row_has_the_default_which_allows_watching() -> None:
    user = User.objects.create_user(username="bare", password="peaks-and-valleys-42")
    assert not PlayerSettings.objects.filter(user=user).exists()
    assert game_watchable(start_game(user).id)


def test_a_banned_players_games_cannot_be_watched(ada: User) -> None:
    game = start_game(ada)
    User.objects.filter(pk=ada.pk).update(is_active=False)
    assert not game_watchable(game.id)


def test_a_hidden_game_cannot_be_watched(ada: User) -> None:
    game = start_game(ada)
    Game.objects.filter(id=game.id).update(hidden=True)
    assert not game_watchable(game.id)


def test_a_daily_game_can_be_watched_only_once_its_day_is_over(ada: User) -> None:
    now = timezone.now()
    today = start_game(ada, mode=Mode.DAILY, reveal_after=now + timedelta(hours=3))
    past_day = start_game(ada, mode=Mode.DAILY, reveal_after=now - timedelta(hours=3))
    assert not game_watchable(today.id)
    assert game_watchable(past_day.id)
    assert watchable_games(now=now + timedelta(hours=3)).filter(id=today.id).exists()


def test_a_race_game_can_be_watched_only_once_its_race_is_over(ada: User) -> None:
    now = timezone.now()
    running = start_game(ada, mode=Mode.RACE, reveal_after=now + timedelta(days=3650))
    ended = start_game(ada, mode=Mode.RACE, reveal_after=now - timedelta(minutes=1))
    assert not game_watchable(running.id)
    assert game_watchable(ended.id)


def test_a_game_outside_casual_play_without_a_reveal_time_is_not_watched(ada: User) -> None:
    """Only a casual game is watchable without a reveal time that has passed."""
    assert not game_watchable(start_game(ada, mode=Mode.RACE).id)


def test_a_game_dealt_ahead_of_its_start_cannot_be_watched_yet(ada: User) -> None:
    game = game_start(
        player=Player(user_id=ada.pk, guest_key=""),
        variant=Variant.TRIPEAKS,
        starts_at=timezone.now() + timedelta(seconds=10),
    )
    assert not game_watchable(game.id)


def test_a_finished_game_is_not_watched_but_its_last_state_reaches_those_watching(
    ada: User,
) -> None:
    game = start_game(ada)
    play_out(game)
    assert game.is_over
    assert not game_watchable(game.id)
    assert game_watchable(game.id, already_watching=True)


def test_already_watching_keeps_every_other_clause(ada: User) -> None:
    game = start_game(ada)
    play_out(game)
    Game.objects.filter(id=game.id).update(hidden=True)
    assert not game_watchable(game.id, already_watching=True)
