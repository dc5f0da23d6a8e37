"""The player's websocket (``/ws/play/``) against the real ASGI application: the guarantees of
docs/protocol.md (a move acknowledged only after its commit, resent by seq, ``sync`` from the
stored log, refusals that change nothing, no hidden card ever sent)."""

import asyncio
import json
import re
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.metrics import MOVE_ACK_SECONDS, MOVES_ACKNOWLEDGED, WRITER_BATCH_SECONDS
from game.engine import Deal, GameState, Variant
from game.models import Game, Move
from game.writer import PLAYING_LANE
from tests.game.conftest import Seat, drop_broadcasts, game_opened, guest_session, play_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

DEAL = Deal.from_seed("1")


def engine_state(moves: list[str]) -> GameState:
    return GameState.replay(DEAL, Variant.TRIPEAKS, moves)


def a_playable_card(moves: list[str]) -> str:
    state = engine_state(moves)
    return state.deal.tableau[state.playable_positions()[0]].code


def an_unfitting_face_up_card(moves: list[str]) -> str:
    state = engine_state(moves)
    return next(
        state.deal.tableau[p].code
        for p in range(28)
        if state.is_available(p) and not state.fits_waste(state.deal.tableau[p])
    )


async def stored_moves(game_id: uuid.UUID) -> list[str]:
    return await sync_to_async(
        lambda: list(Move.objects.filter(game_id=game_id).values_list("move", flat=True))
    )()


async def stored_game(game_id: uuid.UUID) -> Game:
    return await sync_to_async(Game.objects.get)(id=game_id)


async def send(socket: WebsocketCommunicator, message: dict[str, Any]) -> dict[str, Any]:
    await socket.send_json_to(message)
    reply: dict[str, Any] = await socket.receive_json_from(timeout=5)
    return reply


