"""The home page's way back in: the visitor's game still in play
(``game.selectors.unfinished_game``) and today's daily challenge
(``leaderboard.selectors.home_daily``, through ``game.pages``)."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.models import Game, Mode, Status
from game.players import Player
from game.selectors import unfinished_game
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, give_up

pytestmark = pytest.mark.django_db


def start_game(client: Client) -> Game:
    response = client.post("/games/new", {"variant": "tripeaks"})
    assert response.status_code == 303
    return Game.objects.get(id=response["Location"].split("/")[2])


def continue_link(html: str) -> str | None:
    """Where the home page's "Continue your game" goes, if it offers it."""
    found = re.search(r'<a class="[^"]*" href="([^"]+)">Continue your game</a>', html)
    return found.group(1) if found else None


def test_a_new_visitor_is_offered_no_game(client: Client) -> None:
    html = client.get("/").content.decode()
    assert continue_link(html) is None
    assert "Still being built" not in html


def test_a_guest_carries_on_with_the_game_they_touched_last(client: Client) -> None:
    first = start_game(client)
    second = start_game(client)

    assert continue_link(client.get("/").content.decode()) == second.get_absolute_url()

    Game.objects.filter(id=second.id).update(status=Status.LOST, finished_at=second.started_at,
                                             duration_ms=0)  # fmt: skip
    assert continue_link(client.get("/").content.decode()) == first.get_absolute_url()


def test_another_visitor_s_game_is_never_offered(client: Client) -> None:
    start_game(client)
    stranger = Client()
    assert continue_link(stranger.get("/").content.decode()) is None
    assert unfinished_game(Player(user_id=None, guest_key="")) is None


def test_a_race_s_game_is_left_to_its_room(ada: User) -> None:
    Game.objects.create(seed="1", owner=ada, mode=Mode.RACE, deal_source="race",
                        started_at=at(DAY, 9))  # fmt: skip
    assert unfinished_game(Player(user_id=ada.pk, guest_key="")) is None


def test_today_s_daily_stands_on_the_home_page(
    clock: Clock, ada: User, ada_client: Client, client: Client
) -> None:
    clock.set(at(DAY, 10))
    html = client.get("/").content.decode()
    assert "Today's deal" in html
    assert "Play today's challenge" in html
    assert "Nobody has played it yet" in html

    attempt = ada_client.post("/daily/start")
    game = Game.objects.get(id=attempt["Location"].split("/")[2])
    html = ada_client.get("/").content.decode()
    assert "Resume your attempt" in html
    assert continue_link(html) == game.get_absolute_url()
    assert "your daily attempt" in html

    give_up(game, finished_at=at(DAY, 10, 5))
    html = ada_client.get("/").content.decode()
    assert continue_link(html) is None
    assert "See today's board" in html
    assert "1 player so far" in client.get("/").content.decode()
