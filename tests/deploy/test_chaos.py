"""Chaos: players mid-game while a web process is killed with ``kill -9`` and started again.

Each player plays through nginx, reconnecting whenever its socket drops, as the game page does.
Afterwards every move the server acknowledged must be in the stored log, at its number.
"""

import asyncio
import random

import pytest

from deploy.clients import game_player
from deploy.topology import Topology
from game.engine import Variant
from game.models import Move
from game.players import Player as GamePlayer
from game.services import game_start
from tests.game.conftest import guest_session

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 50
PACE = 0.05
"""Seconds between a player's moves: fast for a person, so that many moves are in flight."""


def seat(number: int) -> tuple[str, str]:
    """A guest with a session and a fresh game: (game id, session key)."""
    key = f"chaos-{number}"
    game = game_start(player=GamePlayer(user_id=None, guest_key=key), variant=Variant.TRIPEAKS)
    return str(game.id), guest_session(key)


def stored_logs(game_ids: list[str]) -> dict[str, dict[int, str]]:
    logs: dict[str, dict[int, str]] = {game_id: {} for game_id in game_ids}
    for game_id, seq, move in Move.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "seq", "move"
    ):
        logs[str(game_id)][seq] = move
    return logs


async def kill_and_restart(topology: Topology, rounds: int) -> None:
    """Kill a web process mid-play, start it again a moment later, and again on the other."""
    for round_ in range(rounds):
        await asyncio.sleep(1.0)
        web = topology.webs[round_ % len(topology.webs)]
        web.kill()
        await asyncio.sleep(0.5)
        await asyncio.to_thread(web.start)


def test_no_acknowledged_move_is_lost_when_a_web_process_is_killed(topology: Topology) -> None:
    seats = [seat(number) for number in range(PLAYERS)]
    players = [game_player(topology, game_id, session) for game_id, session in seats]

    async def play_through_the_chaos() -> None:
        random.seed(7)
        games = [
            asyncio.create_task(player.play(pause=PACE * random.uniform(0.5, 1.5)))
            for player in players
        ]
        await kill_and_restart(topology, rounds=2)
        await asyncio.wait_for(asyncio.gather(*games), timeout=180)

    asyncio.run(play_through_the_chaos())

    logs = stored_logs([game_id for game_id, _ in seats])
    games = [(game_id, player) for (game_id, _), player in zip(seats, players, strict=True)]
    lost = {
        (game_id, seq): move
        for game_id, player in games
        for seq, move in player.acknowledged.items()
        if logs[game_id].get(seq) != move
    }
    assert lost == {}, topology.web_logs()
    assert all(player.view["status"] in {"won", "lost"} for player in players)
    # The kills landed mid-play: sockets were cut and their players came back.
    assert sum(player.reconnects for player in players) >= PLAYERS // 4
    # Each log is whole: one move per number, as many as the last state the player saw counts
    # (a move committed just before its process died is in it, though never acknowledged).
    for game_id, player in games:
        assert sorted(logs[game_id]) == list(range(player.view["seq"]))