async def drain(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Every message that arrives until the socket has been quiet for half a second."""
    messages = [await socket.receive_json_from(timeout=5)]
    while not await socket.receive_nothing(timeout=0.5):
        messages.append(await socket.receive_json_from(timeout=5))
    return messages


async def test_opening_sends_the_state_without_hidden_cards(make_seat, sockets) -> None:
    """Opening the game, the player gets the VIEW: ten face-up cards, 18 backs, 23 in the stock."""
    seat: Seat = await make_seat()
    socket, message = await game_opened(seat.game.id, seat.session_key)
    sockets.append(socket)
    view = message["game"]
    assert message["type"] == "state"
    assert view["id"] == str(seat.game.id)
    assert view["mode"] == "casual"
    assert view["tableau"][:18] == ["down"] * 18
    assert view["tableau"][18:] == [card.code for card in DEAL.tableau[18:]]
    assert view["waste"] == DEAL.waste.code
    assert view["stock_count"] == 23
    assert view["seq"] == 0
    assert "seed" not in json.dumps(message)


async def test_a_legal_move_is_stored_then_acknowledged(make_seat, sockets) -> None:
    """A playable card is logged, the derived fields follow, and its change comes back once the
    move is stored."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    card = a_playable_card([])
    reply = await send(socket, {"type": "move", "seq": 0, "move": card})
    assert reply["type"] == "moved"
    assert (reply["seq"], reply["move"], reply["score"], reply["waste"]) == (1, card, 10, card)
    assert await stored_moves(seat.game.id) == [card]
    game = await stored_game(seat.game.id)
    assert (game.move_count, game.score, game.cards_left) == (1, 10, 27)


async def test_every_tab_on_the_game_gets_the_move(make_seat, sockets) -> None:
    """Two tabs on one game: a move made in one is pushed to both, as its change."""
    seat: Seat = await make_seat()
    first, second = await seat.connect(), await seat.connect()
    sockets.extend([first, second])
    await first.send_json_to({"type": "move", "seq": 0, "move": "draw"})
    for socket in (first, second):
        message = await socket.receive_json_from(timeout=5)
        assert (message["type"], message["seq"], message["stock_count"]) == ("moved", 1, 22)
    # The mover's answer came straight back; the broadcast does not repeat it.
    assert await first.receive_nothing(timeout=0.3)
    assert await second.receive_nothing(timeout=0.3)


async def test_a_tab_that_missed_a_move_gets_the_whole_state(
    make_seat, sockets, monkeypatch
) -> None:
    """A move's broadcast carries its change alone. A tab that missed the one before cannot
    apply it, and gets the whole state instead, read by its own socket."""
    seat: Seat = await make_seat()
    first, second = await seat.connect(), await seat.connect()
    sockets.extend([first, second])
    drop_broadcasts(monkeypatch, 1)
    assert (await send(first, {"type": "move", "seq": 0, "move": "draw"}))["seq"] == 1
    assert await second.receive_nothing(timeout=0.3)  # lost
    answer = await send(first, {"type": "move", "seq": 1, "move": "draw"})
    assert (answer["type"], answer["seq"]) == ("moved", 2)
    pushed = await second.receive_json_from(timeout=5)
    assert pushed["type"] == "state"
    assert (pushed["game"]["seq"], pushed["game"]["stock_count"]) == (2, 21)
    assert pushed["game"]["waste"] == answer["waste"]
    await first.send_json_to({"type": "move", "seq": 2, "move": "draw"})
    # Caught up: the next move is its change again.
    assert (await second.receive_json_from(timeout=5))["type"] == "moved"


async def test_an_illegal_move_is_refused_and_changes_nothing(make_seat, sockets) -> None:
    """A card that does not fit gets illegal_move with the reason and the unchanged state."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    card = an_unfitting_face_up_card([])
    reply = await send(socket, {"type": "move", "seq": 0, "move": card})
    assert reply["type"] == "error"
    assert reply["code"] == "illegal_move"
    assert reply["message"] == f"{card} does not fit on {DEAL.waste.code}"
    assert reply["game"]["seq"] == 0
    assert await stored_moves(seat.game.id) == []


async def test_a_hidden_card_is_refused_without_saying_where_it_is(make_seat, sockets) -> None:
    """Naming a face-down card or a stock card gets the same answer, which reveals neither."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    face_down, in_stock = DEAL.tableau[0].code, DEAL.stock[5].code
    first = await send(socket, {"type": "move", "seq": 0, "move": face_down})
    second = await send(socket, {"type": "move", "seq": 0, "move": in_stock})
    assert first["code"] == second["code"] == "illegal_move"
    assert first["message"].replace(face_down, "X") == second["message"].replace(in_stock, "X")
    assert first["game"] == second["game"]


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '"move"',
        "{}",
        '{"type": "dance"}',
        '{"type": "move", "seq": 0}',
        '{"type": "move", "move": "draw"}',
        '{"type": "move", "seq": "0", "move": "draw"}',
        '{"type": "move", "seq": true, "move": "draw"}',
        '{"type": "move", "seq": -1, "move": "draw"}',
        '{"type": "move", "seq": 0.0, "move": "draw"}',
        '{"type": "move", "seq": 0, "move": 7}',
        '{"type": "move", "seq": 0, "move": "7x"}',
        '{"type": "move", "seq": 0, "move": "draw", "extra": 1}',
        '{"type": "sync", "seq": 0}',
        json.dumps({"type": "move", "seq": 0, "move": "draw", "pad": "x" * 5000}),
        "[" * 100_000,
    ],
)
async def test_malformed_messages_get_bad_message(make_seat, sockets, text: str) -> None:
    """Anything but a protocol message is answered with bad_message and changes nothing."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    await socket.send_to(text_data=text)
    reply = await socket.receive_json_from(timeout=5)
    assert (reply["type"], reply["code"]) == ("error", "bad_message")
    assert await stored_moves(seat.game.id) == []


async def test_binary_frames_get_bad_message(make_seat, sockets) -> None:
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    await socket.send_to(bytes_data=b'{"type": "sync"}')
    reply = await socket.receive_json_from(timeout=5)
    assert reply["code"] == "bad_message"


async def test_a_resent_move_is_answered_with_the_state_and_recorded_once(
    make_seat, sockets
) -> None:
    """The same move with the same seq, sent again after it was applied, changes nothing: the
    answer is the whole state the move left."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    first = await send(socket, {"type": "move", "seq": 0, "move": "draw"})
    again = await send(socket, {"type": "move", "seq": 0, "move": "draw"})
    assert (again["type"], again["game"]["seq"], again["game"]["waste"]) == (
        "state",
        1,
        first["waste"],
    )
    assert await stored_moves(seat.game.id) == ["draw"]


