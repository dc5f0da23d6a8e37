"""Hints in casual games, the post-game analysis worker, and winnable-only deals."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game import postgame
from game.engine import Deal, GameState, Variant, public_view
from game.engine.hint import hint
from game.engine.solver import find_par, solve
from game.hint_words import hint_words
from game.models import DealPar, Game, GameAnalysis
from tests.game.conftest import Seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_a_hint_names_the_engines_move_and_marks_the_game_assisted(
    make_seat, sockets
) -> None:
    """The hint is the engine's suggestion for what the player sees; the game is now assisted,
    which the asker learns from the hint and every other tab from a broadcast."""
    seat: Seat = await make_seat()
    socket, other_tab = await seat.connect(), await seat.connect()
    sockets.extend([socket, other_tab])
    await socket.send_json_to({"type": "hint"})
    answer = await socket.receive_json_from(timeout=5)
    broadcast = await other_tab.receive_json_from(timeout=5)
    assert answer["type"] == "hint"
    assert broadcast["type"] == "state"
    assert await socket.receive_nothing(timeout=0.3)
    expected = hint(public_view(GameState(Deal.from_seed("1"), Variant.TRIPEAKS)))
    assert expected.move is not None
    assert answer["move"] == expected.move.text
    assert answer["reason"] == hint_words(expected.why)
    assert answer["game"]["assisted"] is True
    assert broadcast["game"]["assisted"] is True
    if not expected.move.is_draw:
        assert answer["position"] in answer["game"]["playable"]
    game = await database_sync_to_async(Game.objects.get)(id=seat.game.id)
    assert game.assisted is True


@pytest.mark.asyncio
async def test_a_game_without_hints_is_not_assisted(make_seat, sockets) -> None:
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    await socket.send_json_to({"type": "move", "seq": 0, "move": "draw"})
    assert (await socket.receive_json_from(timeout=5))["type"] == "moved"
    await socket.send_json_to({"type": "sync"})
    reply = await socket.receive_json_from(timeout=5)
    assert reply["game"]["assisted"] is False


@pytest.mark.asyncio
async def test_a_finished_game_gets_its_analysis_pushed_and_stored(make_seat, sockets) -> None:
    """Once the last move is acknowledged, the worker's analysis arrives over the socket."""
    seat: Seat = await make_seat(seed="3")
    socket = await seat.connect()
    sockets.append(socket)
    state = GameState(Deal.from_seed("3"), Variant.TRIPEAKS)
    while not state.status.is_over:
        move = state.legal_moves()[0]
        await socket.send_json_to({"type": "move", "seq": state.seq, "move": move.text})
        reply = await socket.receive_json_from(timeout=5)
        assert reply["type"] == "moved", reply
        state.apply(move)
    assert reply["status"] == state.status.value  # the game-over move comes first
    pushed = await socket.receive_json_from(timeout=120)
    assert (pushed["type"], pushed["game"]) == ("analysis", str(seat.game.id))
    report = pushed["analysis"]
    par = find_par(state.deal, state.variant)
    assert (report["par"], report["score"]) == (par.par, state.score)
    stored = await database_sync_to_async(GameAnalysis.objects.get)(game_id=seat.game.id)
    assert stored.report == report
    verdict = await database_sync_to_async(DealPar.objects.get)(seed="3", variant="tripeaks")
    assert verdict.par == par.par


@pytest.mark.asyncio
async def test_abandoning_also_brings_an_analysis(make_seat, sockets) -> None:
    seat: Seat = await make_seat(seed="4")
    socket = await seat.connect()
    sockets.append(socket)
    await socket.send_json_to({"type": "abandon"})
    assert (await socket.receive_json_from(timeout=5))["game"]["status"] == "abandoned"
    pushed = await asyncio.wait_for(socket.receive_json_from(timeout=120), 130)
    assert pushed["type"] == "analysis"
    assert pushed["analysis"]["status"] == "abandoned"
    assert pushed["analysis"]["score"] == 0


def test_the_analysis_endpoint_waits_then_answers(client: Client) -> None:
    """analysis.json: 409 in play, 202 before the worker is done, 200 with the report after."""
    response = client.post("/games/new")
    game = Game.objects.get(id=response["Location"].split("/")[2])
    assert client.get(f"/games/{game.id}/analysis.json").status_code == 409
    state = GameState(Deal.from_seed(game.seed), Variant(game.variant))
    state.abandon()
    from django.utils import timezone

    Game.objects.filter(id=game.id).update(
        status="abandoned", finished_at=timezone.now(), duration_ms=5
    )
    assert client.get(f"/games/{game.id}/analysis.json").status_code == 202
    game.refresh_from_db()
    report = postgame.analyse_here(game.id)
    answer = client.get(f"/games/{game.id}/analysis.json")
    assert answer.status_code == 200
    assert answer.json() == report


def test_the_management_command_analyses_what_is_missing(client: Client) -> None:
    from django.core.management import call_command
    from django.utils import timezone

    client.post("/games/new")
    game = Game.objects.get()
    Game.objects.filter(id=game.id).update(
        status="abandoned", finished_at=timezone.now(), duration_ms=5
    )
    call_command("analyse_games")
    assert GameAnalysis.objects.filter(game=game).exists()


def test_winnable_only_deals_are_proven_winnable(client: Client) -> None:
    """A game started with winnable_only gets a deal the solver wins."""
    for _ in range(3):
        client.post("/games/new", {"winnable_only": "on", "variant": "tripeaks-nowrap"})
    for game in Game.objects.all():
        assert game.variant == "tripeaks-nowrap"
        assert solve(Deal.from_seed(game.seed), Variant(game.variant)).winnable is True
