"""The board settings a player keeps with their account."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client

from accounts.models import PlayerSettings
from accounts.selectors import board_preferences

pytestmark = pytest.mark.django_db

DEFAULTS = {"four_colour_deck": False, "animations": True, "confirm_draw_when_play_fits": False}


def test_the_page_shows_the_defaults_with_labels(player_client: Client) -> None:
    html = player_client.get("/accounts/settings/").content.decode()
    assert '<label for="id_four_colour_deck">Four-colour deck</label>' in html
    assert '<label for="id_confirm_draw_when_play_fits">Confirm before drawing' in html
    animations = re.search(r'<input[^>]*id="id_animations"[^>]*>', html)
    assert animations is not None
    assert "checked" in animations.group(0)
    assert 'aria-describedby="id_animations_helptext"' in animations.group(0)
    assert 'id="id_animations_helptext"' in html
    assert 'name="allow_watching"' in html


def test_settings_are_saved(player: User, player_client: Client) -> None:
    """A box left unticked is saved as off; the page says so and shows the saved values."""
    response = player_client.post(
        "/accounts/settings/", {"four_colour_deck": "on", "confirm_draw_when_play_fits": "on"}
    )
    assert response.status_code == 303
    assert response["Location"] == "/accounts/settings/"
    saved = PlayerSettings.objects.get(user=player)
    assert (saved.four_colour_deck, saved.animations, saved.confirm_draw_when_play_fits) == (
        True,
        False,
        True,
    )
    assert saved.allow_watching is False
    page = player_client.get("/accounts/settings/").content.decode()
    assert "Your settings are saved." in page
    assert board_preferences(player) == {
        "four_colour_deck": True,
        "animations": False,
        "confirm_draw_when_play_fits": True,
    }


def test_a_player_without_a_settings_row_gets_defaults_and_can_save(db: None) -> None:
    """An account made elsewhere (the admin, createsuperuser) has no row until it saves one."""
    user = User.objects.create_user("root", password="x")
    assert board_preferences(user) == DEFAULTS
    client = Client()
    client.force_login(user)
    assert client.get("/accounts/settings/").status_code == 200
    client.post("/accounts/settings/", {"animations": "on", "allow_watching": "on"})
    assert PlayerSettings.objects.get(user=user).animations is True


def test_guests_get_the_defaults() -> None:
    assert board_preferences(AnonymousUser()) == DEFAULTS


def test_new_accounts_allow_watching_by_default(player: User) -> None:
    assert PlayerSettings.objects.get(user=player).allow_watching is True
