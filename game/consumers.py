"""The game's websocket, ``/ws/games/<id>/``: thin transport between the protocol and services."""

import json
import uuid
from typing import Any

from django.conf import settings

from accounts.sockets import PlayerSocket
from game import services
from game.players import Player, player_for_scope
from game.protocol import (
    AbandonMessage,
    ClientMessage,
    HintMessage,
    ProtocolError,
    SyncMessage,
    TokenBucket,
    parse_client_message,
)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class GameConsumer(PlayerSocket):
    """One player's connection to one game."""

    game_id: uuid.UUID
    player: Player
    group: str | None = None

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.player = player_for_scope(self.scope)
        self.bucket = TokenBucket(settings.GAME_SOCKET_RATE, settings.GAME_SOCKET_BURST)
        await self.accept()
        try:
            view = await services.game_state(game_id=self.game_id, player=self.player)
        except services.GameError as error:
            await self.send_error(error)
            await self.close(
                code=CLOSE_NOT_FOUND
                if isinstance(error, services.GameNotFound)
                else CLOSE_FORBIDDEN
            )
            return
        self.group = f"game-{self.game_id.hex}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.player_join()
        await self.send_state(view)

    async def disconnect(self, code: int) -> None:
        await self.player_leave()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            await self.send_error(services.RateLimited("Too many messages: slow down"))
            return
        try:
            message = parse_client_message(text_data)
        except ProtocolError as error:
            await self.send_error(services.BadMove(str(error)))
            return
        try:
            await self.dispatch_message(message)
        except services.GameError as error:
            await self.send_error(error)

    async def dispatch_message(self, message: ClientMessage) -> None:
        if isinstance(message, HintMessage):
            suggestion = await services.hint_request(game_id=self.game_id, player=self.player)
            await self.send_json(
                {
                    "type": "hint",
                    "move": suggestion.move,
                    "position": suggestion.position,
                    "reason": suggestion.reason,
                    "game": suggestion.view,
                }
            )
        elif isinstance(message, SyncMessage):
            await self.send_state(
                await services.game_state(game_id=self.game_id, player=self.player)
            )
        elif isinstance(message, AbandonMessage):
            await services.game_abandon(game_id=self.game_id, player=self.player)
        else:
            outcome = await services.move_apply(
                game_id=self.game_id, player=self.player, seq=message.seq, move=message.move
            )
            if not outcome.applied:  # a resend: nothing changed and nothing was broadcast
                await self.send_state(outcome.view)

    async def game_update(self, event: dict[str, Any]) -> None:
        """A new state of the game, broadcast by a service after its commit."""
        await self.send_state(event["game"])

    async def game_analysis(self, event: dict[str, Any]) -> None:
        """The post-game analysis, once the worker has finished it."""
        await self.send_json({"type": "analysis", "analysis": event["analysis"]})

    async def send_state(self, view: dict[str, Any]) -> None:
        await self.send_json({"type": "state", "game": view})

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content))

    async def send_error(self, error: services.GameError) -> None:
        frame: dict[str, Any] = {"type": "error", "code": error.code, "message": error.message}
        if error.view is not None:
            frame["game"] = error.view
        await self.send_json(frame)
