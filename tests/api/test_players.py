"""Players through the API: the public profile's figures, the finished games a page at a time,
never a suspended player, never a game in play."""

from dataclasses import asdict

import pytest
from django.test import Client

from accounts.selectors import player_statistics
from game.models import Game
from tests.accounts.helpers import play_out
from tests.api.conftest import World, body, start

pytestmark = pytest.mark.django_db


def test_a_profile_has_the_figures_of_the_profile_page(client: Client, world: World) -> None:
    answer = client.get("/api/v1/players/bob")
    page = client.get("/players/bob/")

    profile = body(answer)
    assert profile["username"] == "bob"
    assert profile["statistics"] == asdict(player_statistics(world.bob))
    assert profile["statistics"]["games_played"] == 1
    assert profile["games"] == "/api/v1/players/bob/games"
    assert profile["url"] == "/players/bob/"
    assert page.context["statistics"] == player_statistics(world.bob)


def test_a_suspended_player_is_not_found(client: Client, world: World) -> None:
    for url in ("/api/v1/players/mallory", "/api/v1/players/mallory/games"):
        answer = client.get(url)

        assert answer.status_code == 404
        assert body(answer) == {"error": "not_found", "message": "There is no such player"}


def test_the_games_are_the_finished_ones_newest_first(client: Client, world: World) -> None:
    games = body(client.get("/api/v1/players/bob/games"))["games"]

    assert [game["id"] for game in games] == [str(world.finished.id)]
    game = games[0]
    assert game["status"] == world.finished.status
    assert game["deal_revealed"] is True
    assert game["export"] == f"/api/v1/games/{world.finished.id}/export"
    assert game["url"] == f"/games/{world.finished.id}/"
    assert client.get(game["export"]).status_code == 200


def test_a_daily_game_is_listed_without_its_deal_until_the_day_is_over(
    client: Client, world: World
) -> None:
    answer = client.get("/api/v1/players/ada/games")
    (game,) = body(answer)["games"]

    assert game["id"] == str(world.daily_done.id)
    assert (game["deal_revealed"], game["mode"], game["counts_on"]) == (
        False,
        "daily",
        "Daily board",
    )
    assert game["reveal_after"] == world.today.ends_at.isoformat().replace("+00:00", "Z")
    assert world.daily_done.seed not in answer.content.decode()
    assert client.get(game["export"]).status_code == 409


def test_the_games_page_by_fifty(client: Client, world: World) -> None:
    for _ in range(50):
        play_out(start(world.bob))
    newest_first = list(
        Game.objects.filter(owner=world.bob, finished_at__isnull=False)
        .order_by("-started_at", "-id")
        .values_list("id", flat=True)
    )

    first = body(client.get("/api/v1/players/bob/games"))
    second = body(client.get(first["next"]))
    far = body(client.get(f"/api/v1/players/bob/games?page={2**70}"))
    below = body(client.get("/api/v1/players/bob/games?page=-5"))

    assert [g["id"] for g in first["games"] + second["games"]] == [str(i) for i in newest_first]
    assert len(first["games"]) == 50
    assert first["next"] == "/api/v1/players/bob/games?page=2"
    assert (second["has_next"], second["next"]) == (False, None)
    assert (far["page"], far["games"]) == (10_000, [])
    assert below == first


def test_a_username_is_matched_exactly(client: Client, world: World) -> None:
    for name in ("BOB", "bob ", "bo", "bob%2F", "bob/games/x"):
        assert client.get(f"/api/v1/players/{name}").status_code == 404, name
