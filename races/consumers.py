"""The room's websocket, ``/ws/races/<code>/``: thin transport between docs/races.md and services.

Anyone with the room's link may watch (onlookers see progress figures only); the commands that
change the room need a signed-in racer. Every socket on the page keeps a timer for the round's
time limit, so the round ends on time on whichever process wakes first (the end is idempotent).
"""

import asyncio
import random
import time
from typing import Any

from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser

from core.errors import SignInRequired
from core.groups import room_group
from core.sockets import PlayerSocket
from races import live, selectors, services
from races.protocol import MAX_MESSAGE_CHARS, ROOM_MESSAGES, SOCKET_BURST, SOCKET_RATE, Command

DEADLINE_JITTER_S = 0.5
"""Sockets of one room wake at a deadline within this spread, so that not all check at once."""


class RoomConsumer(PlayerSocket):
    """One page (a racer's or an onlooker's) on one race room."""

    code: str
    user: AbstractBaseUser | None = None
    group: str | None = None
    counted = False  # this socket counts in its racer's presence
    timer: asyncio.Task[None] | None = None

    messages = ROOM_MESSAGES
    max_message_chars = MAX_MESSAGE_CHARS

    def rate_limit(self) -> tuple[float, int]:
        return SOCKET_RATE, SOCKET_BURST

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        await self.accept()
        if await database_sync_to_async(selectors.room_for_code)(self.code) is None:
            await self.refuse(services.RoomNotFound("There is no such room"))
            return
        # Join first, then read: a change committed in between is in the snapshot or pushed after.
        self.group = room_group(self.code)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.player_join()
        await self.count_presence()
        await live.race_check(self.code)
        if not self.counted:  # else the presence change just pushed a snapshot to the group
            await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.counted and self.user is not None:
            self.counted = False
            await database_sync_to_async(services.racer_presence)(
                code=self.code, user_id=self.user.pk, delta=-1
            )
        await self.player_leave()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def handle(self, kind: str, fields: dict[str, Any]) -> None:
        await self.dispatch_command(Command(kind))

    async def dispatch_command(self, command: Command) -> None:
        if command == Command.SYNC:
            await live.race_check(self.code)
            await self.send_snapshot()
            return
        if self.user is None:
            raise SignInRequired("Sign in to race")
        if command == Command.JOIN:
            await database_sync_to_async(services.room_join)(code=self.code, user=self.user)
            await self.count_presence()
        elif command == Command.LEAVE:
            end = await database_sync_to_async(services.room_leave)(code=self.code, user=self.user)
            await live.games_settle(end)
        else:
            await database_sync_to_async(services.race_start)(code=self.code, user=self.user)

    async def count_presence(self) -> None:
        if self.user is not None and not self.counted:
            self.counted = await database_sync_to_async(services.racer_presence)(
                code=self.code, user_id=self.user.pk, delta=1
            )

    async def send_snapshot(self) -> None:
        room = await database_sync_to_async(selectors.room_for_code)(self.code)
        if room is None:
            return
        snapshot = await database_sync_to_async(selectors.room_snapshot)(room)
        games = {str(user_id): game for user_id, game in snapshot.games.items()}
        await self.send_room(snapshot.frame, games, snapshot.deadline)

    async def race_room(self, event: dict[str, Any]) -> None:
        """A new snapshot of the room, pushed by a service once its change committed."""
        await self.send_room(event["room"], event["games"], event["deadline"])

    async def race_progress(self, event: dict[str, Any]) -> None:
        """A racer's new figures, pushed after each committed change to their game."""
        await self.send_json(event["progress"])

    async def send_room(
        self, frame: dict[str, Any], games: dict[str, str], deadline: float | None
    ) -> None:
        mine = games.get(str(self.user.pk)) if self.user is not None else None
        await self.send_json({**frame, "your_game": mine})
        self.watch(deadline)

    def watch(self, deadline: float | None) -> None:
        """Wake at the round's time limit (if any) and end the round if it is due."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if deadline is not None:
            self.timer = asyncio.create_task(self.wake_at(deadline))

    async def wake_at(self, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()) + random.random() * DEADLINE_JITTER_S)
        self.timer = None  # awake: the snapshot the check pushes must not cancel the check
        await live.race_check(self.code)
