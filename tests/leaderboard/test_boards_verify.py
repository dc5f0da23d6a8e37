"""``manage.py boards_verify`` replays every game behind the boards and every daily attempt,
recomputes the score tables from the games alone, and reports any difference with exit status 1."""

import io
import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from deploy.processes import ROOT as PROJECT_ROOT
from game.engine import Variant
from game.models import Game, Move
from game.players import Player
from game.services import game_start
from leaderboard import challenge
from leaderboard.models import DailyAttempt, PlayerBest, PlayerTally
from tests.accounts.helpers import signed_in
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, play_out
from tests.servers import shared_database_url

Players = Callable[..., list[User]]


def boards_verify() -> tuple[bool, list[str]]:
    """Run the command in this process: whether it found the boards right, and what it said."""
    out = io.StringIO()
    try:
        call_command("boards_verify", stdout=out)
    except CommandError as error:
        return False, [*out.getvalue().splitlines(), str(error)]
    return True, out.getvalue().splitlines()


def some_boards(clock: Clock, players: Players) -> dict[str, Game]:
    """Two players' games played through the move path: fresh ones of both variants, one with a
    hint, one played again; a day's attempts, one finished, one closed at midnight."""
    ada, bob = players(2)
    games: dict[str, Game] = {}
    for hour, (name, user, variant) in enumerate(
        (
            ("ada", ada, Variant.TRIPEAKS),
            ("ada-nowrap", ada, Variant.NOWRAP),
            ("bob", bob, Variant.TRIPEAKS),
            ("bob-hint", bob, Variant.TRIPEAKS),
        )
    ):
        clock.set(at(DAY, 8 + hour))
        games[name] = game_start(player=Player(user_id=user.pk, guest_key=""), variant=variant)
    Game.objects.filter(id=games["bob-hint"].id).update(assisted=True)
    for minute, game in enumerate(games.values()):
        play_out(game, finished_at=at(DAY, 13, minute))
    again = signed_in(ada).post(f"/games/{games['bob'].id}/again")
    games["again"] = Game.objects.get(id=again["Location"].split("/")[2])
    play_out(games["again"], finished_at=at(DAY, 14))
    clock.set(at(DAY, 15))
    games["attempt"] = challenge.daily_attempt_start(user=ada, day=DAY)
    play_out(games["attempt"], finished_at=at(DAY, 15, 5))
    clock.set(at(DAY, 23, 50))
    games["closed"] = challenge.daily_attempt_start(user=bob, day=DAY)
    play_out(games["closed"], finished_at=at(DAY, 23, 55), moves=3)
    clock.set(at(DAY + timedelta(days=1), 1))
    call_command("daily_prepare", "--days", "0", stdout=io.StringIO())
    return games


@pytest.mark.django_db
def test_boards_kept_by_the_move_path_are_what_the_games_give(
    clock: Clock, players: Players
) -> None:
    some_boards(clock, players)
    ok, lines = boards_verify()
    assert ok, lines
    assert lines == [
        "OK 6 games replayed, 24 score-table rows and 2 daily attempts checked:"
        " the boards are what the games give"
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tamper", "said"),
    [
        (
            lambda games: PlayerBest.objects.filter(game=games["ada"]).update(score=9999),
            "best score row of player {ada} (tripeaks, random, all, all): score is 9999,",
        ),
        (
            lambda games: PlayerTally.objects.filter(
                user=games["bob"].owner, clean_only=False, period="all"
            ).update(won=7),
            "tally row of player {bob} (tripeaks, random, all, all): won is 7, the games give",
        ),
        (
            lambda games: Game.objects.filter(id=games["ada"].id).update(
                score=games["ada"].score + 10
            ),
            "game {ada_game}: score is",
        ),
        (
            lambda games: Move.objects.filter(game=games["ada"]).order_by("-seq")[0].delete(),
            "game {ada_game}: move_count is",
        ),
        (
            lambda games: Move.objects.filter(game=games["ada"], seq=0).update(move="9x"),
            "game {ada_game}: its move log does not replay:",
        ),
        (
            lambda games: PlayerBest.objects.filter(user=games["ada"].owner).delete(),
            "best score row of player {ada} (tripeaks, random, all, all): missing, the games give",
        ),
        (
            lambda games: PlayerBest.objects.filter(game=games["ada"]).update(game=games["again"]),
            "best score row of player {ada} (tripeaks, random, all, all): game_id is {again},",
        ),
        (
            lambda games: DailyAttempt.objects.filter(game=games["closed"]).update(
                score=games["closed"].score + 500
            ),
            "daily attempt of player {bob} on 2026-11-30: the board has",
        ),
        (
            lambda games: DailyAttempt.objects.filter(game=games["attempt"]).update(
                score=None, duration_ms=None, finished_at=None
            ),
            "daily attempt of player {ada} on 2026-11-30: the board has no result, the game",
        ),
    ],
)
def test_every_difference_is_reported(
    clock: Clock, players: Players, tamper: Callable[[dict[str, Game]], object], said: str
) -> None:
    games = some_boards(clock, players)
    for game in games.values():
        game.refresh_from_db()
    tamper(games)

    ok, lines = boards_verify()

    assert not ok
    expected = said.format(
        ada=games["ada"].owner_id,
        bob=games["bob"].owner_id,
        ada_game=games["ada"].id,
        again=games["again"].id,
    )
    assert any(line.startswith(f"DIFFERENT {expected}") for line in lines), lines
    assert lines[-1].endswith(" difference" if len(lines) == 2 else " differences")


@pytest.mark.django_db(transaction=True)
def test_the_command_exits_with_status_1_on_a_difference(clock: Clock, players: Players) -> None:
    """As a real process on the test database."""
    games = some_boards(clock, players)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", "boards_verify"],
            cwd=PROJECT_ROOT,
            env={
                "PATH": "/usr/bin:/bin",
                "DJANGO_SETTINGS_MODULE": "tests.settings",
                "DATABASE_URL": shared_database_url(),
            },
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    right = run()
    PlayerTally.objects.filter(user=games["bob"].owner).delete()
    wrong = run()

    assert right.returncode == 0, right.stdout + right.stderr
    assert right.stdout.startswith("OK ")
    assert wrong.returncode == 1
    assert wrong.stdout.startswith("DIFFERENT tally row of player")
    assert "differences" in wrong.stderr
