"""The room websocket against the real ASGI application: docs/races.md, frame by frame.

Racers play their games over the game socket, as the page does; the room socket must carry their
progress, and never a card or the seed, to every other racer and onlooker.
"""

import json
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from core.errors import CLOSE_BANNED
from core.sockets import player_sockets_close
from game.engine import Deal, GameState, Variant
from game.models import Game, Status
from races import live, selectors, services
from races.models import Entry, Room, Round
from tests.accounts.helpers import signed_in_session
from tests.game.conftest import visible_cards
from tests.races.conftest import make_player, next_move, play_socket, room_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class Racer:
    """A signed-in player, their session, and their sockets."""

    def __init__(self, user: User, session_key: str) -> None:
        self.user = user
        self.session_key = session_key
        self.name = user.get_username()


@database_sync_to_async
def racer(name: str) -> Racer:
    user = make_player(name)
    return Racer(user, signed_in_session(user))


@database_sync_to_async
def open_room(host: Racer, *, time_limit_s: int | None = None) -> Room:
    return services.room_open(
        user=host.user, variant=Variant.TRIPEAKS, public=True, time_limit_s=time_limit_s
    )


@database_sync_to_async
def current_round(room: Room) -> Round:
    return Round.objects.filter(room=room).order_by("-number")[0]


@database_sync_to_async
def stored_game(game_id: str) -> Game:
    return Game.objects.get(id=game_id)


async def connect(socket: WebsocketCommunicator, sockets: list[WebsocketCommunicator]) -> None:
    connected, _ = await socket.connect()
    assert connected
    sockets.append(socket)


