"""Bad input at sign-in and to the board-settings endpoint is refused with a 4xx, not a 500."""

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client

from accounts.selectors import board_preferences
from tests.accounts.helpers import PASSWORD

# Each request commits on its own, as on the site: on PostgreSQL a failed insert would otherwise
# abort the test's transaction instead of showing as a 500.
pytestmark = pytest.mark.django_db(transaction=True)

TOO_LONG = "u" * 300
"""Longer than the username field (150) and than django-axes' column of failed names (255)."""


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_a_username_longer_than_any_account_is_a_form_error(path: str) -> None:
    client = Client(raise_request_exception=False)

    response = client.post(path, {"username": TOO_LONG, "password": "guess"})

    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert SESSION_KEY not in client.session
    # Refused before authentication: no failed attempt to store, so none is.
    assert not AccessAttempt.objects.exists()
    assert not AccessFailureLog.objects.exists()


def test_a_username_of_the_longest_length_still_signs_in() -> None:
    User.objects.create_user(username="a" * 150, password=PASSWORD)
    client = Client()

    response = client.post("/accounts/login/", {"username": "a" * 150, "password": PASSWORD})

    assert response.status_code == 302
    assert SESSION_KEY in client.session


def test_board_settings_refuse_json_nested_too_deep_for_python(
    player: User, player_client: Client
) -> None:
    before = board_preferences(player)

    response = player_client.post(
        "/accounts/settings/board", "[" * 100_000, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json() == {"error": "bad_request", "message": "the body is not JSON"}
    assert board_preferences(player) == before
