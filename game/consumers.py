"""The game's websocket, ``/ws/games/<id>/``: thin transport between the protocol and services."""

import time
import uuid
from typing import Any

from django.conf import settings

from core.layers import SKIP_CHANNEL
from core.metrics import MOVE_ACK_SECONDS, MOVES_ACKNOWLEDGED, MOVES_RETRYABLE
from core.sockets import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, CLOSE_TRY_AGAIN_LATER, PlayerSocket
from game import services
from game.players import Player, player_for_scope
from game.protocol import (
    AbandonMessage,
    ClientMessage,
    HintMessage,
    MoveMessage,
    ProtocolError,
    SyncMessage,
    TokenBucket,
    parse_client_message,
)


class GameConsumer(PlayerSocket):
    """One player's connection to one game."""

    game_id: uuid.UUID
    player: Player
    group: str | None = None
    # The last state this socket sent, so that the broadcast of a change it made itself (and has
    # already answered) is not sent a second time.
    last_sent: tuple[int, bool, bool] | None = None

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.player = player_for_scope(self.scope)
        self.bucket = TokenBucket(settings.GAME_SOCKET_RATE, settings.GAME_SOCKET_BURST)
        await self.accept()
        try:
            view = await services.game_state(game_id=self.game_id, player=self.player)
        except services.GameError as error:
            await self.send_error(error)
            await self.close(code=refusal_close_code(error))
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
        except services.Unavailable:
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

    async def send_state(self, view: dict[str, Any]) -> None:
        await self.send_json({"type": "state", "game": view})
        self.last_sent = state_key(view)

    async def send_error(self, error: services.GameError) -> None:
        frame: dict[str, Any] = {"type": "error", "code": error.code, "message": error.message}
        if error.retryable:
            frame.update(retryable=True, retry_after_ms=error.retry_after_ms)
        if error.view is not None:
            frame["game"] = error.view
        await self.send_json(frame)


def refusal_close_code(error: services.GameError) -> int:
    """How a socket refused on connect is closed: for good (no such game, not yours), or with
    "try again later" when the database did not answer (the page reconnects by itself)."""
    if isinstance(error, services.GameNotFound):
        return CLOSE_NOT_FOUND
    if isinstance(error, services.Unavailable):
        return CLOSE_TRY_AGAIN_LATER
    return CLOSE_FORBIDDEN


def state_key(view: dict[str, Any]) -> tuple[int, bool, bool]:
    """A state's place in its game's history, as a key that only grows: moves made, then whether
    the game is over (giving up ends it without a move), then the assisted mark (a hint sets it
    without a move). None of these is ever taken back."""
    return view["seq"], view["status"] != "in_progress", view["assisted"]
