"""Signing up, in and out, changing and resetting a password, and who may see the account pages."""

import re
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.forms import SignUpForm
from accounts.models import PlayerSettings
from game.models import Game
from tests.accounts.helpers import PASSWORD, make_player

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "three-peaks-at-dawn-7"


def sign_up(client: Client, username: str = "grace", **fields: str) -> Any:
    data = {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data | fields)


def test_sign_up_signs_in_shows_the_profile_and_signs_out(client: Client) -> None:
    """A new player is signed in at once, lands on their profile, and can sign out with a POST."""
    assert client.get("/accounts/signup/").status_code == 200
    response = sign_up(client, "grace", email="grace@example.com")
    assert response.status_code == 303
    assert response["Location"] == "/accounts/profile/"
    user = User.objects.get(username="grace")
    assert user.email == "grace@example.com"
    assert user.check_password(PASSWORD)
    assert PlayerSettings.objects.filter(user=user).exists()
    assert client.session[SESSION_KEY] == str(user.pk)

    profile = client.get("/accounts/profile/")
    html = profile.content.decode()
    assert profile.status_code == 200
    assert "Welcome, grace!" in html
    assert "Your profile" in html
    assert 'action="/accounts/logout/"' in html  # the nav's sign-out form

    signed_out = client.post("/accounts/logout/")
    assert signed_out.status_code == 302
    assert signed_out["Location"] == "/"
    assert SESSION_KEY not in client.session
    assert client.get("/accounts/profile/").status_code == 302


def test_signing_out_needs_a_post(player_client: Client) -> None:
    """A link (GET) cannot sign anyone out."""
    assert player_client.get("/accounts/logout/").status_code == 405
    assert player_client.get("/accounts/profile/").status_code == 200


def test_sign_in_and_the_nav(player: User) -> None:
    """Signing in with the right password goes to the profile; the nav then offers sign-out."""
    client = Client()
    home = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in home
    assert 'href="/accounts/signup/"' in home
    response = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    home = client.get("/").content.decode()
    assert 'href="/accounts/profile/"' in home
    assert "Sign out" in home
    assert 'href="/accounts/login/"' not in home


def test_a_wrong_password_is_refused_with_a_message(player: User, client: Client) -> None:
    response = client.post("/accounts/login/", {"username": "ada", "password": "not-it"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert SESSION_KEY not in client.session


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"password1": "k7-peak", "password2": "k7-peak"}, "password2", "too short"),
        ({"password1": "password123", "password2": "password123"}, "password2", "too common"),
        ({"password1": "73914682051", "password2": "73914682051"}, "password2", "entirely numeric"),
        ({"password2": "something-else-9"}, "password2", "didn’t match"),
        ({"username": "bad name!"}, "username", "Enter a valid username"),
        ({"username": "ADA"}, "username", "already exists"),
        ({"email": "not-an-address"}, "email", "valid email"),
    ],
)
def test_sign_up_checks_the_fields(fields: dict[str, str], field: str, message: str) -> None:
    """Django's username and password validators apply; usernames are unique whatever the case.

    Each error is tied to its input by aria-describedby, and the input is marked invalid.
    """
    make_player("ada")
    client = Client()
    response = sign_up(client, **fields)
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert f'id="id_{field}_error"' in html
    describedby = re.search(rf'<input[^>]*id="id_{field}"[^>]*>', html)
    assert describedby is not None
    assert f"id_{field}_error" in describedby.group(0)
    assert 'aria-invalid="true"' in describedby.group(0)
    assert User.objects.count() == 1
    assert SESSION_KEY not in client.session


def test_the_password_rules_are_shown_before_signing_up(client: Client) -> None:
    html = client.get("/accounts/signup/").content.decode()
    assert "at least 8 characters" in html
    assert 'aria-describedby="id_password1_helptext"' in html


def test_a_signed_in_player_is_sent_from_sign_up_and_sign_in_to_their_profile(
    player_client: Client,
) -> None:
    assert player_client.get("/accounts/signup/")["Location"] == "/accounts/profile/"
    assert player_client.get("/accounts/login/")["Location"] == "/accounts/profile/"


