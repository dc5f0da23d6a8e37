"""Fixtures for the moderation tests: a moderator, staff without the moderator group, players."""

import importlib

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.test import Client

from tests.accounts.helpers import make_player, signed_in
from tests.game.conftest import make_seat  # noqa: F401  (a fixture shared with game's tests)
from tests.leaderboard.conftest import clock  # noqa: F401

GROUP_MIGRATIONS = [
    importlib.import_module(f"moderation.migrations.{name}")
    for name in ("0002_moderator_group", "0003_moderators_see_races")
]


def moderator_group() -> Group:
    """The "moderator" group as its migrations make it. A transactional test (the browser tests,
    the websocket tests) empties every table when it ends; Django then makes the permissions
    again, but not the groups that data migrations made."""
    group, _ = Group.objects.get_or_create(name="moderator")
    for migration in GROUP_MIGRATIONS:
        for app_label, codename in migration.PERMISSIONS:
            group.permissions.add(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
    return group


def make_moderator(username: str = "mona") -> User:
    """Staff in the "moderator" group: not a superuser."""
    user = make_player(username, email=f"{username}@example.com")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(moderator_group())
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
