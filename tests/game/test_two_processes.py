"""Two Daphne processes sharing PostgreSQL and Redis serve one game together.

Needs a real channel layer between processes: skipped when REDIS_URL is unset (the embedded
default keeps the channel layer in one process's memory). CI runs it against Redis.
"""

import asyncio
import contextlib
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from deploy.clients import frame_seq
from game.engine import Deal, GameState, Variant, public_view
from game.engine.hint import hint
from game.models import Move
from tests.game.conftest import Seat
from tests.servers import daphne_server

pytestmark = [
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)"),
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def two_servers(transactional_db: None, tmp_path) -> Iterator[tuple[str, str]]:
    with daphne_server(tmp_path) as first, daphne_server(tmp_path) as second:
        yield first, second


async def open_socket(base: str, seat: Seat) -> ClientConnection:
    """A player's socket on the server at ``base``, with the seat's game opened."""
    socket = await websockets.connect(
        f"{base.replace('http:', 'ws:')}/ws/play/",
        origin=Origin(base),
        additional_headers={"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={seat.session_key}"},
    )
    await socket.send(json.dumps({"type": "open", "game": str(seat.game.id)}))
    first = await receive(socket)
    assert first["type"] == "state", first
    return socket


async def receive(socket: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), 10))
    return message


async def stored_moves(seat: Seat) -> list[str]:
    return await database_sync_to_async(
        lambda: list(Move.objects.filter(game=seat.game).values_list("move", flat=True))
    )()


async def test_a_move_on_one_process_reaches_a_socket_on_the_other(make_seat, two_servers) -> None:
    """Two tabs of one game on different processes: each sees the other's moves, in order."""
    seat: Seat = await make_seat()
    first, second = two_servers
    a, b = await open_socket(first, seat), await open_socket(second, seat)
    try:
        await a.send(json.dumps({"type": "move", "seq": 0, "move": "draw"}))
        assert frame_seq(await receive(a)) == 1
        seen_by_b = await receive(b)
        assert (seen_by_b["type"], seen_by_b["seq"], seen_by_b["stock_count"]) == ("moved", 1, 22)
        # b's process had the game cached at seq 0: the move at seq 1 makes it catch up first.
        state = GameState.replay(Deal.from_seed("1"), Variant.TRIPEAKS, ["draw"])
        card = state.legal_moves()[0].text
        await b.send(json.dumps({"type": "move", "seq": 1, "move": card}))
        assert frame_seq(await receive(b)) == 2
        assert frame_seq(await receive(a)) == 2
    finally:
        await a.close()
        await b.close()
    assert await stored_moves(seat) == ["draw", card]


async def test_processes_racing_on_one_seq_record_exactly_one_move(make_seat, two_servers) -> None:
    """Different moves for the same seq, sent at once to two processes: one wins, one is refused."""
    seat: Seat = await make_seat()
    first, second = two_servers
    a, b = await open_socket(first, seat), await open_socket(second, seat)
    state = GameState(Deal.from_seed("1"), Variant.TRIPEAKS)
    card = state.deal.tableau[state.playable_positions()[0]].code
    try:
        await asyncio.gather(
            a.send(json.dumps({"type": "move", "seq": 0, "move": "draw"})),
            b.send(json.dumps({"type": "move", "seq": 0, "move": card})),
        )
        answers = [await receive(a), await receive(b)]
        for socket in (a, b):  # whatever else is on its way: the winner's broadcast
            with contextlib.suppress(TimeoutError):
                answers.append(json.loads(await asyncio.wait_for(socket.recv(), 1)))
    finally:
        await a.close()
        await b.close()
    moves = await stored_moves(seat)
    assert len(moves) == 1
    errors = [m for m in answers if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["out_of_sync"]
    assert errors[0]["game"]["seq"] == 1
    assert all(frame_seq(m) == 1 for m in answers)


async def test_a_resend_to_the_process_that_did_not_take_the_move_is_answered_with_the_state(
    make_seat, two_servers
) -> None:
    """The page resends a move after a reconnect that landed on the other process, whose copy of
    the game is one move behind: the answer is the state with the move in it, not out_of_sync."""
    seat: Seat = await make_seat()
    first, second = two_servers
    a, b = await open_socket(first, seat), await open_socket(second, seat)  # b caches seq 0
    try:
        await a.send(json.dumps({"type": "move", "seq": 0, "move": "draw"}))
        assert frame_seq(await receive(a)) == 1
        await receive(b)  # the broadcast: b's socket knows, b's process has not reloaded
        await b.send(json.dumps({"type": "move", "seq": 0, "move": "draw"}))
        answer = await receive(b)
    finally:
        await a.close()
        await b.close()
    assert answer["type"] == "state", answer
    assert answer["game"]["seq"] == 1
    assert await stored_moves(seat) == ["draw"]


async def test_a_hint_on_the_process_that_did_not_take_the_last_move_is_for_the_position_now(
    make_seat, two_servers
) -> None:
    seat: Seat = await make_seat()
    first, second = two_servers
    a, b = await open_socket(first, seat), await open_socket(second, seat)
    try:
        await a.send(json.dumps({"type": "move", "seq": 0, "move": "draw"}))
        assert frame_seq(await receive(a)) == 1
        await receive(b)
        await b.send(json.dumps({"type": "hint"}))
        answer = await receive(b)
    finally:
        await a.close()
        await b.close()
    assert answer["type"] == "hint", answer
    state = GameState.replay(Deal.from_seed("1"), Variant.TRIPEAKS, ["draw"])
    expected = hint(public_view(state))
    assert answer["game"]["seq"] == 1
    assert answer["move"] == (expected.move.text if expected.move else None)