async def frames_until(
    socket: WebsocketCommunicator, wanted: Any, seen: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Read frames until one satisfies ``wanted``; every frame read goes into ``seen``."""
    for _ in range(200):
        frame: dict[str, Any] = await socket.receive_json_from(timeout=5)
        if seen is not None:
            seen.append(frame)
        if wanted(frame):
            return frame
    raise AssertionError("the wanted frame never came")


async def drain(socket: WebsocketCommunicator, seen: list[dict[str, Any]]) -> None:
    """Read every frame until the socket is quiet for a moment."""
    while not await socket.receive_nothing(timeout=0.3):
        seen.append(await socket.receive_json_from(timeout=5))


def line(frame: dict[str, Any], player: str) -> dict[str, Any] | None:
    """A racer's line in a room frame."""
    return next((r for r in frame.get("racers", []) if r["player"] == player), None)


def connected(player: str, *, now: bool = True) -> Any:
    def wanted(frame: dict[str, Any]) -> bool:
        found = line(frame, player)
        return frame["type"] == "room" and found is not None and found["connected"] == now

    return wanted


def room_frame(state: str) -> Any:
    return lambda frame: frame["type"] == "room" and frame["state"] == state


async def on_room(
    who: Racer | None, room: Room, sockets: list[WebsocketCommunicator]
) -> WebsocketCommunicator:
    """A socket on the room's page, past its first snapshot."""
    socket = room_socket(room.code, who.session_key if who is not None else None)
    await connect(socket, sockets)
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "room", first
    return socket


async def on_game(
    game_id: str, who: Racer, sockets: list[WebsocketCommunicator]
) -> WebsocketCommunicator:
    """A racer's player socket with their race game opened, past its state."""
    socket = play_socket(who.session_key)
    await connect(socket, sockets)
    await socket.send_json_to({"type": "open", "game": game_id})
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "state", first
    return socket


@dataclass
class TwoRacers:
    """Ada's room with Bea seated, the race started: both room sockets, and Bea's racing frame."""

    ada: Racer
    bea: Racer
    room: Room
    ada_room: WebsocketCommunicator
    bea_room: WebsocketCommunicator
    started: dict[str, Any]


async def two_racers_racing(sockets: list[WebsocketCommunicator]) -> TwoRacers:
    ada, bea = await racer("ada"), await racer("bea")
    room = await open_room(ada)
    ada_room = await on_room(ada, room, sockets)
    bea_room = await on_room(bea, room, sockets)
    await bea_room.send_json_to({"type": "join"})
    await frames_until(ada_room, connected("bea"))
    await ada_room.send_json_to({"type": "start"})
    started = await frames_until(bea_room, room_frame("racing"))
    return TwoRacers(ada, bea, room, ada_room, bea_room, started)


async def play_out(socket: WebsocketCommunicator, seed: str) -> GameState:
    """Play a game over its socket to the end, a move at a time, each acknowledged."""
    return await play_moves(socket, seed, None)


async def play_moves(socket: WebsocketCommunicator, seed: str, count: int | None) -> GameState:
    """Play ``count`` moves (None: to the end) over a game's socket, each acknowledged."""
    state = GameState(Deal.from_seed(seed), Variant.TRIPEAKS)
    while not state.status.is_over and (count is None or state.seq < count):
        move = next_move(state)
        await socket.send_json_to({"type": "move", "seq": state.seq, "move": move.text})
        reply = await socket.receive_json_from(timeout=5)
        assert reply["type"] == "moved", reply
        state.apply(move)
        assert reply["seq"] == state.seq
    return state


@pytest.mark.usefixtures("no_countdown")
async def test_a_whole_race_shows_progress_and_never_a_card(sockets) -> None:
    """Two racers race to the end. The other racer's room socket and an onlooker's get every
    racer's progress and then the results, and no frame holds a card or the seed."""
    ada, bea = await racer("ada"), await racer("bea")
    room = await open_room(ada)
    ada_room = await on_room(ada, room, sockets)
    bea_room = await on_room(bea, room, sockets)
    onlooker = await on_room(None, room, sockets)
    bea_frames: list[dict[str, Any]] = []
    onlooker_frames: list[dict[str, Any]] = []

    await bea_room.send_json_to({"type": "join"})
    joined = await frames_until(
        onlooker,
        lambda f: f["type"] == "room" and len(f["racers"]) == 2 and f["racers"][1]["connected"],
        onlooker_frames,
    )
    assert [r["player"] for r in joined["racers"]] == ["ada", "bea"]
    await ada_room.send_json_to({"type": "start"})
    started = await frames_until(ada_room, room_frame("racing"))
    bea_started = await frames_until(bea_room, room_frame("racing"), bea_frames)
    await frames_until(onlooker, room_frame("racing"), onlooker_frames)
    assert started["round"]["number"] == 1
    assert started["your_game"] is not None
    assert onlooker_frames[-1]["your_game"] is None
    seed = (await current_round(room)).seed

    ada_game = await on_game(started["your_game"], ada, sockets)
    ada_state = await play_out(ada_game, seed)

    progress = await frames_until(
        bea_room,
        lambda f: f["type"] == "progress" and f["player"] == "ada" and f["status"] != "playing",
        bea_frames,
    )
    assert progress["moves"] == ada_state.seq
    assert progress["cards_left"] == ada_state.cards_left
    assert progress["score"] == ada_state.score
    assert progress["status"] == ada_state.status.value
    assert progress["finished_ms"] is not None

    bea_game = await on_game(bea_started["your_game"], bea, sockets)
    await play_moves(bea_game, seed, 3)
    await bea_game.send_json_to({"type": "abandon"})

    finished = await frames_until(onlooker, room_frame("finished"), onlooker_frames)
    await drain(onlooker, onlooker_frames)
    await drain(bea_room, bea_frames)
    # Same deal, same first moves: ada, who played on and finished first, is ahead.
    assert [(r["rank"], r["player"], r["status"]) for r in finished["results"]] == [
        (1, "ada", ada_state.status.value),
        (2, "bea", "gave_up"),
    ]
    assert finished["results"][0]["score"] == ada_state.score
    assert finished["results"][0]["rating_change"] > 0 > finished["results"][1]["rating_change"]
    # Onlookers saw ada's moves one by one, and bea's.
    moves_seen = [
        f["moves"] for f in onlooker_frames if f["type"] == "progress" and f["player"] == "ada"
    ]
    assert moves_seen == list(range(1, ada_state.seq + 1))
    for frame in bea_frames + onlooker_frames:
        assert not visible_cards(frame), frame
        assert seed not in json.dumps(frame)


async def test_commands_need_a_signed_in_player(sockets) -> None:
    ada = await racer("ada")
    room = await open_room(ada)
    guest = await on_room(None, room, sockets)
    await guest.send_json_to({"type": "join"})
    error = await guest.receive_json_from(timeout=5)
    assert error["code"] == "sign_in_required"


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"type": "dance"}',
        '{"type": "join", "seat": 3}',
        '{"type": 1}',
        json.dumps({"type": "sync", "pad": "x" * 100}),
    ],
)
async def test_bad_messages_are_refused_and_change_nothing(sockets, text: str) -> None:
    ada = await racer("ada")
    room = await open_room(ada)
    socket = await on_room(ada, room, sockets)
    await socket.send_to(text_data=text)
    error = await socket.receive_json_from(timeout=5)
    assert error["type"] == "error"
    assert error["code"] == "bad_message"
    assert await socket.receive_nothing(timeout=0.2)


