"""The boards: their order and ties, the score tables kept as games end, clean and all views,
weeks, pages of 50, rank lookups, and the players who must not be on them."""

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from game.models import DealSource, Mode, Status
from leaderboard import boards, challenge
from leaderboard.boards import Board, BoardKind, DailyBoard, board_page, rank_of
from leaderboard.models import Daily, PlayerBest, PlayerTally
from leaderboard.selectors import PAGE_SIZE
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, finished_game, ranked_result

pytestmark = pytest.mark.django_db

W, L = Status.WON, Status.LOST
BEST = Board(BoardKind.BEST)
WINS = Board(BoardKind.WINS)
RATE = Board(BoardKind.RATE)
STREAK = Board(BoardKind.STREAK)
Players = Callable[..., list[User]]


def position(user: User, board: Board | DailyBoard) -> int | None:
    rank = rank_of(user.pk, board)
    assert rank is not None, f"{user} is not on {board}"
    return rank.position


def names(board: Board | DailyBoard, number: int = 1) -> list[str]:
    return [row.player for row in board_page(board, number).rows]


def whole(board: Board | DailyBoard) -> list[str]:
    """Every player on a board, page after page."""
    found, number = [], 1
    while True:
        page = board_page(board, number)
        found += [row.player for row in page.rows]
        if not page.has_next:
            return found
        number += 1


@pytest.fixture
def daily(clock: Clock) -> Daily:
    clock.set(at(DAY, 6))
    return challenge.daily_for(DAY)


def test_the_day_s_board_ranks_by_score_then_time_then_finish(
    daily: Daily, players: Players
) -> None:
    a, b, c, d, e = players(5)
    ranked_result(daily, a, score=900, duration_ms=100_000, finished_at=at(DAY, 10))
    ranked_result(daily, b, score=900, duration_ms=90_000, finished_at=at(DAY, 11))
    ranked_result(daily, c, score=900, duration_ms=90_000, finished_at=at(DAY, 10, 30))
    ranked_result(daily, d, score=1200, duration_ms=300_000, finished_at=at(DAY, 12))
    ranked_result(daily, e, score=500, duration_ms=10_000, finished_at=at(DAY, 9))
    board = DailyBoard(daily.id)

    page = board_page(board)

    assert [row.player for row in page.rows] == ["p003", "p002", "p001", "p000", "p004"]
    assert [row.rank for row in page.rows] == [1, 2, 3, 4, 5]
    assert [row.score for row in page.rows] == [1200, 900, 900, 900, 500]
    assert [position(user, board) for user in (a, b, c, d, e)] == [4, 3, 2, 1, 5]


def test_attempts_still_in_play_are_not_on_the_day_s_board(
    clock: Clock, daily: Daily, players: Players
) -> None:
    a, b = players(2)
    ranked_result(daily, a, score=400, duration_ms=1000, finished_at=at(DAY, 7))
    challenge.daily_attempt_start(user=b, day=DAY)
    assert names(DailyBoard(daily.id)) == ["p000"]
    assert rank_of(b.pk, DailyBoard(daily.id)) is None


def test_a_player_s_best_is_kept_as_games_end(players: Players) -> None:
    """A higher score replaces the best; so does the same score in less time; the same score in
    the same time later does not (the earlier finish ranks first)."""
    (ada,) = players(1)
    finished_game(ada, score=500, duration_ms=90_000, finished_at=at(DAY, 8))
    best = finished_game(ada, score=800, duration_ms=90_000, finished_at=at(DAY, 9))
    finished_game(ada, score=700, duration_ms=10_000, finished_at=at(DAY, 10))
    finished_game(ada, score=800, duration_ms=90_000, finished_at=at(DAY, 11))
    row = PlayerBest.objects.get(user=ada, period="all", clean_only=False)
    assert (row.game_id, row.score) == (best.id, 800)

    faster = finished_game(ada, score=800, duration_ms=60_000, finished_at=at(DAY, 12))
    row.refresh_from_db()
    assert (row.game_id, row.duration_ms, row.finished_at) == (faster.id, 60_000, at(DAY, 12))


