"""The game's websocket, ``/ws/games/<id>/``: thin transport between the protocol and services."""

import time
import uuid
from collections.abc import Mapping
from typing import Any

from core.errors import ClientError, Unavailable
from core.groups import game_group
from core.layers import SKIP_CHANNEL
from core.metrics import MOVE_ACK_SECONDS, MOVES_ACKNOWLEDGED, MOVES_RETRYABLE
from core.sockets import PlayerSocket
from game import services
from game.players import Player, player_for_scope
from game.protocol import (
    GAME_MESSAGES,
    MAX_MESSAGE_CHARS,
    AbandonMessage,
    ClientMessage,
    HintMessage,
    MoveMessage,
    SyncMessage,
    client_message,
)


class GameConsumer(PlayerSocket):
    """One player's connection to one game."""

    game_id: uuid.UUID
    player: Player
    group: str | None = None
    # The last state this socket sent, so that the broadcast of a change it made itself (and has
    # already answered) is not sent a second time.
    last_sent: tuple[int, bool, bool] | None = None

    messages = GAME_MESSAGES
    max_message_chars = MAX_MESSAGE_CHARS

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.player = player_for_scope(self.scope)
        await self.accept()
        try:
            view = await services.game_state(game_id=self.game_id, player=self.player)
        except ClientError as error:
            await self.refuse(error)
            return
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.player_join()
        await self.send_state(view)

    async def disconnect(self, code: int) -> None:
        await self.player_leave()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def handle(self, kind: str, fields: dict[str, Any]) -> None:
        await self.dispatch_message(client_message(kind, fields))

    async def dispatch_message(self, message: ClientMessage) -> None:
        if isinstance(message, HintMessage):
            suggestion = await services.hint_request(
                game_id=self.game_id, player=self.player, answered=self.channel_name
            )
            await self.send_json(
                {
                    "type": "hint",
                    "move": suggestion.move,
                    "position": suggestion.position,
                    "reason": suggestion.reason,
                    "game": suggestion.view,
                }
            )
            self.last_sent = state_key(suggestion.view)
        elif isinstance(message, SyncMessage):
            await self.send_state(
                await services.game_state(game_id=self.game_id, player=self.player)
            )
        elif isinstance(message, AbandonMessage):
            await self.send_state(
                await services.game_abandon(
                    game_id=self.game_id, player=self.player, answered=self.channel_name
                )
            )
        else:
            await self.move_answer(message)

    async def move_answer(self, message: MoveMessage) -> None:
        """Make the move and answer with the state, counting it for the operators' metrics."""
        arrived = time.perf_counter()
        try:
            outcome = await services.move_apply(
                game_id=self.game_id,
                player=self.player,
                seq=message.seq,
                move=message.move,
                answered=self.channel_name,
            )
        except Unavailable:
            MOVES_RETRYABLE.inc()
            raise
        await self.send_state(outcome.view)
        if outcome.applied:
            MOVES_ACKNOWLEDGED.inc()
            MOVE_ACK_SECONDS.observe(time.perf_counter() - arrived)

    async def game_update(self, event: dict[str, Any]) -> None:
        """A new state of the game, broadcast by a service after its commit.

        The mover's own socket answers its move directly, without waiting for the broadcast to
        come round through the channel layer; the broadcast then brings it nothing new, and
        through Redis it may even arrive after a later state. Only a newer state is sent on.
        """
        if event.get(SKIP_CHANNEL) == self.channel_name:
            return
        view = event["game"]
        if self.last_sent is None or state_key(view) > self.last_sent:
            await self.send_state(view)

    async def game_analysis(self, event: dict[str, Any]) -> None:
        """The post-game analysis, once the worker has finished it."""
        await self.send_json({"type": "analysis", "analysis": event["analysis"]})

    async def send_state(self, view: Mapping[str, Any]) -> None:
        await self.send_json({"type": "state", "game": view})
        self.last_sent = state_key(view)


def state_key(view: Mapping[str, Any]) -> tuple[int, bool, bool]:
    """A state's place in its game's history, as a key that only grows: moves made, then whether
    the game is over (giving up ends it without a move), then the assisted mark (a hint sets it
    without a move). None of these is ever taken back."""
    return view["seq"], view["status"] != "in_progress", view["assisted"]