def test_password_change(player: User, player_client: Client) -> None:
    """The old password is asked for; the new one must pass the validators; the player stays in."""
    url = "/accounts/password/change/"
    assert player_client.get(url).status_code == 200
    wrong = player_client.post(
        url,
        {"old_password": "guess", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert "Your old password was entered incorrectly" in wrong.content.decode()
    weak = player_client.post(
        url, {"old_password": PASSWORD, "new_password1": "abc", "new_password2": "abc"}
    )
    assert "too short" in weak.content.decode()
    done = player_client.post(
        url,
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.status_code == 302
    assert done["Location"] == "/accounts/password/change/done/"
    assert player_client.get(done["Location"]).status_code == 200
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
    assert player_client.get("/accounts/profile/").status_code == 200  # still signed in
    client = Client()
    assert (
        client.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code
        == 200
    )
    assert (
        client.post("/accounts/login/", {"username": "ada", "password": NEW_PASSWORD}).status_code
        == 302
    )


def test_password_reset_by_email(player: User, client: Client) -> None:
    """The email holds a link that works once; the new password signs in."""
    response = client.post("/accounts/password/reset/", {"email": "ada@example.com"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ada@example.com"]
    assert message.subject == "Reset your TriPeaks Online password"
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/\S+/)", str(message.body))
    assert link is not None, message.body

    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200
    assert "Choose a new password" in form.content.decode()
    set_url = form.redirect_chain[-1][0]  # Django swaps the token for a session marker
    done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert done["Location"] == "/accounts/password/reset/done/"
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)

    again = client.get(link.group(1), follow=True)
    assert "This link no longer works" in again.content.decode()
    signed_in = client.post("/accounts/login/", {"username": "ada", "password": NEW_PASSWORD})
    assert signed_in.status_code == 302


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(
    player: User, client: Client
) -> None:
    """The page does not tell whether an address has an account."""
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response["Location"] == "/accounts/password/reset/sent/"
    assert mail.outbox == []


@pytest.mark.parametrize(
    "url",
    [
        "/accounts/profile/",
        "/accounts/settings/",
        "/accounts/data/",
        "/accounts/export.json",
        "/accounts/delete/",
        "/accounts/password/change/",
    ],
)
def test_account_pages_send_a_visitor_to_sign_in(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={url}"


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/accounts/signup/", {"username": "eve", "password1": PASSWORD, "password2": PASSWORD}),
        ("/accounts/login/", {"username": "ada", "password": PASSWORD}),
        ("/accounts/logout/", {}),
        ("/accounts/settings/", {"four_colour_deck": "on"}),
        ("/accounts/delete/", {"password": PASSWORD}),
        (
            "/accounts/password/change/",
            {
                "old_password": PASSWORD,
                "new_password1": NEW_PASSWORD,
                "new_password2": NEW_PASSWORD,
            },
        ),
        ("/accounts/password/reset/", {"email": "ada@example.com"}),
    ],
)
def test_every_form_needs_the_csrf_token(player: User, url: str, data: dict[str, str]) -> None:
    """Another site cannot post any account form in a visitor's name."""
    client = Client(enforce_csrf_checks=True)
    if url not in {"/accounts/signup/", "/accounts/login/", "/accounts/password/reset/"}:
        client.force_login(player)
    response = client.post(url, data)
    assert response.status_code == 403
    player.refresh_from_db()
    assert player.check_password(PASSWORD)
    assert User.objects.filter(username="ada").exists()
    assert not User.objects.filter(username="eve").exists()
    assert not PlayerSettings.objects.filter(four_colour_deck=True).exists()
    assert mail.outbox == []


def test_a_form_with_its_token_goes_through(player: User) -> None:
    """The same check passes for the site's own form, token included."""
    client = Client(enforce_csrf_checks=True)
    page = client.get("/accounts/login/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    response = client.post(
        "/accounts/login/",
        {"username": "ada", "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)},
    )
    assert response.status_code == 302


def test_a_username_taken_meanwhile_is_a_form_error(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sign-ups racing for one name: the loser is told, and nothing of theirs is written."""
    make_player("grace")
    monkeypatch.setattr(SignUpForm, "clean_username", lambda form: form.cleaned_data["username"])
    monkeypatch.setattr(SignUpForm, "validate_unique", lambda form: None)
    client.post("/games/new")
    response = sign_up(client, "grace")
    assert response.status_code == 200
    assert "Someone took this username a moment ago" in response.content.decode()
    assert SESSION_KEY not in client.session
    assert Game.objects.get().owner is None
    assert PlayerSettings.objects.count() == 1