async def test_a_flood_of_messages_is_rate_limited(sockets) -> None:
    ada = await racer("ada")
    room = await open_room(ada)
    socket = await on_room(ada, room, sockets)
    for _ in range(30):
        await socket.send_json_to({"type": "sync"})
    replies = [await socket.receive_json_from(timeout=5) for _ in range(30)]
    assert any(reply.get("code") == "rate_limited" for reply in replies)


async def test_an_unknown_room_is_not_found(sockets) -> None:
    socket = room_socket("nosuchroom12")
    await connect(socket, sockets)
    error = await socket.receive_json_from(timeout=5)
    assert error["code"] == "not_found"
    assert (await socket.receive_output(timeout=5))["code"] == 4404


async def test_only_the_host_starts_and_nobody_joins_a_started_race(sockets) -> None:
    ada, bea, cy = await racer("ada"), await racer("bea"), await racer("cy")
    room = await open_room(ada)
    ada_room = await on_room(ada, room, sockets)
    bea_room = await on_room(bea, room, sockets)
    cy_room = await on_room(cy, room, sockets)
    await bea_room.send_json_to({"type": "join"})
    await frames_until(bea_room, lambda f: f["type"] == "room" and len(f["racers"]) == 2)
    await bea_room.send_json_to({"type": "start"})
    assert (await frames_until(bea_room, lambda f: f["type"] == "error"))["code"] == "not_host"
    await ada_room.send_json_to({"type": "start"})
    await frames_until(cy_room, lambda f: f["type"] == "room" and f["state"] != "waiting")
    await cy_room.send_json_to({"type": "join"})
    assert (await frames_until(cy_room, lambda f: f["type"] == "error"))["code"] == "race_started"


async def test_moves_wait_for_the_countdown_and_nobody_moves_in_anothers_game(
    sockets, settings
) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 30
    ada, bea = await racer("ada"), await racer("bea")
    room = await open_room(ada)
    ada_room = await on_room(ada, room, sockets)
    await ada_room.send_json_to({"type": "start"})
    started = await frames_until(ada_room, room_frame("countdown"))
    game = await on_game(started["your_game"], ada, sockets)
    await game.send_json_to({"type": "move", "seq": 0, "move": "draw"})
    assert (await game.receive_json_from(timeout=5))["code"] == "not_started"

    intruder = play_socket(bea.session_key)
    await connect(intruder, sockets)
    await intruder.send_json_to({"type": "open", "game": started["your_game"]})
    assert (await intruder.receive_json_from(timeout=5))["code"] == "forbidden"


@pytest.mark.usefixtures("no_countdown")
async def test_the_time_limit_ends_the_race_on_time(sockets) -> None:
    """With nobody moving, the room's sockets end the round when its time is up: the game in
    play is abandoned (the player's board hears it) and the racer is out of time."""
    ada = await racer("ada")
    room = await open_room(ada, time_limit_s=1)
    ada_room = await on_room(ada, room, sockets)
    await ada_room.send_json_to({"type": "start"})
    started = await frames_until(ada_room, room_frame("racing"))
    game = await on_game(started["your_game"], ada, sockets)

    finished = await frames_until(ada_room, room_frame("finished"))

    assert finished["results"][0]["status"] == "out_of_time"
    update = await game.receive_json_from(timeout=5)
    assert update["game"]["status"] == "abandoned"
    assert (await stored_game(started["your_game"])).status == Status.ABANDONED


@pytest.mark.usefixtures("no_countdown")
async def test_a_racer_who_disconnects_shows_so_and_carries_on_when_back(sockets) -> None:
    race = await two_racers_racing(sockets)

    sockets.remove(race.bea_room)
    await race.bea_room.disconnect()
    await frames_until(race.ada_room, connected("bea", now=False))

    bea_back = await on_room(race.bea, race.room, sockets)
    back = await frames_until(race.ada_room, connected("bea"))
    assert back["state"] == "racing"
    game = await on_game(race.started["your_game"], race.bea, sockets)
    await game.send_json_to({"type": "move", "seq": 0, "move": "draw"})
    assert (await game.receive_json_from(timeout=5))["seq"] == 1
    progress = await frames_until(bea_back, lambda f: f["type"] == "progress")
    assert (progress["player"], progress["moves"]) == ("bea", 1)


