"""The player's websocket, ``/ws/play/`` (:class:`PlaySocket`, ``docs/protocol.md``): thin
transport between the protocol and the services.

One socket per player tab, carrying game after game (``open``, ``new``, ``again``). A move is
answered with its change (``moved``); the whole VIEW comes on ``open``, ``sync``, a resend, and
whenever a change could not be applied to what the socket sent last (:class:`GameFrames`).
"""

import time
import uuid
from collections.abc import Mapping
from typing import Any, ClassVar

from channels.db import database_sync_to_async
from django.utils import translation

from core.errors import ClientError, Forbidden, Unavailable
from core.groups import game_group
from core.layers import SKIP_CHANNEL
from core.messages import Fields
from core.metrics import MOVE_ACK_SECONDS, MOVES_ACKNOWLEDGED, MOVES_RETRYABLE
from core.sockets import PlayerSocket, scope_language
from game import services
from game.errors import NoGameOpen
from game.models import Game
from game.players import Player, player_for_scope
from game.protocol import (
    MAX_MESSAGE_CHARS,
    PLAY_MESSAGES,
    AbandonMessage,
    AgainMessage,
    ClientMessage,
    GameFrames,
    HintMessage,
    MoveMessage,
    NewMessage,
    OpenMessage,
    SyncMessage,
    client_message,
    event_key,
)


class PlaySocket(PlayerSocket):
    """One player's tab: the game it shows now, and the games it moves on to (protocol v2)."""

    messages: ClassVar[Fields] = PLAY_MESSAGES
    max_message_chars = MAX_MESSAGE_CHARS

    player: Player
    language: str
    game_id: uuid.UUID | None = None
    group: str | None = None
    frames: GameFrames

    async def connect(self) -> None:
        self.player = player_for_scope(self.scope)
        self.language = scope_language(self.scope)
        self.frames = GameFrames()
        await self.accept()
        await self.player_join()

    async def disconnect(self, code: int) -> None:
        await self.player_leave()
        await self.game_leave()

    async def handle(self, kind: str, fields: dict[str, Any]) -> None:
        await self.dispatch_message(client_message(kind, fields))

    async def dispatch_message(self, message: ClientMessage) -> None:
        if isinstance(message, OpenMessage):
            await self.game_open(message.game)
        elif isinstance(message, NewMessage):
            await self.game_open(await self.game_new(message))
        elif isinstance(message, AgainMessage):
            again = database_sync_to_async(services.game_again)
            game: Game = await again(player=self.player, game_id=self.current())
            await self.game_open(game.id)
        elif isinstance(message, HintMessage):
            await self.hint_answer()
        elif isinstance(message, SyncMessage):
            view = await services.game_state(game_id=self.current(), player=self.player)
            await self.send_state(view)
        elif isinstance(message, AbandonMessage):
            abandon = services.game_abandon
            view = await abandon(
                game_id=self.current(), player=self.player, answered=self.channel_name
            )
            await self.send_state(view)
        else:
            await self.move_answer(message)

    def current(self) -> uuid.UUID:
        """The socket's game, for the messages that act on it."""
        if self.game_id is None:
            raise NoGameOpen("Open a game first")
        return self.game_id

    async def game_open(self, game_id: uuid.UUID) -> None:
        """Make ``game_id`` this socket's game: its state now, its changes from now on. A game
        the player may not open is refused, and the socket stays on the game it had."""
        view = await services.game_state(game_id=game_id, player=self.player)
        await self.game_leave()
        self.game_id, self.group = game_id, game_group(game_id)
        self.frames.forget()
        # Joined after reading: a change committed in between comes as a whole state (the socket
        # sees it does not follow on from what it sent).
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_state(view)

    async def game_leave(self) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        self.game_id = self.group = None

    async def game_new(self, message: NewMessage) -> uuid.UUID:
        """A casual game on a fresh deal for the player (a visitor's first game is started from
        the page, which gives them their guest key)."""
        if self.player.user_id is None and not self.player.guest_key:
            raise Forbidden("Start your first game from the home page")
        start = database_sync_to_async(services.game_start)
        game: Game = await start(
            player=self.player, variant=message.variant, winnable_only=message.winnable_only
        )
        return game.id

    async def hint_answer(self) -> None:
        with translation.override(self.language):  # the reason is in the player's words
            suggestion = await services.hint_request(
                game_id=self.current(), player=self.player, answered=self.channel_name
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
        self.frames.noted(suggestion.view)

    async def move_answer(self, message: MoveMessage) -> None:
        """Make the move and answer it, counting it for the operators' metrics."""
        arrived = time.perf_counter()
        try:
            outcome = await services.move_apply(
                game_id=self.current(),
                player=self.player,
                seq=message.seq,
                move=message.move,
                answered=self.channel_name,
            )
        except Unavailable:
            MOVES_RETRYABLE.inc()
            raise
        snapshot = outcome.snapshot
        if outcome.moved is None:  # a resend: the state it left
            await self.send_state(snapshot.view())
            return
        frame = self.frames.change(outcome.moved, snapshot.key)
        await self.send_json(frame or self.frames.state(snapshot.view()))
        MOVES_ACKNOWLEDGED.inc()
        MOVE_ACK_SECONDS.observe(time.perf_counter() - arrived)

    async def game_update(self, event: dict[str, Any]) -> None:
        """A new state of a game, broadcast by a service after its commit.

        The mover's own socket answers its move directly, without waiting for the broadcast to
        come round through the channel layer; the site's layers leave it out of that broadcast
        (``SKIP_CHANNEL``), and should another layer bring it, it is ignored here: it brings
        nothing new, and through Redis it may even arrive after a later state. Only a newer state
        of this socket's game is sent on: as the move's change when it follows on from what the
        socket sent last, else as the whole VIEW (read here if the broadcast was a move's, which
        carries its change alone).
        """
        if event.get(SKIP_CHANNEL) == self.channel_name or self.game_id is None:
            return
        key, game_id = event_key(event), self.game_id
        view, moved = event["game"], event["moved"]
        if event["id"] != str(game_id) or not self.frames.news(key):
            return
        frame = None if moved is None else self.frames.change(moved, key)
        if frame is None:  # not a move's, or it missed one: the whole state
            if view is None:
                try:
                    view = await services.game_state(game_id=game_id, player=self.player)
                except ClientError:  # the database did not answer: the client will ask again
                    return
                if self.game_id != game_id:  # it moved to another game meanwhile
                    return
            frame = self.frames.state(view)
        await self.send_json(frame)

    async def game_analysis(self, event: dict[str, Any]) -> None:
        """The post-game analysis of this socket's game, once the worker has finished it (one
        that was on its way as the socket moved to another game is dropped)."""
        if event["game"] != str(self.game_id):
            return
        await self.send_json(
            {"type": "analysis", "game": event["game"], "analysis": event["analysis"]}
        )

    async def send_state(self, view: Mapping[str, Any]) -> None:
        await self.send_json(self.frames.state(view))

    async def send_error(self, error: ClientError) -> None:
        """A refusal; the state it carries is the client's from now on, as a ``state`` frame's."""
        await super().send_error(error)
        if error.view is not None:
            self.frames.noted(error.view)