async def test_moves_out_of_order_get_out_of_sync_with_the_state(make_seat, sockets) -> None:
    """A seq from the future, or a different move for a seq already taken, is out_of_sync."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    ahead = await send(socket, {"type": "move", "seq": 3, "move": "draw"})
    assert (ahead["code"], ahead["game"]["seq"]) == ("out_of_sync", 0)
    await send(socket, {"type": "move", "seq": 0, "move": "draw"})
    other = await send(socket, {"type": "move", "seq": 0, "move": a_playable_card(["draw"])})
    assert (other["code"], other["game"]["seq"]) == ("out_of_sync", 1)
    assert await stored_moves(seat.game.id) == ["draw"]


async def test_two_connections_racing_on_one_seq_have_exactly_one_winner(
    make_seat, sockets
) -> None:
    """Two different moves sent at once for the same seq: one is recorded, one is out_of_sync."""
    seat: Seat = await make_seat()
    first, second = await seat.connect(), await seat.connect()
    sockets.extend([first, second])
    card = a_playable_card([])
    await asyncio.gather(
        first.send_json_to({"type": "move", "seq": 0, "move": "draw"}),
        second.send_json_to({"type": "move", "seq": 0, "move": card}),
    )
    heard = [await drain(first), await drain(second)]
    errors = [m for m in heard[0] + heard[1] if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["out_of_sync"]
    assert errors[0]["game"]["seq"] == 1
    # The winner's move reaches both sockets: as its change, or within the loser's refusal.
    for messages in heard:
        last = messages[-1]
        assert (last if last["type"] == "moved" else last["game"])["seq"] == 1, messages
        assert [m["seq"] for m in messages if m["type"] == "moved"] in ([1], [])
    assert len(await stored_moves(seat.game.id)) == 1


async def test_a_move_recorded_by_another_process_wins_over_a_stale_cache(
    make_seat, sockets
) -> None:
    """If another process recorded seq 0 meanwhile, this one answers out_of_sync: no fork."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)

    def record_elsewhere() -> None:
        from django.utils import timezone

        Move.objects.create(game_id=seat.game.id, seq=0, move="draw", played_at=timezone.now())
        Game.objects.filter(id=seat.game.id).update(move_count=1)

    await sync_to_async(record_elsewhere)()
    reply = await send(socket, {"type": "move", "seq": 0, "move": a_playable_card([])})
    assert reply["code"] == "out_of_sync"
    assert reply["game"]["seq"] == 1
    assert reply["game"]["stock_count"] == 22
    assert await stored_moves(seat.game.id) == ["draw"]


async def test_a_move_after_the_game_ended_elsewhere_gets_game_over(make_seat, sockets) -> None:
    """A game this process has cached in play was ended elsewhere (a race's time limit, through
    another process): the move is refused by the database, and the player gets game_over with
    the game as it ended, the move not stored."""
    seat: Seat = await make_seat()
    socket = await seat.connect()  # caches the game in play
    sockets.append(socket)

    def end_elsewhere() -> None:
        from django.db import transaction
        from django.utils import timezone

        from game.ending import games_abandon

        with transaction.atomic():
            assert games_abandon({seat.game.id: timezone.now()}) == [seat.game.id]

    await sync_to_async(end_elsewhere)()
    reply = await send(socket, {"type": "move", "seq": 0, "move": a_playable_card([])})
    while reply["type"] == "state":  # the end, pushed to the game's group
        reply = await socket.receive_json_from(timeout=5)
    assert reply["code"] == "game_over", reply
    assert reply["game"]["status"] == "abandoned"
    assert await stored_moves(seat.game.id) == []