@pytest.mark.usefixtures("no_countdown")
async def test_leaving_mid_race_gives_the_game_up_and_a_rematch_follows(sockets) -> None:
    race = await two_racers_racing(sockets)
    ada, ada_room, room, started = race.ada, race.ada_room, race.room, race.started
    game = await on_game(started["your_game"], race.bea, sockets)

    await race.bea_room.send_json_to({"type": "leave"})

    assert (await game.receive_json_from(timeout=5))["game"]["status"] == "abandoned"
    left = await frames_until(
        ada_room,
        lambda f: f["type"] == "room" and not (line(f, "bea") or {"in_room": True})["in_room"],
    )
    assert (line(left, "bea") or {})["progress"]["status"] == "left"
    ada_game = await on_game(left["your_game"], ada, sockets)
    await ada_game.send_json_to({"type": "abandon"})
    finished = await frames_until(ada_room, room_frame("finished"))
    assert [(r["player"], r["status"]) for r in finished["results"]] == [
        ("ada", "gave_up"),
        ("bea", "left"),
    ]

    await ada_room.send_json_to({"type": "rematch"})
    again = await frames_until(ada_room, room_frame("racing"))
    assert again["round"]["number"] == 2
    assert again["your_game"] not in (left["your_game"], started["your_game"])
    # The racer's socket follows them to the new round's game, as the room page does.
    await ada_game.send_json_to({"type": "open", "game": again["your_game"]})
    opened = await frames_until(
        ada_game, lambda f: f["type"] == "state" and f["game"]["id"] == again["your_game"]
    )
    assert (opened["game"]["id"], opened["game"]["seq"]) == (again["your_game"], 0)
    await ada_game.send_json_to({"type": "move", "seq": 0, "move": "draw"})
    assert (await ada_game.receive_json_from(timeout=5))["type"] == "moved"
    assert [r["player"] for r in again["racers"]] == ["ada"]
    entries = await database_sync_to_async(
        lambda: list(
            Entry.objects.filter(round__room=room, round__number=2).values_list(
                "user__username", flat=True
            )
        )
    )()
    assert entries == ["ada"]


async def test_a_ban_closes_the_players_room_socket(sockets) -> None:
    ada = await racer("ada")
    room = await open_room(ada)
    socket = await on_room(ada, room, sockets)
    await player_sockets_close(ada.user.pk)
    frame = await frames_until(socket, lambda f: f["type"] == "error")
    assert frame["code"] == "banned"
    assert (await socket.receive_output(timeout=5))["code"] == CLOSE_BANNED


@pytest.mark.usefixtures("no_countdown")
async def test_a_report_that_reads_the_database_holds_back_no_other_broadcast(
    sockets, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race game's first move in a process reads which race the game is in. While that read
    waits, the process's broadcasts go on (here the racer's other tab gets both of her moves),
    and once it is done the room hears of the moves, in order."""
    race = await two_racers_racing(sockets)
    game_id = race.started["your_game"]
    mover, other_tab = (
        await on_game(game_id, race.bea, sockets),
        await on_game(game_id, race.bea, sockets),
    )
    read_may_go = threading.Event()
    race_game = selectors.race_game

    def held(game_id: uuid.UUID) -> selectors.RaceGame | None:
        read_may_go.wait(timeout=10)
        return race_game(game_id)

    monkeypatch.setattr(selectors, "race_game", held)
    monkeypatch.setattr(live, "_race_games", OrderedDict())  # as in a process just started
    try:
        for seq in range(2):
            await mover.send_json_to({"type": "move", "seq": seq, "move": "draw"})
            assert (await mover.receive_json_from(timeout=5))["seq"] == seq + 1
        seen = [(await other_tab.receive_json_from(timeout=5))["seq"] for _ in range(2)]
        assert seen == [1, 2]
        heard: list[dict[str, Any]] = []
        await drain(race.ada_room, heard)
        assert [f for f in heard if f["type"] == "progress"] == []  # the read still waits
    finally:
        read_may_go.set()
    reported = [
        (await frames_until(race.ada_room, lambda f: f["type"] == "progress"))["moves"]
        for _ in range(2)
    ]
    assert reported == [1, 2]