def test_the_best_score_board_orders_players_like_the_day_s(players: Players) -> None:
    a, b, c, d = players(4)
    finished_game(a, score=900, duration_ms=100_000, finished_at=at(DAY, 10))
    finished_game(b, score=900, duration_ms=90_000, finished_at=at(DAY, 11))
    finished_game(c, score=900, duration_ms=90_000, finished_at=at(DAY, 10, 30))
    finished_game(d, score=1500, duration_ms=900_000, finished_at=at(DAY, 12))
    assert names(BEST) == ["p003", "p002", "p001", "p000"]


def test_most_wins_ties_go_to_fewer_games(players: Players) -> None:
    a, b, c = players(3)
    for status in (W, W, L):
        finished_game(a, score=100, status=status, finished_at=at(DAY, 9))
    for status in (W, W):
        finished_game(b, score=100, status=status, finished_at=at(DAY, 9))
    finished_game(c, score=100, status=L, finished_at=at(DAY, 9))  # no win: not on the board
    assert names(WINS) == ["p001", "p000"]
    tally = PlayerTally.objects.get(user=a, period="all", clean_only=False)
    assert (tally.played, tally.won) == (3, 2)
    assert tally.win_rate == pytest.approx(2 / 3)


def test_the_win_rate_board_needs_ten_games(players: Players) -> None:
    """Nine wins in nine games is not yet a rate; ten games with nine wins is. Ties: more games."""
    a, b, c = players(3)
    for _ in range(9):
        finished_game(a, score=100, status=W, finished_at=at(DAY, 9))
    for i in range(10):
        finished_game(b, score=100, status=W if i else L, finished_at=at(DAY, 9))
    for i in range(20):
        finished_game(c, score=100, status=W if i > 1 else L, finished_at=at(DAY, 9))
    assert names(RATE) == ["p002", "p001"]
    assert [row.win_rate for row in board_page(RATE).rows] == [0.9, 0.9]
    assert rank_of(a.pk, RATE) is None


def test_win_streaks_in_the_order_games_end(players: Players) -> None:
    """W W L W W W L: the longest run is 3, reached at the sixth game; the current one is 0.
    Of two players with the same longest run, the one who reached it first ranks first."""
    a, b = players(2)
    for minute, status in enumerate([W, W, L, W, W, W, L]):
        finished_game(a, score=100, status=status, finished_at=at(DAY, 9, minute))
    for minute, status in enumerate([W, W, W]):
        finished_game(b, score=100, status=status, finished_at=at(DAY, 8, minute))
    tally = PlayerTally.objects.get(user=a, period="all", clean_only=False)
    assert (tally.current_streak, tally.longest_streak) == (0, 3)
    assert tally.longest_streak_at == at(DAY, 9, 5)
    assert names(STREAK) == ["p001", "p000"]
    assert [row.streak for row in board_page(STREAK).rows] == [3, 3]


def test_clean_boards_leave_out_games_played_with_a_hint(players: Players) -> None:
    a, b = players(2)
    finished_game(a, score=2000, status=W, assisted=True, finished_at=at(DAY, 9))
    finished_game(a, score=300, status=L, finished_at=at(DAY, 10))
    finished_game(b, score=600, status=W, finished_at=at(DAY, 11))

    assert [(row.player, row.score) for row in board_page(BEST).rows] == [
        ("p000", 2000),
        ("p001", 600),
    ]
    clean = Board(BoardKind.BEST, clean=True)
    assert [(row.player, row.score) for row in board_page(clean).rows] == [
        ("p001", 600),
        ("p000", 300),
    ]
    assert names(WINS) == ["p001", "p000"]  # one win each: the fewer games first
    assert names(Board(BoardKind.WINS, clean=True)) == ["p001"]


