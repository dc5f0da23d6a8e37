"""The boards through the API: the leaderboard's own pages (``leaderboard.boards``), in JSON."""

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from game.engine import Variant
from game.models import DealSource, Game, Status
from leaderboard import boards
from leaderboard.boards import Board, BoardKind
from leaderboard.models import Deals
from leaderboard.selectors import week_period
from tests.accounts.helpers import make_player
from tests.api.conftest import body
from tests.leaderboard.helpers import finished_game

pytestmark = pytest.mark.django_db


def scored(count: int, *, when: datetime | None = None, **game: Any) -> list[User]:
    """``count`` players, player i with one won game of 1000 + i points."""
    players = [make_player(f"p{i:03}", email="") for i in range(count)]
    for i, player in enumerate(players):
        finished_game(
            player,
            score=1000 + i,
            finished_at=when or timezone.now() - timedelta(minutes=i),
            status=Status.WON,
            **game,
        )
    return players


def rows_of(board: Board, number: int = 1) -> list[tuple[int, str, int | None]]:
    page = boards.board_page(board, number)
    return [(row.rank, row.player, row.score) for row in page.rows]


def api_rows(answer: dict[str, Any]) -> list[tuple[int, str, int | None]]:
    return [(row["rank"], row["player"], row["score"]) for row in answer["rows"]]


def test_a_board_page_is_the_leaderboards_own(client: Client) -> None:
    scored(3)

    answer = body(client.get("/api/v1/leaderboards/best"))

    assert api_rows(answer) == rows_of(Board(BoardKind.BEST))
    assert api_rows(answer)[0] == (1, "p002", 1002)
    assert answer["board"] == {
        "kind": "best",
        "title": "Best score",
        "variant": "tripeaks",
        "deals": "random",
        "period": "all",
        "week": None,
        "view": "all",
    }
    top = answer["rows"][0]
    assert top["player_url"] == "/api/v1/players/p002"
    assert top["game"] == str(Game.objects.get(owner__username="p002").id)


def test_every_kind_and_choice_reads_its_own_board(client: Client) -> None:
    scored(2, variant=Variant.NOWRAP, deal_source=DealSource.WINNABLE)
    week = week_period(timezone.now())

    for kind in BoardKind:
        query = "variant=tripeaks-nowrap&deals=winnable&period=week&view=clean"
        answer = body(client.get(f"/api/v1/leaderboards/{kind.value}?{query}"))
        board = Board(kind, week, True, Variant.NOWRAP.value, Deals.WINNABLE.value)

        assert answer["board"]["week"] == week
        assert [row["rank"] for row in answer["rows"]] == [
            row.rank for row in boards.board_page(board).rows
        ]
        assert [row["player"] for row in answer["rows"]] == [
            row.player for row in boards.board_page(board).rows
        ]
    assert (
        body(client.get("/api/v1/leaderboards/wins?variant=tripeaks-nowrap&deals=winnable"))[
            "rows"
        ][0]["won"]
        == 1
    )
    # The same players are on no board of the other rules.
    assert body(client.get("/api/v1/leaderboards/wins"))["rows"] == []


def test_the_overview_is_the_top_ten_of_each_board(client: Client) -> None:
    scored(12)

    overview = body(client.get("/api/v1/leaderboards"))["boards"]

    assert [top["board"]["kind"] for top in overview] == ["best", "wins", "rate", "streak"]
    assert api_rows(overview[0]) == rows_of(Board(BoardKind.BEST))[:10]
    assert overview[0]["url"] == "/api/v1/leaderboards/best"


def test_a_board_pages_by_fifty_and_keeps_its_choice_in_its_links(client: Client) -> None:
    scored(53)
    query = "variant=tripeaks&deals=random&period=all&view=all"

    first = body(client.get("/api/v1/leaderboards/best"))
    second = body(client.get(first["next"]))

    assert len(first["rows"]) == 50
    assert first["next"] == f"/api/v1/leaderboards/best?{query}&page=2"
    assert api_rows(second) == rows_of(Board(BoardKind.BEST), 2)
    assert [row[0] for row in api_rows(second)] == [51, 52, 53]
    assert (second["has_next"], second["previous"]) == (
        False,
        f"/api/v1/leaderboards/best?{query}&page=1",
    )


def test_huge_and_negative_pages_read_as_the_sites_do(client: Client) -> None:
    scored(2)

    for page, number in (("99999999999999999999999", 10_000), ("10001", 10_000), ("-3", 1)):
        answer = body(client.get(f"/api/v1/leaderboards/best?page={page}"))

        assert answer["page"] == number
        assert answer["rows"] == ([] if number > 1 else answer["rows"])


@pytest.mark.parametrize(
    "query",
    ["variant=klondike", "deals=all", "period=month", "view=dirty", "page=x", "page=1e309"],
)
def test_an_unknown_query_value_is_a_400_naming_it(client: Client, query: str) -> None:
    answer = client.get(f"/api/v1/leaderboards/best?{query}")

    assert answer.status_code == 400
    refusal = body(answer)
    name = query.split("=")[0]
    assert refusal["error"] == "bad_request"
    assert name in refusal["message"]
    assert [error["parameter"] for error in refusal["errors"]] == [name]


def test_an_unknown_board_is_not_found(client: Client) -> None:
    answer = client.get("/api/v1/leaderboards/fastest")

    assert answer.status_code == 404
    assert body(answer) == {"error": "not_found", "message": "There is no such board"}


def test_a_suspended_player_is_on_no_board(client: Client) -> None:
    players = scored(2)
    players[1].is_active = False
    players[1].save()

    answer = body(client.get("/api/v1/leaderboards/best"))

    assert api_rows(answer) == [(1, "p000", 1000)]
