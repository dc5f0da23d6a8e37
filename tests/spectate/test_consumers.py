"""The spectator's socket against the real ASGI application: the player's moves go through the
real player's socket (PlaySocket), and the spectator's socket passes on what the player sees, each
move as the same change the player's answer holds."""

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import PlayerSettings
from core.sockets import player_sockets_close
from deploy.clients import view_after
from game.engine import Deal, GameState, Variant
from game.models import Game, Mode, Move
from game.players import Player
from game.services import game_start
from tests.accounts.helpers import make_player, play_out, signed_in_session
from tests.game.conftest import drop_broadcasts, visible_cards
from tests.spectate.conftest import SEED, Table, start_game, watch_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def _no_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests about moves: the post-game analysis (a solver in another process) is not their
    business. The test about the analysis itself lets the real worker run."""
    monkeypatch.setattr("game.services.analysis_wake", lambda: None)


async def watch(
    table: Table, sockets: list[WebsocketCommunicator], session: str | None = None
) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """Open a spectator's socket to the table's game; return it and the first state."""
    socket = watch_socket(table.game.id, session)
    sockets.append(socket)
    assert (await socket.connect())[0]
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "state", first
    return socket, first["game"]


async def refused(game_id: object, sockets: list[WebsocketCommunicator]) -> tuple[str, int]:
    """Connect a spectator who should be turned away; return the error code and close code."""
    socket = watch_socket(game_id)
    sockets.append(socket)
    await socket.connect()
    error = await socket.receive_json_from(timeout=5)
    assert error["type"] == "error", error
    closed = await socket.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    return error["code"], closed["code"]


async def cut_off(socket: WebsocketCommunicator) -> tuple[str, int]:
    """Read an error and the close that follows it."""
    error = await socket.receive_json_from(timeout=5)
    assert error["type"] == "error", error
    closed = await socket.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    return error["code"], closed["code"]


async def player_moves(player: WebsocketCommunicator, state: GameState) -> dict[str, Any]:
    """Make the engine's first legal move over the player's socket; return the answer (the
    move's change)."""
    move = state.legal_moves()[0]
    await player.send_json_to({"type": "move", "seq": state.seq, "move": move.text})
    state.apply(move)
    reply: dict[str, Any] = await player.receive_json_from(timeout=5)
    assert (reply["type"], reply["seq"]) == ("moved", state.seq), reply
    return reply


def hidden_cards(state: GameState) -> set[str]:
    """The cards the engine knows and nobody may see: face down on the peaks, and the stock."""
    drawn = len(state.deal.stock) - state.stock_count
    face_down = {
        state.deal.tableau[p].code
        for p in range(28)
        if not state.is_played(p) and not state.is_face_up(p)
    }
    return face_down | {card.code for card in state.deal.stock[drawn:]}


@database_sync_to_async
def update_settings(user: User, **values: bool) -> None:
    PlayerSettings.objects.filter(user=user).update(**values)


@database_sync_to_async
def update_game(game: Game, **values: object) -> None:
    Game.objects.filter(id=game.id).update(**values)


@database_sync_to_async
def stored_moves(game: Game) -> list[str]:
    return list(Move.objects.filter(game=game).values_list("move", flat=True))


@pytest.mark.usefixtures("_no_analysis")
async def test_a_spectator_gets_exactly_the_players_view(make_table, sockets) -> None:
    table: Table = await make_table()
    player = await table.connect()
    sockets.append(player)
    await player.send_json_to({"type": "sync"})
    own = (await player.receive_json_from(timeout=5))["game"]
    _, seen = await watch(table, sockets)
    assert seen == own
    assert seen["tableau"][:18] == ["down"] * 18


@pytest.mark.usefixtures("_no_analysis")
async def test_a_spectator_follows_a_whole_game_and_never_sees_a_hidden_card(
    make_table, sockets
) -> None:
    """After each of the player's moves the spectator gets the same change as the player, which
    brings the spectator's VIEW to the player's; no face-down card or card still in the stock is
    anywhere in anything sent to them."""
    table: Table = await make_table()
    player = await table.connect()
    sockets.append(player)
    spectator, view = await watch(table, sockets)
    state = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
    assert not visible_cards(view) & hidden_cards(state)

    while not state.status.is_over:
        own = await player_moves(player, state)
        message = await spectator.receive_json_from(timeout=5)
        assert message == own
        assert not visible_cards(message) & hidden_cards(state)
        after = view_after(view, message)
        assert after is not None
        view = after

    assert view["status"] in {"won", "lost"}
    assert await spectator.receive_nothing(timeout=0.3)
    await player.send_json_to({"type": "sync"})
    assert view == (await player.receive_json_from(timeout=5))["game"]


@pytest.mark.usefixtures("_no_analysis")
async def test_a_change_without_a_move_comes_whole_and_the_next_move_as_its_change(
    make_table, sockets
) -> None:
    """A hint marks the game assisted without a move: the spectator gets the whole VIEW (a
    change could not say so), then the next move as its change again."""
    table: Table = await make_table()
    player = await table.connect()
    sockets.append(player)
    spectator, _ = await watch(table, sockets)
    await player.send_json_to({"type": "hint"})
    assert (await player.receive_json_from(timeout=5))["type"] == "hint"
    assisted = await spectator.receive_json_from(timeout=5)
    assert (assisted["type"], assisted["game"]["assisted"]) == ("state", True)
    own = await player_moves(player, GameState(Deal.from_seed(SEED), Variant.TRIPEAKS))
    assert await spectator.receive_json_from(timeout=5) == own


@pytest.mark.usefixtures("_no_analysis")
async def test_a_spectator_who_missed_a_move_gets_the_whole_state(
    make_table, sockets, monkeypatch
) -> None:
    """A lost broadcast (Redis away for a moment) leaves a gap: the next move's change cannot be
    applied, so the spectator's socket reads the state and sends it whole, still without a
    hidden card; after it, moves come as changes again."""
    table: Table = await make_table()
    player = await table.connect()
    sockets.append(player)
    spectator, _ = await watch(table, sockets)
    state = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
    drop_broadcasts(monkeypatch, 1)
    await player_moves(player, state)
    assert await spectator.receive_nothing(timeout=0.3)
    own = await player_moves(player, state)
    pushed = await spectator.receive_json_from(timeout=5)
    assert pushed["type"] == "state"
    assert pushed["game"]["seq"] == own["seq"] == 2
    assert not visible_cards(pushed["game"]) & hidden_cards(state)
    await player.send_json_to({"type": "sync"})
    assert pushed["game"] == (await player.receive_json_from(timeout=5))["game"]
    own = await player_moves(player, state)
    assert await spectator.receive_json_from(timeout=5) == own


@pytest.mark.usefixtures("_no_analysis")
async def test_every_spectator_gets_each_move(make_table, sockets) -> None:
    table: Table = await make_table()
    player = await table.connect()
    sockets.append(player)
    spectators = [(await watch(table, sockets))[0] for _ in range(3)]
    state = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
    own = await player_moves(player, state)
    for spectator in spectators:
        assert await spectator.receive_json_from(timeout=5) == own


@pytest.mark.usefixtures("_no_analysis")
async def test_spectators_cannot_move_give_up_or_ask_for_hints(make_table, sockets) -> None:
    """Well-formed game messages are forbidden to a spectator; anything else is a bad message;
    nothing changes either way, and the connection stays open."""
    table: Table = await make_table()
    state = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
    spectator, _ = await watch(table, sockets)
    forbidden = [
        {"type": "move", "seq": 0, "move": state.legal_moves()[0].text},
        {"type": "move", "seq": 0, "move": "draw"},
        {"type": "abandon"},
        {"type": "hint"},
    ]
    for message in forbidden:
        await spectator.send_json_to(message)
        reply = await spectator.receive_json_from(timeout=5)
        assert (reply["type"], reply["code"]) == ("error", "forbidden"), message
    for text in ["not json", "[]", '{"type": "watch"}', '{"type": "sync", "x": 1}', "x" * 300]:
        await spectator.send_to(text_data=text)
        reply = await spectator.receive_json_from(timeout=5)
        assert reply["code"] == "bad_message", text
    await spectator.send_to(bytes_data=b"\x00")
    assert (await spectator.receive_json_from(timeout=5))["code"] == "bad_message"

    await spectator.send_json_to({"type": "sync"})
    assert (await spectator.receive_json_from(timeout=5))["game"]["seq"] == 0
    assert await stored_moves(table.game) == []
    stored = await database_sync_to_async(Game.objects.get)(id=table.game.id)
    assert (stored.status, stored.assisted) == ("in_progress", False)


async def test_a_flood_of_messages_is_rate_limited(make_table, sockets, settings) -> None:
    settings.GAME_SOCKET_RATE, settings.GAME_SOCKET_BURST = 0.01, 3
    table: Table = await make_table()
    spectator, _ = await watch(table, sockets)
    codes = []
    for _ in range(5):
        await spectator.send_json_to({"type": "sync"})
        reply = await spectator.receive_json_from(timeout=5)
        codes.append(reply.get("code", reply["type"]))
    assert codes == ["state", "state", "state", "rate_limited", "rate_limited"]


async def test_an_unknown_game_is_not_found(make_table, sockets) -> None:
    assert await refused("00000000-0000-4000-8000-000000000000", sockets) == ("not_found", 4404)


async def test_a_guests_game_is_refused(transactional_db, sockets) -> None:
    game = await database_sync_to_async(game_start)(
        player=Player(user_id=None, guest_key="a-guest"), variant=Variant.TRIPEAKS
    )
    assert await refused(game.id, sockets) == ("forbidden", 4403)


async def test_a_player_who_does_not_allow_watching_is_refused(make_table, sockets) -> None:
    table: Table = await make_table()
    await update_settings(table.user, allow_watching=False)
    assert await refused(table.game.id, sockets) == ("forbidden", 4403)


async def test_a_daily_game_before_its_day_is_over_is_refused(transactional_db, sockets) -> None:
    @database_sync_to_async
    def daily_game() -> Game:
        later = timezone.now() + timedelta(hours=2)
        return start_game(make_player("ada"), mode=Mode.DAILY, reveal_after=later)

    assert await refused((await daily_game()).id, sockets) == ("forbidden", 4403)


async def test_a_finished_game_is_refused_with_game_over(make_table, sockets) -> None:
    table: Table = await make_table()
    await database_sync_to_async(play_out)(table.game)
    assert await refused(table.game.id, sockets) == ("game_over", 4403)


@pytest.mark.parametrize(
    "stop_watching",
    [
        pytest.param(lambda table: update_settings(table.user, allow_watching=False), id="off"),
        pytest.param(lambda table: update_game(table.game, hidden=True), id="hidden"),
        pytest.param(
            lambda table: database_sync_to_async(User.objects.filter(pk=table.user.pk).update)(
                is_active=False
            ),
            id="banned",
        ),
    ],
)
@pytest.mark.usefixtures("_no_analysis")
async def test_a_game_that_stops_being_watchable_is_not_shown_any_further(
    make_table, sockets, stop_watching
) -> None:
    """The next move is not passed on: the spectator is told and the socket closes."""
    table: Table = await make_table()
    player = await table.connect()
    sockets.append(player)
    spectator, _ = await watch(table, sockets)
    state = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
    await player_moves(player, state)
    assert (await spectator.receive_json_from(timeout=5))["seq"] == 1

    await stop_watching(table)
    await player_moves(player, state)  # the player's own socket is not this app's business
    assert await cut_off(spectator) == ("forbidden", 4403)


async def test_a_signed_in_spectator_who_is_banned_is_disconnected(make_table, sockets) -> None:
    table: Table = await make_table()
    bea = await database_sync_to_async(make_player)("bea", email="")
    session = await database_sync_to_async(signed_in_session)(bea)
    spectator, _ = await watch(table, sockets, session)
    await player_sockets_close(bea.pk)
    assert await cut_off(spectator) == ("banned", 4401)


async def test_the_analysis_reaches_the_player_but_never_a_spectator(make_table, sockets) -> None:
    """The real worker analyses the finished game and pushes it to the game's group: the
    player's socket passes it on, the spectator's drops it (it would name cards)."""
    table: Table = await make_table()
    player = await table.connect()
    sockets.append(player)
    spectator, _ = await watch(table, sockets)
    state = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
    while not state.status.is_over:
        await player_moves(player, state)
        assert (await spectator.receive_json_from(timeout=5))["seq"] == state.seq

    pushed = await player.receive_json_from(timeout=60)
    assert pushed["type"] == "analysis"
    assert await spectator.receive_nothing(timeout=0.5)
