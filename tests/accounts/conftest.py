"""Fixtures for the accounts app: a player with an account, and a client signed in as them."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.accounts.helpers import make_player, signed_in


@pytest.fixture
def player(db: None) -> User:
    return make_player()


@pytest.fixture
def player_client(player: User) -> Client:
    return signed_in(player)
