"""The races' pages and their plain-form commands (CSRF, sign-in, who sees what)."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game.engine import Variant
from races import services
from races.models import PlayerRating, Racer, Room, RoomState, Round
from tests.races.conftest import make_player

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_lists_public_rooms_waiting_and_offers_the_form() -> None:
    ada = make_player("ada")
    public = services.room_open(user=ada, variant=Variant.TRIPEAKS, public=True, time_limit_s=None)
    private = services.room_open(
        user=ada, variant=Variant.TRIPEAKS, public=False, time_limit_s=None
    )
    page = signed_in(ada).get("/races/").content.decode()
    assert public.get_absolute_url() in page
    assert private.code not in page
    assert 'action="/races/open"' in page


def test_a_guest_sees_the_lobby_but_is_sent_to_sign_in_to_open_a_room() -> None:
    client = Client()
    assert client.get("/races/").status_code == 200
    response = client.post("/races/open", {"variant": "tripeaks", "visibility": "public"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert not Room.objects.exists()


def test_opening_a_room_goes_to_it() -> None:
    ada = make_player("ada")
    response = signed_in(ada).post(
        "/races/open",
        {"variant": "tripeaks-nowrap", "visibility": "private", "time_limit_min": "3"},
    )
    room = Room.objects.get()
    assert response.status_code == 303
    assert response["Location"] == room.get_absolute_url()
    assert (room.variant, room.public, room.time_limit_s, room.host_id) == (
        "tripeaks-nowrap",
        False,
        180,
        ada.pk,
    )


@pytest.mark.parametrize(
    "data",
    [
        {"variant": "chess", "visibility": "public"},
        {"variant": "tripeaks", "visibility": "everyone"},
        {"variant": "tripeaks", "visibility": "public", "time_limit_min": "0"},
        {"variant": "tripeaks", "visibility": "public", "time_limit_min": "61"},
        {"variant": "tripeaks", "visibility": "public", "time_limit_min": "soon"},
    ],
)
def test_a_bad_room_form_is_refused_and_opens_nothing(data) -> None:
    response = signed_in(make_player("ada")).post("/races/open", data)
    assert response.status_code == 400
    assert not Room.objects.exists()


def test_room_commands_need_the_csrf_token() -> None:
    ada, bea = make_player("ada"), make_player("bea")
    room = services.room_open(user=ada, variant=Variant.TRIPEAKS, public=True, time_limit_s=None)
    client = Client(enforce_csrf_checks=True)
    client.force_login(bea)
    assert client.post(f"/races/{room.code}/join").status_code == 403
    assert not Racer.objects.filter(user=bea).exists()


def test_join_start_and_leave_by_form(settings) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0
    ada, bea = make_player("ada"), make_player("bea")
    room = services.room_open(user=ada, variant=Variant.TRIPEAKS, public=True, time_limit_s=None)
    host, other = signed_in(ada), signed_in(bea)
    assert other.post(f"/races/{room.code}/join").status_code == 303
    assert other.post(f"/races/{room.code}/start").status_code == 303  # refused: not the host
    assert not Round.objects.exists()
    assert host.post(f"/races/{room.code}/start").status_code == 303
    assert Round.objects.filter(room=room).count() == 1
    assert other.post(f"/races/{room.code}/leave").status_code == 303
    room.refresh_from_db()
    assert room.state == RoomState.RACING  # ada still plays
    assert not Racer.objects.filter(user=bea, left_at__isnull=True).exists()


def test_the_room_page_shows_a_racer_their_own_board_only(settings) -> None:
    """While the race runs, a racer's page brings their own game's socket; nobody's page names
    another racer's game or the seed."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    ada, bea, cy = make_player("ada"), make_player("bea"), make_player("cy")
    room = services.room_open(user=ada, variant=Variant.TRIPEAKS, public=True, time_limit_s=None)
    services.room_join(code=room.code, user=bea)
    round_ = services.race_start(code=room.code, user=ada)
    games = {entry.user_id: entry.game_id for entry in round_.entries.all()}

    ada_page = signed_in(ada).get(room.get_absolute_url()).content.decode()
    onlooker_page = signed_in(cy).get(room.get_absolute_url()).content.decode()
    guest_page = Client().get(room.get_absolute_url()).content.decode()

    assert 'data-socket-path="/ws/play/"' in ada_page
    assert f'data-game-id="{games[ada.pk]}"' in ada_page
    assert str(games[bea.pk]) not in ada_page
    for page in (onlooker_page, guest_page):
        assert "data-game " not in page
        assert all(str(game_id) not in page for game_id in games.values())
    for page in (ada_page, onlooker_page, guest_page):
        assert round_.seed not in page


def test_an_unknown_room_is_not_found() -> None:
    assert Client().get("/races/nosuchroom12/").status_code == 404
    assert signed_in(make_player("ada")).post("/races/nosuchroom12/join").status_code == 404


def test_the_ratings_page_lists_rated_players() -> None:
    ada = make_player("ada")
    PlayerRating.objects.create(
        user=ada, rating=1612.4, deviation=80, races=4, updated=timezone.now()
    )
    page = signed_in(ada).get("/races/ratings/").content.decode()
    assert "ada" in page
    assert "1612" in page
    assert Client().get("/races/ratings/?page=2").status_code == 200
