"""The spectator's websocket, ``/ws/watch/<id>/``: a read-only copy of a game's broadcasts.

A spectator joins the game's group and gets the same frames as the player's other tabs (protocol
v2): each move as its change (``moved``) when it follows on from what was sent last, else the
whole VIEW (``state``), chosen by :class:`game.protocol.GameFrames`. Nothing else: hints go to the
player's socket alone, and the post-game analysis (``game.analysis``) is dropped here (the
finished game's page has it, behind the reveal gate).

The rule (:func:`spectate.selectors.watchable_games`) is checked on connect, on ``sync``, and
again before every snapshot is passed on, so that a game whose player turns watching off, is
banned, or is hidden by a moderator stops being shown at its next move: one primary-key query per
move and spectator. Between moves nothing new would be shown anyway.
"""

import uuid
from typing import Any

from channels.db import database_sync_to_async

from core.errors import ClientError, Forbidden
from core.groups import game_group
from core.sockets import PlayerSocket
from game.protocol import GAME_MESSAGES, MAX_MESSAGE_CHARS, GameFrames, event_key
from spectate.selectors import game_watchable, watch_state


class WatchConsumer(PlayerSocket):
    """One spectator's connection to one game. Spectators may only ask for the state (``sync``)."""

    game_id: uuid.UUID
    group: str | None = None
    frames: GameFrames

    messages = GAME_MESSAGES
    max_message_chars = MAX_MESSAGE_CHARS

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.frames = GameFrames()
        await self.accept()
        # Join first, then read: a move committed in between is in the state read (and its
        # broadcast, handled after this, is then no news) or broadcast after it.
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            view = await database_sync_to_async(watch_state)(self.game_id)
        except ClientError as refusal:
            await self.refuse(refusal)
            return
        await self.player_join()
        await self.send_state(view)

    async def disconnect(self, code: int) -> None:
        await self.player_leave()
        await self.leave_game()

    async def handle(self, kind: str, fields: dict[str, Any]) -> None:
        if kind != "sync":
            raise Forbidden("Spectators watch the game; only its player moves")
        try:
            view = await database_sync_to_async(watch_state)(self.game_id, already_watching=True)
        except ClientError as refusal:
            await self.refuse(refusal)
            return
        await self.send_state(view)

    async def game_update(self, event: dict[str, Any]) -> None:
        """A new state of the game, broadcast after its commit: passed on (as the move's change
        when it follows on from what was sent last) while the rule allows."""
        key = event_key(event)
        if self.group is None or not self.frames.news(key):  # refused already, or sent already
            return
        view, moved = event["game"], event["moved"]
        if view is None and not self.frames.follows(moved, key):  # it missed one: read the state
            try:  # which checks the rule too
                view = await database_sync_to_async(watch_state)(
                    self.game_id, already_watching=True
                )
            except ClientError as refusal:
                await self.refuse(refusal)
                return
        elif not await database_sync_to_async(game_watchable)(self.game_id, already_watching=True):
            await self.refuse(Forbidden("This game can no longer be watched"))
            return
        frame = self.frames.state(view) if view is not None else self.frames.change(moved, key)
        if frame is not None:
            await self.send_json(frame)

    async def game_analysis(self, event: dict[str, Any]) -> None:
        """The post-game analysis: never passed on to spectators (it may name hidden cards)."""

    async def refuse(self, error: ClientError) -> None:
        """Stop listening to the game, then say why it cannot be watched, and hang up."""
        await self.leave_game()
        await super().refuse(error)

    async def leave_game(self) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def send_state(self, view: dict[str, Any]) -> None:
        await self.send_json(self.frames.state(view))
