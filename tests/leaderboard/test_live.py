"""Boards and the real move path: games played over the game websocket enter the score tables in
the transaction that ends them, and a day's board is pushed live to whoever watches it."""

import asyncio
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from game import postgame
from game.engine import Deal, GameState, Variant
from game.models import Game, GameAnalysis
from game.players import Player
from game.services import game_start
from leaderboard import challenge
from leaderboard.models import DailyAttempt, PlayerBest, PlayerTally
from leaderboard.selectors import utc_today, week_period
from tests.accounts.helpers import make_player, signed_in_session
from tests.game.conftest import play_socket
from tests.leaderboard.helpers import play_out
from tests.sockets import socket_to

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """The post-game analysis (a solver in another process) is not what these tests are about."""
    monkeypatch.setattr("game.services.analysis_wake", lambda: None)


@database_sync_to_async
def player_with_game(username: str, *, daily: bool = False) -> tuple[User, Game, str]:
    user = make_player(username, email="")
    if daily:
        game = challenge.daily_attempt_start(user=user, day=utc_today())
    else:
        game = game_start(player=Player(user_id=user.pk, guest_key=""), variant=Variant.TRIPEAKS)
    return user, game, signed_in_session(user)


async def connected(path_or_game: object, session_key: str | None) -> WebsocketCommunicator:
    """A socket to a path; or, for a game, a player's socket asked to open it (its answer is
    the first frame to read)."""
    if isinstance(path_or_game, str):
        socket = socket_to(path_or_game)
        assert (await socket.connect())[0]
        return socket
    socket = play_socket(session_key)
    assert (await socket.connect())[0]
    await socket.send_json_to({"type": "open", "game": str(path_or_game)})
    return socket


async def play_to_the_end(socket: WebsocketCommunicator, game: Game) -> GameState:
    """Play the game over its socket, plays before draws, reading each new state."""
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "state"
    state = GameState(Deal.from_seed(game.seed), Variant(game.variant))
    while not state.status.is_over:
        move = state.legal_moves()[0]
        await socket.send_json_to({"type": "move", "seq": state.seq, "move": move.text})
        state.apply(move)
        reply = await socket.receive_json_from(timeout=5)
        assert (reply["type"], reply["seq"]) == ("moved", state.seq), reply
    return state


@database_sync_to_async
def tables_of(user_id: int) -> dict[str, Any]:
    return {
        "best": sorted(
            PlayerBest.objects.filter(user_id=user_id).values_list(
                "period", "clean_only", "score", "game_id"
            )
        ),
        "tally": sorted(
            PlayerTally.objects.filter(user_id=user_id).values_list(
                "period", "clean_only", "played", "won"
            )
        ),
    }


async def test_a_game_finished_over_the_socket_enters_the_score_tables(sockets) -> None:
    """The last move's transaction also writes the player's best and tally rows: all time and
    this week, in the "all" and the clean view."""
    user, game, session = await player_with_game("ada")
    socket = await connected(game.id, session)
    sockets.append(socket)

    state = await play_to_the_end(socket, game)

    tables = await tables_of(user.pk)
    stored: Game = await database_sync_to_async(Game.objects.get)(id=game.id)
    assert stored.finished_at is not None
    week = week_period(stored.finished_at)
    won = int(state.status.value == "won")
    views = [("all", False), ("all", True), (week, False), (week, True)]
    assert [row[:2] for row in tables["best"]] == sorted(views)
    assert {row[2:] for row in tables["best"]} == {(state.score, game.id)}
    assert [row[:2] for row in tables["tally"]] == sorted(views)
    assert {row[2:] for row in tables["tally"]} == {(1, won)}


async def test_a_guest_s_game_handed_to_an_account_in_play_counts_when_it_ends(
    make_seat, sockets
) -> None:
    """A guest signs up in the middle of a game, and the server that holds the game in play still
    knows it as the guest's: its last move is still entered into the account's tables (on
    PostgreSQL the database refuses it as a guest's ending, and the server sends it again as the
    account's)."""
    from game.services import games_claim

    seat = await make_seat(seed=None)  # a fresh deal: ranked
    socket = await seat.connect()
    sockets.append(socket)
    user = await database_sync_to_async(make_player)("late-signer", email="")
    state = GameState(Deal.from_seed(seat.game.seed), Variant.TRIPEAKS)
    while not state.status.is_over:
        move = state.legal_moves()[0]
        after = state.copy()
        after.apply(move)
        if after.status.is_over:
            claimed = database_sync_to_async(games_claim)
            assert await claimed(guest_key=seat.player.guest_key, user_id=user.pk) == 1
        await socket.send_json_to({"type": "move", "seq": state.seq, "move": move.text})
        state = after
        reply = await socket.receive_json_from(timeout=5)
        assert (reply["type"], reply["seq"]) == ("moved", state.seq), reply

    tables = await tables_of(user.pk)
    assert {row[2:] for row in tables["best"]} == {(state.score, seat.game.id)}
    assert {row[2] for row in tables["tally"]} == {1}


