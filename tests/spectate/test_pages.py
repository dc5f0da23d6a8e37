"""The live-now page, its JSON, and the watch page: who gets the board, who is sent elsewhere."""

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import PlayerSettings
from game.engine import Variant
from game.models import Game, Mode
from game.players import Player
from game.services import game_start
from spectate.selectors import LIVE_NOW_LIMIT, LIVE_WINDOW, live_now
from tests.accounts.helpers import make_player, play_out, signed_in
from tests.spectate.conftest import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada() -> User:
    return make_player("ada")


def moved(game: Game, *, ago: timedelta) -> Game:
    """Say the game's last move was ``ago`` (it started just before)."""
    now = timezone.now()
    Game.objects.filter(id=game.id).update(started_at=now - ago - timedelta(seconds=30))
    Game.objects.filter(id=game.id).update(last_move_at=now - ago, move_count=3, score=30)
    game.refresh_from_db()
    return game


def test_the_live_page_says_when_nobody_can_be_watched(client: Client) -> None:
    response = client.get("/live/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Nobody is playing a game that can be watched right now" in html
    assert re.search(r"data-live-table\s+hidden", html)


def test_the_live_page_lists_watchable_games_most_recently_active_first(client: Client) -> None:
    early = moved(start_game(make_player("early")), ago=timedelta(minutes=5))
    late = moved(start_game(make_player("late")), ago=timedelta(seconds=5))
    fresh = start_game(make_player("fresh"))  # no move yet: its start counts
    assert [row.game_id for row in live_now()] == [fresh.id, late.id, early.id]

    html = client.get("/live/").content.decode()
    assert html.index("/watch/" + str(fresh.id)) < html.index("/watch/" + str(late.id))
    assert html.index("/watch/" + str(late.id)) < html.index("/watch/" + str(early.id))
    assert "3 games live now." in html
    assert "Nobody is playing" in html  # the empty state is in the page, hidden
    assert re.search(r"data-live-empty\s+hidden", html)
    assert 'aria-label="Watch late’s game"' in html


def test_the_live_page_leaves_out_idle_finished_and_unwatchable_games(ada: User) -> None:
    moved(start_game(make_player("idle")), ago=LIVE_WINDOW + timedelta(seconds=1))
    finished = start_game(make_player("done"))
    play_out(finished)
    private = make_player("private")
    PlayerSettings.objects.filter(user=private).update(allow_watching=False)
    start_game(private)
    start_game(ada, mode=Mode.DAILY, reveal_after=timezone.now() + timedelta(hours=1))
    game_start(player=Player(user_id=None, guest_key="guest"), variant=Variant.TRIPEAKS)
    assert live_now() == []


def test_the_live_list_is_limited(ada: User) -> None:
    for _ in range(LIVE_NOW_LIMIT + 1):
        start_game(ada)
    assert len(live_now()) == LIVE_NOW_LIMIT


def test_the_live_json_names_players_and_figures_never_a_card_or_seed(client: Client) -> None:
    game = moved(start_game(make_player("ada"), seed="a-secret-seed"), ago=timedelta(seconds=1))
    response = client.get("/live.json")
    assert response.status_code == 200
    body = response.json()
    assert body["window_minutes"] == 10
    [entry] = body["games"]
    assert game.last_move_at is not None
    assert entry == {
        "id": str(game.id),
        "player": "ada",
        "variant": "TriPeaks",
        "score": 30,
        "cards_left": 28,
        "moves": 3,
        "started_at": game.started_at.isoformat().replace("+00:00", "Z"),
        "active_at": game.last_move_at.isoformat().replace("+00:00", "Z"),
        "watch_url": f"/watch/{game.id}/",
        "player_url": "/players/ada/",
    }
    assert game.seed not in json.dumps(body)


def test_the_live_pages_answer_only_reads(client: Client) -> None:
    assert client.post("/live/").status_code == 405
    assert client.post("/live.json").status_code == 405


def test_the_watch_page_shows_the_players_name_and_the_socket_but_no_seed(
    client: Client, ada: User
) -> None:
    game = start_game(ada, seed="a-secret-seed")
    response = client.get(f"/watch/{game.id}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert f'data-socket-path="/ws/watch/{game.id}/"' in html
    assert 'data-player="ada"' in html
    assert re.search(r"Watching <a href=\"/players/ada/\">ada</a>", html)
    assert "a-secret-seed" not in html
    assert not re.search(r"data-(abandon|hint)\b", html)  # nothing to play with


def test_the_watch_page_of_a_game_that_cannot_be_watched_is_forbidden(
    client: Client, ada: User
) -> None:
    game = start_game(ada)
    Game.objects.filter(id=game.id).update(hidden=True)
    response = client.get(f"/watch/{game.id}/")
    assert response.status_code == 403
    assert "This game cannot be watched" in response.content.decode()


def test_a_guests_game_cannot_be_watched_on_its_page(client: Client) -> None:
    game = game_start(player=Player(user_id=None, guest_key="guest"), variant=Variant.TRIPEAKS)
    assert client.get(f"/watch/{game.id}/").status_code == 403


def test_an_unknown_game_is_not_found(client: Client) -> None:
    assert client.get("/watch/00000000-0000-4000-8000-000000000000/").status_code == 404
    assert client.get("/watch/not-a-uuid/").status_code == 404


def test_the_player_is_sent_to_their_own_board(ada: User) -> None:
    game = start_game(ada)
    response = signed_in(ada).get(f"/watch/{game.id}/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.id}/"


def test_a_finished_game_sends_spectators_to_its_own_page(client: Client, ada: User) -> None:
    game = start_game(ada)
    play_out(game)
    response = client.get(f"/watch/{game.id}/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.id}/"


def test_a_signed_in_spectator_watches_with_their_board_settings(ada: User) -> None:
    bea = make_player("bea")
    PlayerSettings.objects.filter(user=bea).update(four_colour_deck=True)
    html = signed_in(bea).get(f"/watch/{start_game(ada).id}/").content.decode()
    assert '"four_colour_deck": true' in html
