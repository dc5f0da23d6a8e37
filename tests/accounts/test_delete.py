"""'Delete my account': the account, its games and sessions go; nothing about the player stays."""

import pytest
from django.apps import apps
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import models
from django.test import Client

from accounts.models import PlayerSettings, SessionOwner
from game.models import Game, Move
from game.players import GUEST_KEY_SESSION_FIELD
from tests.accounts.helpers import PASSWORD, play_out

pytestmark = pytest.mark.django_db

USERNAME = "zebulon-42"
EMAIL = "zebulon@example.org"
NEW_PASSWORD = "three-peaks-at-dawn-7"


def rows_naming(text: str) -> list[str]:
    """Every stored row, in any model, with ``text`` in one of its text columns."""
    found = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if (
                isinstance(field, models.CharField | models.TextField)
                and model._default_manager.filter(**{f"{field.name}__icontains": text}).exists()
            ):
                found.append(f"{model._meta.label}.{field.name}")
    return found


def rows_referring_to(user_id: int) -> list[str]:
    """Every stored row, in any model, whose foreign key points at this user id."""
    found = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if (
                field.is_relation
                and field.related_model is User
                and model._default_manager.filter(**{field.attname: user_id}).exists()
            ):
                found.append(f"{model._meta.label}.{field.name}")
    return found


def sessions_signed_in_as(user_id: int) -> int:
    return sum(1 for s in Session.objects.all() if s.get_decoded().get(SESSION_KEY) == str(user_id))


@pytest.fixture
def zebulon() -> tuple[User, Client, Client]:
    """A player with a history: guest games claimed at sign-up, a game in play, saved settings,
    a failed sign-in, a password change, two devices signed in, and a staff note on the account."""
    laptop = Client()
    laptop.post("/games/new")
    laptop.post("/games/new")
    guest_games = list(Game.objects.all())
    play_out(guest_games[0])
    play_out(guest_games[1], moves=2)
    laptop.post(
        "/accounts/signup/",
        {"username": USERNAME, "email": EMAIL, "password1": PASSWORD, "password2": PASSWORD},
    )
    user = User.objects.get(username=USERNAME)
    laptop.post("/accounts/settings/", {"four_colour_deck": "on"})
    Client(REMOTE_ADDR="203.0.113.9").post(
        "/accounts/login/", {"username": USERNAME, "password": "a guess"}
    )
    phone = Client(REMOTE_ADDR="198.51.100.7")
    phone.post("/accounts/login/", {"username": USERNAME, "password": PASSWORD})
    laptop.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    phone.post("/accounts/login/", {"username": USERNAME, "password": NEW_PASSWORD})
    staff = User.objects.create_superuser("staff", password="staff-password-1")
    LogEntry.objects.log_actions(
        staff.pk, [user], CHANGE, change_message=f"Warned {USERNAME} about their name"
    )
    return user, laptop, phone


@pytest.fixture
def bystander() -> User:
    """Another player, whose things must all stay."""
    bea = User.objects.create_user("bea", email="bea@example.com", password=PASSWORD)
    PlayerSettings.objects.create(user=bea)
    client = Client()
    client.force_login(bea)
    client.post("/games/new")
    return bea


def test_the_page_asks_for_the_password(zebulon: tuple[User, Client, Client]) -> None:
    _, laptop, _ = zebulon
    html = laptop.get("/accounts/delete/").content.decode()
    assert '<label for="id_password">Your password:</label>' in html
    assert "cannot be undone" in html


def test_a_wrong_password_deletes_nothing(zebulon: tuple[User, Client, Client]) -> None:
    user, laptop, _ = zebulon
    response = laptop.post("/accounts/delete/", {"password": PASSWORD})  # the old one
    assert response.status_code == 200
    assert "That is not your password." in response.content.decode()
    assert User.objects.filter(pk=user.pk).exists()
    assert Game.objects.filter(owner=user).count() == 2


def test_deleting_leaves_nothing_behind(
    zebulon: tuple[User, Client, Client], bystander: User
) -> None:
    """No row points at the account, names the player or their email; every session is over."""
    user, laptop, phone = zebulon
    user_id = user.pk
    guest_key = laptop.session[GUEST_KEY_SESSION_FIELD]
    assert sessions_signed_in_as(user_id) == 2
    assert SessionOwner.objects.filter(user_id=user_id).count() == 2
    assert rows_naming(USERNAME)  # the failed sign-in and the staff note name them, for now
    kept_games = set(Game.objects.exclude(owner=user).values_list("id", flat=True))
    kept_moves = Move.objects.exclude(game__owner=user).count()

    response = laptop.post("/accounts/delete/", {"password": NEW_PASSWORD})
    assert response.status_code == 303
    assert response["Location"] == "/"
    assert "Your account and your games are deleted." in laptop.get("/").content.decode()

    assert not User.objects.filter(pk=user_id).exists()
    assert rows_referring_to(user_id) == []
    assert rows_naming(USERNAME) == []
    assert rows_naming(EMAIL) == []
    assert rows_naming(guest_key) == []
    assert sessions_signed_in_as(user_id) == 0
    assert not LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(User), object_id=str(user_id)
    ).exists()
    assert not Move.objects.filter(game__owner_id=user_id).exists()
    assert Game.objects.filter(owner__isnull=True).count() == 0
    # Both devices are signed out.
    assert laptop.get("/accounts/profile/").status_code == 302
    assert phone.get("/accounts/profile/").status_code == 302
    # The other player keeps everything.
    assert set(Game.objects.values_list("id", flat=True)) == kept_games
    assert Move.objects.count() == kept_moves
    assert PlayerSettings.objects.filter(user=bystander).exists()
    assert sessions_signed_in_as(bystander.pk) == 1


def test_the_deleted_name_can_be_signed_up_again(zebulon: tuple[User, Client, Client]) -> None:
    """Nothing of the old account lingers to be inherited by a new one of the same name."""
    _, laptop, _ = zebulon
    laptop.post("/accounts/delete/", {"password": NEW_PASSWORD})
    newcomer = Client()
    response = newcomer.post(
        "/accounts/signup/",
        {"username": USERNAME, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 303
    assert "No games yet" in newcomer.get("/accounts/profile/").content.decode()


def test_deleting_needs_a_post(zebulon: tuple[User, Client, Client]) -> None:
    user, laptop, _ = zebulon
    assert laptop.get("/accounts/delete/", {"password": NEW_PASSWORD}).status_code == 200
    assert laptop.put("/accounts/delete/").status_code == 405
    assert User.objects.filter(pk=user.pk).exists()
