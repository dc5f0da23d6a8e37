"""Whether a game ranks is decided once, when it starts, from where its deal came from: a fresh
secret deal ranks; a deal played again, a shared one, an archived daily's and a race's do not,
whatever their score. The database refuses a game that would rank on a known deal."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client

from game.engine import Deal, Variant
from game.engine.solver import find_par
from game.models import DealSource, Game, Mode
from game.players import Player
from game.services import game_start
from leaderboard import challenge
from leaderboard.boards import Board, BoardKind, DailyBoard, board_page
from leaderboard.models import Daily, DailyAttempt, PlayerBest, PlayerTally
from races import challenges, services
from tests.accounts.helpers import signed_in
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, play_out, ranked_result

pytestmark = pytest.mark.django_db

Players = Callable[..., list[User]]


def every_board() -> dict[str, Any]:
    """What every all-time and weekly board of both variants and deal pools shows."""
    return {
        str(board): [(row.player, row.score, row.won, row.played) for row in board_page(board).rows]
        for board in (
            Board(kind, period, clean, variant, deals)
            for kind in BoardKind
            for period in ("all", "2026-11-30")
            for clean in (False, True)
            for variant in Variant
            for deals in ("random", "winnable")
        )
    }


def tables() -> tuple[list[Any], list[Any]]:
    return (
        list(PlayerBest.objects.order_by("id").values()),
        list(PlayerTally.objects.order_by("id").values()),
    )


def par_line(game: Game) -> list[str]:
    par = find_par(Deal.from_seed(game.seed), Variant(game.variant))
    return [move.text for move in par.line]


def again(client: Client, game: Game) -> Game:
    response = client.post(f"/games/{game.id}/again")
    assert response.status_code == 303
    return Game.objects.get(id=response["Location"].split("/")[2])


def test_each_way_of_starting_a_game_decides_whether_it_ranks(ada: User) -> None:
    player = Player(user_id=ada.pk, guest_key="")
    started = {
        "fresh": game_start(player=player, variant=Variant.TRIPEAKS),
        "winnable": game_start(player=player, variant=Variant.NOWRAP, winnable_only=True),
        "on a seed": game_start(player=player, variant=Variant.TRIPEAKS, seed="2026"),
        "race": game_start(player=player, variant=Variant.TRIPEAKS, mode=Mode.RACE, seed="9"),
        "challenge": game_start(
            player=player, variant=Variant.TRIPEAKS, mode=Mode.CHALLENGE, seed="9"
        ),
    }
    assert {name: (game.deal_source, game.ranked) for name, game in started.items()} == {
        "fresh": (DealSource.RANDOM, True),
        "winnable": (DealSource.WINNABLE, True),
        "on a seed": (DealSource.REPLAY, False),
        "race": (DealSource.RACE, False),
        "challenge": (DealSource.CHALLENGE, False),
    }


def test_play_this_deal_again_never_reaches_a_board(ada: User, players: Players) -> None:
    """Ada plays a fresh deal, then plays it again along the solver's par line, and Bob plays
    her shared game the same way: the boards show her first game only."""
    (bob,) = players(1)
    ada_client = signed_in(ada)
    first = game_start(player=Player(user_id=ada.pk, guest_key=""), variant=Variant.TRIPEAKS)
    played = play_out(first, finished_at=at(DAY, 9))
    boards, rows = every_board(), tables()
    line = par_line(first)

    replay = again(ada_client, first)
    shared = again(signed_in(bob), first)
    replayed = play_out(replay, finished_at=at(DAY, 10), line=line)
    play_out(shared, finished_at=at(DAY, 11), line=line)

    assert replayed.score > played.score
    assert [(game.deal_source, game.ranked) for game in (replay, shared)] == [
        (DealSource.REPLAY, False)
    ] * 2
    assert every_board() == boards
    assert tables() == rows
    assert PlayerBest.objects.get(user=ada, period="all", clean_only=False).game_id == first.id


def test_an_archived_daily_deal_never_reaches_a_board(
    clock: Clock, ada: User, players: Players
) -> None:
    """A past day's deal is public: played from the archive, even along the par line, it counts
    on neither the day's board nor any other."""
    clock.set(at(DAY, 8))
    daily = challenge.daily_for(DAY)
    (bob,) = players(1)
    ranked_result(daily, bob, score=300, duration_ms=60_000, finished_at=at(DAY, 9))
    clock.set(at(DAY + timedelta(days=1), 9))
    day_board = board_page(DailyBoard(daily.id)).rows
    boards = every_board()

    response = signed_in(ada).post(f"/daily/{DAY}/play")
    game = Game.objects.get(id=response["Location"].split("/")[2])
    play_out(game, line=par_line(game))

    assert (game.mode, game.deal_source, game.ranked) == (Mode.DAILY, DealSource.REPLAY, False)
    assert not DailyAttempt.objects.filter(user=ada).exists()
    assert board_page(DailyBoard(daily.id)).rows == day_board
    assert every_board() == boards