def test_weekly_boards_count_the_week_s_games(players: Players) -> None:
    """Weeks run Monday to Sunday, UTC; the all-time board counts every week."""
    a, b = players(2)
    finished_game(a, score=900, finished_at=at(DAY - timedelta(days=1), 23, 59))  # Sunday
    finished_game(b, score=400, finished_at=at(DAY, 0))  # Monday
    finished_game(a, score=100, finished_at=at(DAY + timedelta(days=6), 23))  # Sunday after
    this_week = Board(BoardKind.BEST, period=DAY.isoformat())
    last_week = Board(BoardKind.BEST, period=(DAY - timedelta(days=7)).isoformat())
    assert [(row.player, row.score) for row in board_page(this_week).rows] == [
        ("p001", 400),
        ("p000", 100),
    ]
    assert names(last_week) == ["p000"]
    assert names(BEST) == ["p000", "p001"]


def test_guests_and_unranked_daily_replays_count_nowhere(daily: Daily, players: Players) -> None:
    (ada,) = players(1)
    finished_game(None, score=5000, finished_at=at(DAY, 9))
    finished_game(
        ada,
        score=3000,
        mode=Mode.DAILY,
        deal_source=DealSource.REPLAY,
        seed=daily.seed,
        reveal_after=daily.ends_at,
        finished_at=at(DAY, 10),
    )
    assert not PlayerBest.objects.exists()
    assert not PlayerTally.objects.exists()


def test_deleted_players_vanish_from_every_board(daily: Daily, players: Players) -> None:
    a, b, c = players(3)
    for user, score in ((a, 900), (b, 800), (c, 700)):
        finished_game(user, score=score, status=W, finished_at=at(DAY, 9))
        ranked_result(daily, user, score=score, duration_ms=1000, finished_at=at(DAY, 10))

    a.delete()

    for board in (BEST, WINS, STREAK, DailyBoard(daily.id)):
        assert names(board) == ["p001", "p002"]
        assert position(c, board) == 2
    assert not PlayerBest.objects.filter(user_id=a.pk).exists()


def test_banned_players_vanish_and_come_back_if_reinstated(daily: Daily, players: Players) -> None:
    """A player deactivated after their games leaves every board at once (their rows stay, for
    an appeal); the players behind them move up."""
    a, b, c = players(3)
    for user, score in ((a, 900), (b, 800), (c, 700)):
        for _ in range(10):
            finished_game(user, score=score, status=W, finished_at=at(DAY, 9))
        ranked_result(daily, user, score=score, duration_ms=1000, finished_at=at(DAY, 10))
    boards = (BEST, WINS, RATE, STREAK, DailyBoard(daily.id))

    a.is_active = False
    a.save(update_fields=["is_active"])

    for board in boards:
        assert names(board) == ["p001", "p002"], board
        assert rank_of(a.pk, board) is None
        assert position(c, board) == 2

    a.is_active = True
    a.save(update_fields=["is_active"])
    assert names(BEST) == ["p000", "p001", "p002"]


def test_boards_come_in_pages_of_fifty(players: Players) -> None:
    users = players(120)
    for i, user in enumerate(users):
        finished_game(user, score=10_000 - i, finished_at=at(DAY, 9))

    first, third, fourth = board_page(BEST, 1), board_page(BEST, 3), board_page(BEST, 4)

    assert PAGE_SIZE == 50
    assert len(first.rows) == 50
    assert first.has_next
    assert not first.has_previous
    assert [row.rank for row in first.rows] == list(range(1, 51))
    assert len(third.rows) == 20
    assert not third.has_next
    assert third.has_previous
    assert [row.rank for row in third.rows] == list(range(101, 121))
    assert third.rows[-1].player == "p119"
    assert fourth.rows == []


def test_a_player_s_rank_is_their_place_on_the_board(players: Players) -> None:
    """With many ties, the rank lookup agrees with the board's own order for every player."""
    chance = random.Random(7)
    users = players(130)
    for user in users:
        finished_game(
            user,
            score=chance.choice([500, 600, 700]),
            duration_ms=chance.choice([60_000, 70_000]),
            finished_at=at(DAY, 9, chance.choice([0, 1])),
        )
    order = whole(BEST)
    assert len(order) == 130
    for user in users:
        assert position(user, BEST) == order.index(user.username) + 1


