"""A guest who signs up or in keeps the game they are playing and everything they played."""

import re
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from game import events
from game.engine import Variant
from game.models import Game, Status
from game.players import GUEST_KEY_SESSION_FIELD, Player
from game.services import game_start, games_claim
from tests.accounts.helpers import PASSWORD, play_out

pytestmark = pytest.mark.django_db


def guest_games(client: Client) -> list[Game]:
    """A guest in ``client``'s browser starts three games: one lost, one given up, one in play."""
    for _ in range(3):
        assert client.post("/games/new").status_code == 303
    guest_key = client.session[GUEST_KEY_SESSION_FIELD]
    games = list(Game.objects.filter(guest_key=guest_key).order_by("started_at"))
    play_out(games[0])
    play_out(games[1], moves=3, abandon=True)
    play_out(games[2], moves=2)
    return games


def test_a_guest_who_signs_up_keeps_their_games(client: Client) -> None:
    """Their games, the one in play included, become the account's and show on the profile."""
    games = guest_games(client)
    guest_key = client.session[GUEST_KEY_SESSION_FIELD]
    session_before = client.cookies[settings.SESSION_COOKIE_NAME].value

    response = client.post(
        "/accounts/signup/",
        {"username": "grace", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 303
    user = User.objects.get(username="grace")
    assert client.cookies[settings.SESSION_COOKIE_NAME].value != session_before  # a new key
    assert client.session[GUEST_KEY_SESSION_FIELD] == guest_key  # the same data

    for game in games:
        game.refresh_from_db()
        assert game.owner == user
        assert game.guest_key == ""

    html = client.get("/accounts/profile/").content.decode()
    assert "The 3 games you played as a guest are now yours." in html
    for game in games:
        assert f'href="/games/{game.id}/"' in html
    assert html.count(">Replay</a>") == 2
    assert html.count(">Continue</a>") == 1
    # The game in play goes on under the account.
    assert client.get(f"/games/{games[2].id}/").status_code == 200


def test_a_guest_who_signs_in_keeps_their_games(player: User, client: Client) -> None:
    games = guest_games(client)
    response = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    assert Game.objects.filter(owner=player).count() == 3
    assert not Game.objects.filter(owner__isnull=True).exists()
    html = client.get("/accounts/profile/").content.decode()
    assert "The 3 games you played as a guest are now yours." in html
    assert client.get(f"/games/{games[2].id}/").status_code == 200


def test_only_this_browsers_guest_games_are_claimed(client: Client) -> None:
    """Another guest's games stay theirs, and signing up with no guest games claims nothing."""
    other = Client()
    other.post("/games/new")
    client.post("/games/new")
    client.post(
        "/accounts/signup/", {"username": "grace", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert Game.objects.filter(owner__username="grace").count() == 1
    assert Game.objects.filter(owner__isnull=True).count() == 1
    profile = client.get("/accounts/profile/").content.decode()
    assert "The game you played as a guest is now yours." in profile

    newcomer = Client()
    newcomer.post(
        "/accounts/signup/", {"username": "hedy", "password1": PASSWORD, "password2": PASSWORD}
    )
    html = newcomer.get("/accounts/profile/").content.decode()
    assert "as a guest" not in html
    assert "No games yet" in html


def test_games_claim_moves_a_guests_games_only() -> None:
    """The service moves the guest's games to the account and says how many."""
    user = User.objects.create_user("grace", password=PASSWORD)
    mine = Player(user_id=None, guest_key="key-mine")
    theirs = Player(user_id=None, guest_key="key-theirs")
    for player in (mine, mine, theirs):
        game_start(player=player, variant=Variant.TRIPEAKS)
    assert games_claim(guest_key="key-mine", user_id=user.pk) == 2
    assert games_claim(guest_key="key-mine", user_id=user.pk) == 0
    assert games_claim(guest_key="", user_id=user.pk) == 0
    assert set(Game.objects.values_list("guest_key", "owner_id")) == {
        ("", user.pk),
        ("key-theirs", None),
    }


def test_signing_in_from_a_game_returns_to_it(player: User, client: Client) -> None:
    """The sign-in page honours ?next=, so a guest can sign in mid-game and carry on."""
    client.post("/games/new")
    game = Game.objects.get()
    page = client.get(f"/accounts/login/?next=/games/{game.id}/").content.decode()
    assert re.search(rf'name="next" value="/games/{game.id}/"', page)
    response = client.post(
        "/accounts/login/",
        {"username": "ada", "password": PASSWORD, "next": f"/games/{game.id}/"},
    )
    assert response["Location"] == f"/games/{game.id}/"
    assert client.get(response["Location"]).status_code == 200


def test_a_guests_finished_games_enter_the_score_tables_on_sign_up(client: Client) -> None:
    """What a guest finished counts on the boards once it is theirs; the game in play later."""
    from leaderboard.models import PlayerBest, PlayerTally

    games = guest_games(client)
    client.post(
        "/accounts/signup/",
        {"username": "grace", "password1": PASSWORD, "password2": PASSWORD},
    )
    user = User.objects.get(username="grace")
    finished_scores = [Game.objects.get(id=game.id).score for game in games[:2]]
    bests = PlayerBest.objects.filter(user=user)
    assert bests.exists()
    assert {best.score for best in bests} == {max(finished_scores)}
    tallies = PlayerTally.objects.filter(user=user)
    assert tallies.exists()
    assert {tally.played for tally in tallies} == {2}  # the lost game and the given-up one


def test_a_guest_who_signs_in_anywhere_keeps_their_games(client: Client) -> None:
    """However a player signs in (here staff, on the admin's own sign-in page), the guest games
    of their browser become theirs."""
    User.objects.create_user("staff", password=PASSWORD, is_staff=True)
    games = guest_games(client)
    response = client.post(
        "/admin/login/", {"username": "staff", "password": PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 302
    assert {game.owner_id for game in Game.objects.filter(id__in=[g.id for g in games])} == {
        User.objects.get(username="staff").pk
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
def test_a_game_that_ends_while_it_is_claimed_is_counted() -> None:
    """A guest's game ends (its row locked, then finished) while the guest's games are handed to
    their new account: the claim waits for the ending and then counts the game as finished, so
    that it enters the account's tables. Had the claim read the games without locking them, it
    would have seen the game in play, and taken it once the ending had committed, untold."""
    user = User.objects.create_user("grace", password=PASSWORD)
    game = game_start(player=Player(user_id=None, guest_key="key-late"), variant=Variant.TRIPEAKS)
    told: list[uuid.UUID] = []
    locked, release = threading.Event(), threading.Event()

    def end_the_game() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(id=game.id)
                locked.set()
                release.wait(10)
                Game.objects.filter(id=game.id).update(
                    status=Status.LOST, finished_at=timezone.now(), duration_ms=1
                )
        finally:
            connection.close()

    def claim() -> int:
        try:
            return games_claim(guest_key="key-late", user_id=user.pk)
        finally:
            connection.close()

    events.on_games_finished(told.extend)
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            ending = pool.submit(end_the_game)
            assert locked.wait(10)
            claimed = pool.submit(claim)
            time.sleep(0.3)  # the claim is under way meanwhile
            release.set()
            ending.result(10)
            assert claimed.result(10) == 1
    finally:
        events._finished_listeners.remove(told.extend)
    assert told == [game.id]
    assert Game.objects.get(id=game.id).owner_id == user.pk
