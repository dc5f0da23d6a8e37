"""Fixtures for the moderation tests: a moderator, staff without the moderator group, players."""

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from tests.accounts.helpers import make_player, signed_in
from tests.game.conftest import make_seat, sockets  # noqa: F401  (fixtures shared with game's)
from tests.leaderboard.conftest import clock  # noqa: F401


def make_moderator(username: str = "mona") -> User:
    """Staff in the "moderator" group that the migration makes: not a superuser."""
    user = make_player(username, email=f"{username}@example.com")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name="moderator"))
    return User.objects.get(pk=user.pk)  # fresh, without a permission cache


@pytest.fixture
def moderator(db: None) -> User:
    return make_moderator()


@pytest.fixture
def moderator_client(moderator: User) -> Client:
    return signed_in(moderator)


@pytest.fixture
def staff(db: None) -> User:
    """Staff without the moderator group (e.g. support staff): no moderation."""
    user = make_player("sam", email="sam@example.com")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


@pytest.fixture
def ada(db: None) -> User:
    return make_player("ada")


@pytest.fixture
def bob(db: None) -> User:
    return make_player("bob", email="bob@example.com")