def test_a_day_s_ranked_attempt_counts_on_its_day_s_board_only(
    clock: Clock, ada: User, daily: Daily
) -> None:
    clock.set(at(DAY, 8))
    game = challenge.daily_attempt_start(user=ada, day=DAY)
    assert (game.deal_source, game.ranked) == (DealSource.DAILY, True)
    play_out(game, finished_at=at(DAY, 8, 5))
    assert [row.player for row in board_page(DailyBoard(daily.id)).rows] == ["ada"]
    assert tables() == ([], [])


def test_a_race_game_ranks_on_no_board(ada: User) -> None:
    game = game_start(
        player=Player(user_id=ada.pk, guest_key=""), variant=Variant.TRIPEAKS, mode=Mode.RACE
    )
    play_out(game, line=par_line(game))
    assert tables() == ([], [])


def test_a_friend_challenge_ranks_on_no_board_only_on_its_page(ada: User, players: Players) -> None:
    """Every player of a challenge plays its deal to par; no board, all-time or weekly, shows any
    of them, and the score tables stay empty: the deal is known to all but the first."""
    bob = players(1, "bob")[0]
    room = challenges.challenge_open(
        user=ada, variant=Variant.TRIPEAKS, players=2, open_days=7, time_limit_s=None
    )
    for user in (ada, bob):
        game = challenges.challenge_play(code=room.code, user=user)
        play_out(game, line=par_line(game))
    before = every_board()
    assert services.race_end_if_due(code=room.code).finished
    assert tables() == ([], [])
    assert every_board() == before
    assert all(not rows for rows in before.values())


@pytest.mark.parametrize(
    ("mode", "source", "ranked"),
    [
        (Mode.CASUAL, DealSource.REPLAY, True),
        (Mode.DAILY, DealSource.REPLAY, True),
        (Mode.RACE, DealSource.RACE, True),
        (Mode.CASUAL, DealSource.DAILY, True),
        (Mode.CASUAL, DealSource.RACE, False),
        (Mode.DAILY, DealSource.RANDOM, False),
        (Mode.RACE, DealSource.RANDOM, False),
        (Mode.CHALLENGE, DealSource.CHALLENGE, True),
        (Mode.CHALLENGE, DealSource.RACE, False),
        (Mode.CASUAL, DealSource.CHALLENGE, False),
        (Mode.CASUAL, "made-up", False),
    ],
)
def test_the_database_refuses_a_game_that_ranks_on_a_known_deal_or_mixes_up_its_source(
    ada: User, mode: str, source: str, ranked: bool
) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            seed="1", owner=ada, mode=mode, deal_source=source, ranked=ranked, started_at=at(DAY)
        )


@pytest.fixture
def daily(clock: Clock) -> Daily:
    clock.set(at(DAY, 6))
    return challenge.daily_for(DAY)