async def test_giving_up_over_the_socket_counts_as_a_game_played(sockets) -> None:
    user, game, session = await player_with_game("ada")
    socket = await connected(game.id, session)
    sockets.append(socket)
    await socket.receive_json_from(timeout=5)

    await socket.send_json_to({"type": "abandon"})
    reply = await socket.receive_json_from(timeout=5)

    assert reply["game"]["status"] == "abandoned"
    tables = await tables_of(user.pk)
    assert {row[2:] for row in tables["tally"]} == {(1, 0)}
    assert {row[2] for row in tables["best"]} == {0}


async def test_a_guest_s_game_enters_no_table(make_seat, sockets) -> None:
    seat = await make_seat(seed="7")
    socket = await seat.connect()
    sockets.append(socket)
    await socket.send_json_to({"type": "abandon"})
    await socket.receive_json_from(timeout=5)
    assert not await database_sync_to_async(PlayerTally.objects.exists)()


async def test_hints_are_refused_in_the_daily_challenge(sockets) -> None:
    _, game, session = await player_with_game("ada", daily=True)
    socket = await connected(game.id, session)
    sockets.append(socket)
    await socket.receive_json_from(timeout=5)

    await socket.send_json_to({"type": "hint"})
    reply = await socket.receive_json_from(timeout=5)

    assert (reply["type"], reply["code"]) == ("error", "forbidden")
    assert not (await database_sync_to_async(Game.objects.get)(id=game.id)).assisted


async def test_the_day_s_board_is_pushed_when_an_attempt_finishes(sockets) -> None:
    """Watchers of /ws/daily/<date>/ get the first page on connect, then a new one, with the
    finisher on it, once their last move has committed."""
    user, game, session = await player_with_game("ada", daily=True)
    board = await connected(f"/ws/daily/{utc_today()}/", None)
    sockets.append(board)
    first = await board.receive_json_from(timeout=5)
    assert (first["type"], first["date"], first["rows"]) == ("board", str(utc_today()), [])

    player = await connected(game.id, session)
    sockets.append(player)
    state = await play_to_the_end(player, game)

    pushed = await board.receive_json_from(timeout=5)
    assert pushed["type"] == "board"
    assert pushed["version"] >= first["version"]
    assert [(row["rank"], row["player"], row["score"]) for row in pushed["rows"]] == [
        (1, "ada", state.score)
    ]
    attempt = await database_sync_to_async(DailyAttempt.objects.get)(game_id=game.id)
    assert attempt.score == state.score
    assert attempt.user_id == user.pk


async def test_an_unknown_day_s_board_socket_is_closed(sockets) -> None:
    board = await connected("/ws/daily/1999-01-01/", None)
    sockets.append(board)
    message = await board.receive_json_from(timeout=5)
    assert message["code"] == "not_found"
    closed = await board.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_an_unknown_game_id_is_not_a_board(sockets) -> None:
    """The two websocket routes live side by side: a game's id still reaches the games."""
    socket = await connected(uuid.uuid4(), None)
    sockets.append(socket)
    message = await socket.receive_json_from(timeout=5)
    assert message["code"] == "not_found"


async def test_the_analysis_pushed_after_a_daily_game_has_no_par_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The post-game analysis reaches the player without the par line while the day lasts (it
    names cards they never saw); the stored analysis keeps it, for after the day."""
    monkeypatch.setattr(postgame, "worker_pool", lambda: ThreadPoolExecutor(max_workers=1))
    verdict = {"winnable": True, "par": 1500, "par_exact": True, "par_line": ["7h", "draw"]}
    report = {"par": 1500, "score": 300, "share": 0.2, "par_line": ["7h", "draw"]}
    monkeypatch.setattr(
        "game.analysis_worker.analyse_finished", lambda *args: (verdict, dict(report))
    )
    _, game, _ = await player_with_game("ada", daily=True)
    await database_sync_to_async(play_out)(game)
    layer = get_channel_layer()
    watcher = await layer.new_channel()
    await layer.group_add(game.group_name, watcher)

    postgame.analysis_wake()

    pushed = await asyncio.wait_for(layer.receive(watcher), 10)
    assert pushed == {
        "type": "game.analysis",
        "game": str(game.id),
        "analysis": {**report, "par_line": None},
    }
    stored = await database_sync_to_async(GameAnalysis.objects.get)(game_id=game.id)
    assert stored.report == report
