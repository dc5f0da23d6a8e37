"""Hidden games and banned players vanish from every board (the day's, best score, most wins,
win rate, longest streak; all time and weekly; all games and clean ones) and come back on restore
and unban; each day board they are on is pushed again."""

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from game.models import Game, Status
from leaderboard import challenge
from leaderboard.boards import Board, BoardKind, DailyBoard, board_page, rank_of
from leaderboard.models import Daily, PlayerBest, PlayerTally
from leaderboard.selectors import week_period
from moderation import services
from tests.accounts.helpers import make_player
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, finished_game, ranked_result

pytestmark = pytest.mark.django_db

W, L = Status.WON, Status.LOST
WEEK = week_period(at(DAY))
BOARDS = [
    Board(kind, period, clean)
    for kind in BoardKind
    for period in ("all", WEEK)
    for clean in (False, True)
]


def rows(board: Board | DailyBoard) -> dict[str, dict[str, Any]]:
    """Each player on the board's first page, with what the board shows of them."""
    return {
        row.player: {
            "rank": row.rank, "score": row.score, "won": row.won, "played": row.played,
            "streak": row.streak,
        }
        for row in board_page(board).rows
    }  # fmt: skip


def every_board(daily: Daily) -> list[Board | DailyBoard]:
    return [*BOARDS, DailyBoard(daily.id)]


def everything(daily: Daily) -> dict[str, Any]:
    return {str(board): rows(board) for board in every_board(daily)}


@pytest.fixture
def daily(clock: Clock) -> Daily:
    clock.set(at(DAY, 6))
    return challenge.daily_for(DAY)


def build_scene(daily: Daily) -> dict[str, Any]:
    """Ada: ten games in the week (W W W L W W W W W W: a streak of six), her best a 3000 won
    game; Bob: ten games, five won. Both have a ranked attempt at the day's challenge."""
    ada, bob = make_player("ada"), make_player("bob", email="bob@example.com")
    games: dict[str, Game] = {}
    for i, status in enumerate([W, W, W, L, W, W, W, W, W, W]):
        score = 3000 if i == 1 else 1000 + i
        games[f"ada{i}"] = finished_game(ada, score=score, status=status, finished_at=at(DAY, 7, i))
    for i in range(10):
        finished_game(bob, score=900 + i, status=W if i % 2 else L, finished_at=at(DAY, 8, i))
    games["ada_daily"] = ranked_result(
        daily, ada, score=1500, duration_ms=60_000, finished_at=at(DAY, 9)
    ).game
    ranked_result(daily, bob, score=1200, duration_ms=60_000, finished_at=at(DAY, 9, 30))
    return {"ada": ada, "bob": bob, "games": games}


@pytest.fixture
def scene(daily: Daily) -> dict[str, Any]:
    return build_scene(daily)


@pytest.fixture
def staff_actor(moderator: User) -> User:
    return moderator


def test_everyone_starts_on_every_board(scene: dict[str, Any], daily: Daily) -> None:
    for board, players in everything(daily).items():
        assert {"ada", "bob"} <= set(players), board


def test_a_hidden_game_counts_on_no_board_until_restored(
    scene: dict[str, Any], daily: Daily, staff_actor: User
) -> None:
    before = everything(daily)
    ada = scene["ada"]
    best, loss = scene["games"]["ada1"], scene["games"]["ada3"]

    services.game_hide(actor=staff_actor, game_id=best.id, reason="impossible score")
    services.game_hide(actor=staff_actor, game_id=loss.id, reason="testing the streak")
    services.game_hide(actor=staff_actor, game_id=scene["games"]["ada_daily"].id, reason="bot")

    after = everything(daily)
    for period in ("all", WEEK):
        board = str(Board(BoardKind.BEST, period))
        assert after[board]["ada"]["score"] == 1009  # 3000 and the daily's 1500 are hidden
        assert after[str(Board(BoardKind.WINS, period))]["ada"]["won"] == 8
        assert after[str(Board(BoardKind.WINS, period))]["ada"]["played"] == 8
        assert after[str(Board(BoardKind.STREAK, period))]["ada"]["streak"] == 8
    assert "ada" not in after[str(Board(BoardKind.RATE))]  # eight games: below the ten needed
    assert "ada" not in after[str(DailyBoard(daily.id))]
    assert rank_of(ada.pk, DailyBoard(daily.id)) is None
    assert after[str(DailyBoard(daily.id))]["bob"]["rank"] == 1

    for game in (best, loss, scene["games"]["ada_daily"]):
        services.game_restore(actor=staff_actor, game_id=game.id, reason="appeal upheld")

    assert everything(daily) == before