async def test_moves_after_the_end_get_game_over(make_seat, sockets) -> None:
    """Once abandoned, the game takes no more moves, and the score stands."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    card = a_playable_card([])
    await send(socket, {"type": "move", "seq": 0, "move": card})
    abandoned = await send(socket, {"type": "abandon"})
    assert abandoned["game"]["status"] == "abandoned"
    assert abandoned["game"]["finished_at"] is not None
    late = await send(socket, {"type": "move", "seq": 1, "move": "draw"})
    assert late["code"] == "game_over"
    game = await stored_game(seat.game.id)
    assert (game.status, game.score, game.move_count) == ("abandoned", 10, 1)


async def test_someone_elses_game_is_forbidden(make_seat, sockets) -> None:
    """Another guest cannot open a game in progress: forbidden, without the game, and nothing
    of it follows."""
    seat: Seat = await make_seat()
    intruder_session = await sync_to_async(guest_session)("guest-b")
    socket, reply = await game_opened(seat.game.id, intruder_session)
    sockets.append(socket)
    assert (reply["type"], reply["code"]) == ("error", "forbidden")
    assert "game" not in reply
    owner = await seat.connect()
    sockets.append(owner)
    await send(owner, {"type": "move", "seq": 0, "move": "draw"})
    assert await socket.receive_nothing(timeout=0.3)
    assert (await send(socket, {"type": "sync"}))["code"] == "no_game"


async def test_a_visitor_without_a_session_is_forbidden(make_seat, sockets) -> None:
    seat: Seat = await make_seat()
    socket, reply = await game_opened(seat.game.id, None)
    sockets.append(socket)
    assert reply["code"] == "forbidden"


async def test_an_unknown_game_is_not_found(make_seat, sockets) -> None:
    seat: Seat = await make_seat()
    socket, reply = await game_opened(uuid.uuid4(), seat.session_key)
    sockets.append(socket)
    assert reply["code"] == "not_found"


async def test_a_foreign_origin_is_refused_at_the_handshake(make_seat) -> None:
    """A page on another site cannot open the player's socket with their cookie."""
    seat: Seat = await make_seat()
    socket = play_socket(seat.session_key, origin=b"https://evil.example")
    connected, _ = await socket.connect()
    assert not connected


async def test_a_flood_of_messages_is_rate_limited(make_seat, sockets, settings) -> None:
    """More messages than the burst allows get rate_limited; the connection stays usable."""
    settings.GAME_SOCKET_RATE, settings.GAME_SOCKET_BURST = 20.0, 40
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    for _ in range(100):
        await socket.send_to(text_data="{}")
    codes = [(await socket.receive_json_from(timeout=5))["code"] for _ in range(100)]
    assert set(codes) == {"bad_message", "rate_limited"}
    assert codes[:39] == ["bad_message"] * 39  # the burst, but for the message that opened the game
    await asyncio.sleep(0.2)  # enough to earn a few messages back
    assert (await send(socket, {"type": "sync"}))["type"] == "state"


async def test_a_whole_game_never_shows_a_hidden_card(make_seat, sockets) -> None:
    """Played to the end, no message names a card before it is face up or drawn."""
    seat: Seat = await make_seat(seed="2")
    deal = Deal.from_seed("2")
    socket = await seat.connect()
    sockets.append(socket)
    state = GameState(deal, Variant.TRIPEAKS)
    seen = {card.code for card in deal.tableau[18:]} | {deal.waste.code}
    codes = re.compile(r"\b[A2-9TJQK][cdhs]\b")
    while not state.status.is_over:
        move = state.legal_moves()[0]
        reply = await send(socket, {"type": "move", "seq": state.seq, "move": move.text})
        state.apply(move)
        seen |= {state.deal.tableau[p].code for p in range(28) if state.is_face_up(p)}
        seen.add(state.waste_top.code)
        named = set(codes.findall(json.dumps(reply)))
        assert named <= seen, named - seen
        assert (reply["type"], reply["score"]) == ("moved", state.score)
    assert reply["status"] == state.status.value
    game = await stored_game(seat.game.id)
    assert (game.status, game.score, game.move_count) == (
        state.status.value,
        state.score,
        state.seq,
    )


