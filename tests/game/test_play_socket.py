"""Protocol v2: one socket per player tab (``/ws/play/``), carrying game after game, each move
answered with its change."""

import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from game.engine import Deal, GameState, Variant, change_applied, public_view
from game.engine.view import PublicView
from game.models import Game
from tests.game.conftest import Seat, visible_cards
from tests.sockets import socket_to

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

PUBLIC_FIELDS = tuple(PublicView.__annotations__)


async def play_socket(seat: Seat, sockets: list[WebsocketCommunicator]) -> WebsocketCommunicator:
    socket = socket_to("/ws/play/", seat.session_key)
    connected, _ = await socket.connect()
    assert connected
    sockets.append(socket)
    return socket


async def ask(socket: WebsocketCommunicator, message: dict[str, Any]) -> dict[str, Any]:
    await socket.send_json_to(message)
    answer: dict[str, Any] = await socket.receive_json_from(timeout=5)
    return answer


def public(view: dict[str, Any]) -> dict[str, Any]:
    return {name: view[name] for name in PUBLIC_FIELDS}


async def test_a_game_opened_and_played_by_changes(make_seat, sockets) -> None:
    """``open`` answers the whole VIEW; each move is answered with its change alone, which
    brings the VIEW the page holds to the state ``sync`` reads."""
    seat: Seat = await make_seat()
    socket = await play_socket(seat, sockets)
    opened = await ask(socket, {"type": "open", "game": str(seat.game.id)})
    assert opened["type"] == "state"
    view = opened["game"]
    state = GameState(Deal.from_seed("1"), Variant.TRIPEAKS)
    for _ in range(12):
        move = state.legal_moves()[0]
        state.apply(move)
        moved = await ask(socket, {"type": "move", "seq": view["seq"], "move": move.text})
        assert moved["type"] == "moved"
        assert moved["game"] == str(seat.game.id)
        assert not visible_cards(moved) - visible_cards(public_view(state))
        view = {**view, **change_applied(public(view), moved)}  # type: ignore[arg-type]
    synced = await ask(socket, {"type": "sync"})
    assert public(view) == public(synced["game"]) == public_view(state)


async def test_one_socket_carries_game_after_game(make_seat, sockets) -> None:
    """``new`` starts a fresh deal on the same socket; ``again`` the finished game's deal."""
    seat: Seat = await make_seat()
    socket = await play_socket(seat, sockets)
    fresh = await ask(socket, {"type": "new", "variant": "tripeaks-nowrap", "winnable_only": False})
    assert fresh["type"] == "state"
    assert (fresh["game"]["variant"], fresh["game"]["seq"]) == ("tripeaks-nowrap", 0)
    first = fresh["game"]["id"]
    assert first != str(seat.game.id)
    abandoned = await ask(socket, {"type": "abandon"})
    assert abandoned["game"]["status"] == "abandoned"
    again = await ask(socket, {"type": "again"})
    assert again["type"] == "state"
    assert again["game"]["id"] not in {first, str(seat.game.id)}
    assert again["game"]["tableau"] == fresh["game"]["tableau"]  # the same deal, face up as dealt
    games = await database_sync_to_async(
        lambda: {str(g.id): (g.seed, g.ranked) for g in Game.objects.filter(guest_key="guest-a")}
    )()
    assert games[again["game"]["id"]] == (games[first][0], False)


async def test_a_second_tab_hears_each_move_as_its_change(make_seat, sockets) -> None:
    """Another tab on the game hears each move as its change, as the mover's answer has it."""
    seat: Seat = await make_seat()
    mover, watcher = await play_socket(seat, sockets), await play_socket(seat, sockets)
    for socket in (mover, watcher):
        await ask(socket, {"type": "open", "game": str(seat.game.id)})
    await ask(mover, {"type": "move", "seq": 0, "move": "draw"})
    heard = await watcher.receive_json_from(timeout=5)
    assert (heard["type"], heard["seq"], heard["move"]) == ("moved", 1, "draw")


async def test_refusals_leave_the_socket_open_and_its_game_as_it_was(make_seat, sockets) -> None:
    seat: Seat = await make_seat()
    other: Seat = await make_seat("guest-b")
    socket = await play_socket(seat, sockets)
    assert (await ask(socket, {"type": "move", "seq": 0, "move": "draw"}))["code"] == "no_game"
    await ask(socket, {"type": "open", "game": str(seat.game.id)})
    refused = await ask(socket, {"type": "open", "game": str(other.game.id)})
    assert refused["code"] == "forbidden"
    unknown = await ask(socket, {"type": "open", "game": str(uuid.uuid4())})
    assert unknown["code"] == "not_found"
    for bad in (
        {"type": "open", "game": "not-a-uuid"},
        {"type": "new", "variant": "solitaire", "winnable_only": False},
        {"type": "new", "variant": "tripeaks", "winnable_only": "yes"},
    ):
        assert (await ask(socket, bad))["code"] == "bad_message"
    assert (await ask(socket, {"type": "again"}))["code"] == "game_in_progress"
    still = await ask(socket, {"type": "move", "seq": 0, "move": "draw"})
    assert (still["type"], still["game"]) == ("moved", str(seat.game.id))


async def test_a_resend_is_answered_with_the_state(make_seat, sockets) -> None:
    seat: Seat = await make_seat()
    socket = await play_socket(seat, sockets)
    await ask(socket, {"type": "open", "game": str(seat.game.id)})
    await ask(socket, {"type": "move", "seq": 0, "move": "draw"})
    resent = await ask(socket, {"type": "move", "seq": 0, "move": "draw"})
    assert (resent["type"], resent["game"]["seq"]) == ("state", 1)


async def test_a_visitor_with_no_game_yet_starts_one_from_the_page(sockets) -> None:
    socket = socket_to("/ws/play/")
    connected, _ = await socket.connect()
    assert connected
    sockets.append(socket)
    refused = await ask(socket, {"type": "new", "variant": "tripeaks", "winnable_only": False})
    assert refused["code"] == "forbidden"