def test_a_banned_player_vanishes_from_every_board_and_comes_back_on_unban(
    scene: dict[str, Any], daily: Daily, staff_actor: User
) -> None:
    before = everything(daily)
    ada = scene["ada"]

    services.player_ban(actor=staff_actor, user_id=ada.pk, reason="cheating")

    for board in every_board(daily):
        shown = rows(board)
        assert "ada" not in shown, board
        assert "bob" in shown, board
        assert rank_of(ada.pk, board) is None, board
    assert rows(DailyBoard(daily.id))["bob"]["rank"] == 1

    services.player_unban(actor=staff_actor, user_id=ada.pk, reason="appeal")

    assert everything(daily) == before


def test_the_board_pages_show_the_change(
    scene: dict[str, Any], daily: Daily, staff_actor: User, clock: Clock
) -> None:
    clock.set(at(DAY, 12))
    client = Client()
    assert "ada" in client.get(reverse("leaderboard:daily")).content.decode()
    services.player_ban(actor=staff_actor, user_id=scene["ada"].pk, reason="cheating")
    for url in (
        reverse("leaderboard:daily"),
        reverse("leaderboard:leaderboards"),
        *(reverse("leaderboard:board", kwargs={"kind": kind.value}) for kind in BoardKind),
    ):
        page = client.get(url).content.decode()
        assert ">ada<" not in page, url


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_hiding_and_banning_push_the_day_s_board_again(clock: Clock) -> None:
    """Once each action has committed, everyone watching the day's board gets its new page."""
    clock.set(at(DAY, 6))
    daily = await database_sync_to_async(challenge.daily_for)(DAY)
    scene = await database_sync_to_async(build_scene)(daily)
    # A superuser acts: a transactional test may have flushed the migration's moderator group.
    actor = await database_sync_to_async(User.objects.create_superuser)("root", "r@x.org", "x")
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(daily.group_name, channel)

    await database_sync_to_async(services.game_hide)(
        actor=actor, game_id=scene["games"]["ada_daily"].id, reason="bot"
    )
    event = await asyncio.wait_for(layer.receive(channel), timeout=5)
    assert event["type"] == "board.update"
    assert [row["player"] for row in event["board"]["rows"]] == ["bob"]

    await database_sync_to_async(services.player_ban)(
        actor=actor, user_id=scene["bob"].pk, reason="bot too"
    )
    event = await asyncio.wait_for(layer.receive(channel), timeout=5)
    assert event["board"]["rows"] == []
    await layer.group_discard(daily.group_name, channel)


def test_the_score_tables_of_others_are_untouched(scene: dict[str, Any], staff_actor: User) -> None:
    bob = scene["bob"]
    best = list(PlayerBest.objects.filter(user=bob).values().order_by("id"))
    tally = list(PlayerTally.objects.filter(user=bob).values().order_by("id"))
    services.game_hide(actor=staff_actor, game_id=scene["games"]["ada1"].id, reason="x")
    assert list(PlayerBest.objects.filter(user=bob).values().order_by("id")) == best
    assert list(PlayerTally.objects.filter(user=bob).values().order_by("id")) == tally
