"""Board settings changed from the game page's panel: ``POST /accounts/settings/board`` (JSON)."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts import services
from accounts.models import PlayerSettings
from accounts.selectors import board_preferences
from game.models import Game
from tests.accounts.helpers import make_player

pytestmark = pytest.mark.django_db

URL = "/accounts/settings/board"
DEFAULTS = {"four_colour_deck": False, "animations": True, "confirm_draw_when_play_fits": False}


def csrf_client(user: User | None) -> tuple[Client, str]:
    """A client that enforces CSRF like a browser, signed in as ``user``, and its CSRF token."""
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    client.get("/accounts/login/" if user is None else "/accounts/settings/")
    return client, client.cookies["csrftoken"].value


def stored(user: User) -> dict[str, bool]:
    return board_preferences(user)


def test_a_change_is_stored_and_answered_204(player: User) -> None:
    client, token = csrf_client(player)

    response = client.post(
        URL,
        json.dumps({"animations": False}),
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )

    assert response.status_code == 204
    assert response.content == b""
    assert stored(player) == {**DEFAULTS, "animations": False}
    assert PlayerSettings.objects.get(user=player).allow_watching is True  # left alone


def test_several_fields_at_once_leave_the_others_alone(player: User) -> None:
    PlayerSettings.objects.filter(user=player).update(allow_watching=False)
    client, token = csrf_client(player)

    response = client.post(
        URL,
        {"four_colour_deck": True, "confirm_draw_when_play_fits": True},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )

    assert response.status_code == 204
    assert stored(player) == {
        "four_colour_deck": True,
        "animations": True,
        "confirm_draw_when_play_fits": True,
    }
    assert PlayerSettings.objects.get(user=player).allow_watching is False


def test_a_player_without_a_settings_row_gets_one(db: None) -> None:
    user = User.objects.create_user("root", password="x")
    client, token = csrf_client(user)

    response = client.post(
        URL,
        {"four_colour_deck": True},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )

    assert response.status_code == 204
    saved = PlayerSettings.objects.get(user=user)
    assert (saved.four_colour_deck, saved.animations, saved.allow_watching) == (True, True, True)


def test_a_guest_is_refused_and_nothing_is_stored(db: None) -> None:
    client, token = csrf_client(None)

    response = client.post(
        URL, {"animations": False}, content_type="application/json", headers={"X-CSRFToken": token}
    )

    assert response.status_code == 403
    assert response.json()["error"] == "login_required"
    assert not PlayerSettings.objects.exists()


def test_the_csrf_token_is_required(player: User) -> None:
    client, _ = csrf_client(player)

    missing = client.post(URL, {"animations": False}, content_type="application/json")
    wrong = client.post(
        URL,
        {"animations": False},
        content_type="application/json",
        headers={"X-CSRFToken": "x" * 32},
    )

    assert (missing.status_code, wrong.status_code) == (403, 403)
    assert stored(player) == DEFAULTS


def test_only_post(player: User) -> None:
    client, _ = csrf_client(player)
    assert client.get(URL).status_code == 405


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"", id="empty body"),
        pytest.param(b"animations=false", id="a form, not JSON"),
        pytest.param(b'{"animations": false', id="broken JSON"),
        pytest.param(b"\xff\xfe{}", id="not UTF-8"),
        pytest.param(b"{}", id="nothing to change"),
        pytest.param(b"[]", id="an array"),
        pytest.param(b"false", id="a bare boolean"),
        pytest.param(b"null", id="null"),
        pytest.param(b'{"animations": "false"}', id="a string"),
        pytest.param(b'{"animations": 0}', id="a number"),
        pytest.param(b'{"animations": null}', id="null value"),
        pytest.param(b'{"animations": [false]}', id="a list value"),
        pytest.param(b'{"allow_watching": false}', id="not a board setting"),
        pytest.param(b'{"four_colour": true}', id="an unknown field"),
        pytest.param(b'{"animations": false, "colour": true}', id="a known and an unknown field"),
        pytest.param(b'{"animations": false, "animations": true}', id="a field named twice"),
        pytest.param(b'{"animations": NaN}', id="NaN"),
    ],
)
def test_anything_but_known_booleans_is_400_and_changes_nothing(player: User, body: bytes) -> None:
    client, token = csrf_client(player)

    response = client.post(
        URL, body, content_type="application/json", headers={"X-CSRFToken": token}
    )

    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"
    assert stored(player) == DEFAULTS
    assert PlayerSettings.objects.get(user=player).allow_watching is True


def test_the_service_refuses_what_is_not_a_board_setting(player: User) -> None:
    with pytest.raises(ValueError, match="Not board settings"):
        services.board_setting_update(user=player, changes={"allow_watching": False})
    with pytest.raises(ValueError, match="Not board settings"):
        services.board_setting_update(user=player, changes={"animations": 0})  # type: ignore[dict-item]
    assert stored(player) == DEFAULTS


def test_the_game_page_brings_the_players_settings(player: User) -> None:
    """A signed-in player's game page carries their stored values and where to save changes."""
    PlayerSettings.objects.filter(user=player).update(four_colour_deck=True)
    game = Game.objects.create(seed="settings-page", owner=player, started_at=timezone.now())
    client = Client()
    client.force_login(player)

    html = client.get(game.get_absolute_url()).content.decode()

    assert 'data-signed-in="true"' in html
    assert f'data-settings-url="{URL}"' in html
    assert (
        '<script id="board-preferences" type="application/json">{"four_colour_deck": true, '
        '"animations": true, "confirm_draw_when_play_fits": false}</script>'
    ) in html
    assert 'data-setting="confirm-draw"' in html


def test_a_guests_game_page_brings_the_defaults_and_no_url(client: Client) -> None:
    client.post("/games/new", {"variant": "tripeaks"})
    game = Game.objects.get()

    html = client.get(game.get_absolute_url()).content.decode()

    assert 'data-signed-in="false"' in html
    assert "data-settings-url" not in html
    assert '"confirm_draw_when_play_fits": false' in html


def test_a_second_player_does_not_change_the_first(player: User) -> None:
    other = make_player("bea", email="bea@example.com")
    client, token = csrf_client(other)

    client.post(
        URL, {"animations": False}, content_type="application/json", headers={"X-CSRFToken": token}
    )

    assert stored(player) == DEFAULTS
    assert stored(other)["animations"] is False
