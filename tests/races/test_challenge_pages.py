"""Friend challenges' pages: made from the lobby's form, shared by link, played once from the
page, the deal and everyone's games hidden (pages and exports) until the challenge is over."""

import pytest
from django.test import Client
from django.urls import reverse

from game.engine import Variant
from game.models import Game, Mode
from races import challenges
from races.models import Entry, Room, RoomKind
from tests.leaderboard.helpers import play_out
from tests.races.conftest import SEED, make_player
from tests.races.test_views import signed_in

pytestmark = pytest.mark.django_db

FORM = {"variant": "tripeaks", "players": "2", "open_days": "7", "time_limit_min": ""}


def make_challenge(host, players: int = 2) -> Room:
    return challenges.challenge_open(
        user=host,
        variant=Variant.TRIPEAKS,
        players=players,
        open_days=7,
        time_limit_s=None,
        seed=SEED,
    )


def play(client: Client, room: Room) -> Game:
    response = client.post(f"/challenges/{room.code}/play")
    assert response.status_code == 303
    return Game.objects.get(id=response["Location"].split("/")[2])


def test_the_lobby_and_the_home_page_offer_a_challenge() -> None:
    page = signed_in(make_player("ada")).get("/races/").content.decode()
    assert 'action="/challenges/open"' in page
    assert 'id="challenge_time_limit_min"' in page
    assert 'id="id_time_limit_min"' in page
    assert "/races/#challenge-title" in Client().get("/").content.decode()


def test_a_player_makes_a_challenge_and_lands_on_its_page_with_the_link() -> None:
    ada = make_player("ada")
    client = signed_in(ada)
    response = client.post("/challenges/open", FORM)
    assert response.status_code == 303
    room = Room.objects.get()
    assert (room.kind, room.host, room.players, room.public) == (RoomKind.CHALLENGE, ada, 2, False)
    assert response["Location"] == f"/challenges/{room.code}/"
    page = client.get(response["Location"]).content.decode()
    assert f"http://testserver/challenges/{room.code}/" in page
    assert f'action="/challenges/{room.code}/play"' in page
    assert f'data-socket-path="/ws/races/{room.code}/"' in page
    assert Client().get(f"/races/{room.code}/")["Location"] == f"/challenges/{room.code}/"


@pytest.mark.parametrize(
    "change", [{"players": "1"}, {"players": "9"}, {"open_days": "0"}, {"time_limit_min": "61"}]
)
def test_a_bad_form_makes_nothing(change: dict[str, str]) -> None:
    response = signed_in(make_player("ada")).post("/challenges/open", {**FORM, **change})
    assert response.status_code == 400
    assert not Room.objects.exists()


def test_a_guest_may_follow_a_challenge_but_is_sent_to_sign_in_to_make_or_play_one() -> None:
    room = make_challenge(make_player("ada"))
    guest = Client()
    assert guest.post("/challenges/open", FORM)["Location"].startswith(reverse("accounts:login"))
    page = guest.get(room.get_absolute_url())
    assert page.status_code == 200
    assert "Sign in" in page.content.decode()
    assert guest.post(f"/challenges/{room.code}/play")["Location"].startswith(
        reverse("accounts:login")
    )
    assert not Entry.objects.exists()
    assert Client().get("/challenges/nope/").status_code == 404


def test_each_plays_once_and_nothing_shows_the_deal_until_all_have_played() -> None:
    ada, bob = make_player("ada"), make_player("bob")
    room = make_challenge(ada)
    ada_client, bob_client = signed_in(ada), signed_in(bob)
    game = play(ada_client, room)
    assert game.mode == Mode.CHALLENGE
    assert play(ada_client, room) == game  # once: the same game
    assert ada_client.get(game.get_absolute_url()).status_code == 200  # the ordinary game page
    play_out(game)
    export = ada_client.get(f"/games/{game.id}/export.json")
    assert export.status_code == 409
    assert export.json()["error"] == "deal_hidden"
    page = bob_client.get(room.get_absolute_url()).content.decode()
    assert str(game.id) not in page
    assert "data-seed" not in page
    assert ">ada<" in page
    assert "Play the challenge" in page
    bobs = play(bob_client, room)
    assert (
        "Play the challenge"
        not in signed_in(make_player("cy")).get(room.get_absolute_url()).content.decode()
    )  # all the players it is for have started
    play_out(bobs)
    page = bob_client.get(room.get_absolute_url()).content.decode()  # reading it ends it
    assert str(game.id) in page
    assert str(bobs.id) in page
    assert "data-seed" in page
    assert f"<code>{SEED}</code>" in page
    assert ada_client.get(f"/games/{game.id}/export.json").status_code == 200
    response = signed_in(make_player("dee")).post(f"/challenges/{room.code}/play")
    assert response.status_code == 303
    assert response["Location"] == room.get_absolute_url()
    assert Entry.objects.count() == 2
