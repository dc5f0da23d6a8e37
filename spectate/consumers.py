"""The spectator's websocket, ``/ws/watch/<id>/``: a read-only copy of a game's broadcasts.

A spectator joins the game's group and gets the same ``game.update`` snapshots as the player's
own sockets, and nothing else: hints go to the player's socket alone, and the post-game analysis
(``game.analysis``) is dropped here (the finished game's page has it, behind the reveal gate).

The rule (:func:`spectate.selectors.watchable_games`) is checked on connect, on ``sync``, and
again before every snapshot is passed on, so that a game whose player turns watching off, is
banned, or is hidden by a moderator stops being shown at its next move: one primary-key query per
move and spectator. Between moves nothing new would be shown anyway.
"""

import uuid
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from core.sockets import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, PlayerSocket
from game.models import Game
from game.protocol import ProtocolError, SyncMessage, TokenBucket, parse_client_message
from spectate.selectors import WatchRefused, game_watchable, watch_state


class WatchConsumer(PlayerSocket):
    """One spectator's connection to one game. Spectators may only ask for the state (``sync``)."""

    game_id: uuid.UUID
    group: str | None = None

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.bucket = TokenBucket(settings.GAME_SOCKET_RATE, settings.GAME_SOCKET_BURST)
        await self.accept()
        # Join first, then read: a move committed in between is in the state read or pushed after
        # it (the client keeps the snapshot with the highest seq).
        self.group = Game(id=self.game_id).group_name
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            view = await database_sync_to_async(watch_state)(self.game_id)
        except WatchRefused as refusal:
            await self.refuse(refusal)
            return
        await self.player_join()
        await self.send_state(view)

    async def disconnect(self, code: int) -> None:
        await self.player_leave()
        await self.leave_game()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            await self.send_error("rate_limited", "Too many messages: slow down")
            return
        try:
            message = parse_client_message(text_data)
        except ProtocolError as error:
            await self.send_error("bad_message", str(error))
            return
        if not isinstance(message, SyncMessage):
            await self.send_error("forbidden", "Spectators watch the game; only its player moves")
            return
        try:
            view = await database_sync_to_async(watch_state)(self.game_id, already_watching=True)
        except WatchRefused as refusal:
            await self.refuse(refusal)
            return
        await self.send_state(view)

    async def game_update(self, event: dict[str, Any]) -> None:
        """A new state of the game, broadcast after its commit: passed on while the rule allows."""
        if self.group is None:  # refused already; this event was on its way
            return
        allowed = await database_sync_to_async(game_watchable)(self.game_id, already_watching=True)
        if not allowed:
            await self.refuse(WatchRefused("forbidden", "This game can no longer be watched"))
            return
        await self.send_state(event["game"])

    async def game_analysis(self, event: dict[str, Any]) -> None:
        """The post-game analysis: never passed on to spectators (it may name hidden cards)."""

    async def refuse(self, refusal: WatchRefused) -> None:
        """Say why the game cannot be watched, stop listening to it, and hang up."""
        await self.leave_game()
        await self.send_error(refusal.code, refusal.message)
        await self.close(code=CLOSE_NOT_FOUND if refusal.code == "not_found" else CLOSE_FORBIDDEN)

    async def leave_game(self) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def send_state(self, view: dict[str, Any]) -> None:
        await self.send_json({"type": "state", "game": view})

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