async def test_sync_answers_with_the_current_state(make_seat, sockets) -> None:
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    await send(socket, {"type": "move", "seq": 0, "move": "draw"})
    reply = await send(socket, {"type": "sync"})
    assert (reply["type"], reply["game"]["seq"]) == ("state", 1)


async def test_a_reconnecting_player_finds_the_game_as_they_left_it(make_seat) -> None:
    """Acknowledged moves survive the connection: a new socket gets the same state."""
    seat: Seat = await make_seat()
    socket = await seat.connect()
    card = a_playable_card([])
    await send(socket, {"type": "move", "seq": 0, "move": card})
    before = await send(socket, {"type": "sync"})
    await socket.disconnect()
    again = await seat.connect()
    reply = await send(again, {"type": "sync"})
    await again.disconnect()
    assert reply["game"] == before["game"]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["type", "seq", "move", "x"]) | st.text(max_size=5),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(payload=JSON_VALUES)
async def test_hostile_json_never_changes_the_game(make_seat, payload: object) -> None:
    """Whatever JSON arrives, the answer is a state, a move's change or an error; only a valid
    move is logged."""
    seat: Seat = await make_seat(guest_key=f"guest-{uuid.uuid4().hex}")
    socket = await seat.connect()
    try:
        await socket.send_to(text_data=json.dumps(payload))
        reply = await socket.receive_json_from(timeout=5)
    finally:
        await socket.disconnect()
    assert reply["type"] in {"state", "moved", "error"}
    moves = await stored_moves(seat.game.id)
    valid = (
        isinstance(payload, dict)
        and payload.get("type") == "move"
        and set(payload) == {"type", "seq", "move"}
        and payload["seq"] == 0
        and payload["seq"] is not False
        and payload["move"] in {m.text for m in engine_state([]).legal_moves()}
    )
    assert moves == ([payload["move"]] if valid else [])  # type: ignore[index]


async def test_a_game_dealt_for_later_refuses_moves_until_it_starts(sockets) -> None:
    """A race's games are dealt before its countdown ends: an early move changes nothing."""
    from datetime import timedelta

    from django.utils import timezone

    from game.players import Player
    from game.services import game_start

    def deal_for_later() -> Game:
        player = Player(user_id=None, guest_key="guest-late")
        later = timezone.now() + timedelta(minutes=5)
        return game_start(player=player, variant=Variant.TRIPEAKS, seed="1", starts_at=later)

    game = await sync_to_async(deal_for_later)()
    socket, opened = await game_opened(game.id, await sync_to_async(guest_session)("guest-late"))
    sockets.append(socket)
    assert opened["type"] == "state"
    reply = await send(socket, {"type": "move", "seq": 0, "move": "draw"})
    assert reply["code"] == "not_started"
    assert reply["game"]["seq"] == 0
    assert await stored_moves(game.id) == []


@pytest.mark.asyncio
async def test_an_acknowledged_move_is_counted_for_the_operators(make_seat, sockets) -> None:
    seat: Seat = await make_seat()
    socket = await seat.connect()
    sockets.append(socket)
    batches = WRITER_BATCH_SECONDS.labels(lane=PLAYING_LANE)
    before = MOVES_ACKNOWLEDGED._value.get()
    timed = sum(bucket.get() for bucket in MOVE_ACK_SECONDS._buckets)
    written = sum(bucket.get() for bucket in batches._buckets)
    await socket.send_json_to({"type": "move", "seq": 0, "move": "draw"})
    assert (await socket.receive_json_from(timeout=5))["seq"] == 1
    await socket.send_json_to({"type": "move", "seq": 0, "move": "draw"})  # a resend: no new move
    assert (await socket.receive_json_from(timeout=5))["game"]["seq"] == 1
    assert MOVES_ACKNOWLEDGED._value.get() == before + 1
    assert sum(bucket.get() for bucket in MOVE_ACK_SECONDS._buckets) == timed + 1
    assert sum(bucket.get() for bucket in batches._buckets) == written + 1  # its batch, timed