def test_a_finished_game_costs_a_few_statements(
    players: Players, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    """Reading the game, then one upsert for the best scores and one for the tallies."""
    (ada,) = players(1)
    with django_assert_max_num_queries(4):
        finished_game(ada, score=100, finished_at=at(DAY, 9))


def test_the_leaderboards_page_shows_the_four_boards(
    clock: Clock, players: Players, ada: User, ada_client: Client
) -> None:
    clock.set(at(DAY, 12))
    (other,) = players(1)
    for _ in range(10):
        finished_game(ada, score=700, status=W, finished_at=at(DAY, 9))
    finished_game(other, score=800, status=W, finished_at=at(DAY, 9))

    page = ada_client.get("/leaderboards/").content.decode()
    weekly = ada_client.get("/leaderboards/?period=week&view=clean").content.decode()

    for title in ("Best score", "Most wins", "Best win rate", "Longest win streak"):
        assert title in page
    assert page.count('class="board-row--me"') == 4
    assert "You are <strong>#2</strong>" in page
    assert "ada" in weekly
    assert ada_client.get("/leaderboards/nope/").status_code == 404


def test_a_whole_board_page_highlights_the_reader(
    clock: Clock, players: Players, ada: User, ada_client: Client
) -> None:
    clock.set(at(DAY, 12))
    for i, user in enumerate(players(60)):
        finished_game(user, score=1000 + i, finished_at=at(DAY, 9))
    finished_game(ada, score=5, finished_at=at(DAY, 10))

    first = ada_client.get("/leaderboards/best/?period=all&view=all").content.decode()
    second = ada_client.get("/leaderboards/best/?period=all&view=all&page=2").content.decode()

    assert "board-row--me" not in first
    assert "You are <strong>#61</strong>" in first
    assert (
        'href="?variant=tripeaks&amp;deals=random&amp;period=all&amp;view=all&amp;page=2"' in first
    )
    assert "board-row--me" in second


def test_the_day_s_board_on_its_page(
    clock: Clock, daily: Daily, players: Players, ada: User, ada_client: Client
) -> None:
    clock.set(at(DAY, 12))
    (other,) = players(1)
    ranked_result(daily, other, score=900, duration_ms=1000, finished_at=at(DAY, 9))
    ranked_result(daily, ada, score=800, duration_ms=1000, finished_at=at(DAY, 10))

    html = ada_client.get("/daily/").content.decode()

    assert html.index("p000") < html.index('class="board-row--me"')
    assert f'data-socket-path="/ws/daily/{DAY}/"' in html
    assert "#2</strong> on the board" in html


def test_a_board_is_listed_and_ranked_exactly_down_to_its_depth(
    monkeypatch: pytest.MonkeyPatch, players: Players
) -> None:
    """Past BOARD_DEPTH rows a board has no pages, and a player there is only "further down";
    banned players ahead do not count towards the depth."""
    monkeypatch.setattr(boards, "BOARD_DEPTH", 5)
    users = players(8)
    for i, user in enumerate(users):
        finished_game(user, score=1000 - i, finished_at=at(DAY, 9))

    assert names(BEST) == ["p000", "p001", "p002", "p003", "p004"]
    assert not board_page(BEST).has_next
    second = board_page(BEST, 2, size=3)
    assert [row.rank for row in second.rows] == [4, 5]
    assert not second.has_next
    assert board_page(BEST, 3, size=3).rows == []
    assert position(users[4], BEST) == 5
    sixth = rank_of(users[5].pk, BEST)
    assert sixth is not None
    assert sixth.deeper

    users[0].is_active = False
    users[0].save(update_fields=["is_active"])
    assert position(users[5], BEST) == 5
    assert rank_of(users[6].pk, BEST).deeper  # type: ignore[union-attr]
