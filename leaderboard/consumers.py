"""The daily board's websocket, ``/ws/daily/<date>/``: a day's first page, pushed as it changes.

Anyone may watch a board (it names players and scores, never a card). The socket sends the current
first page on connect, then a new one whenever a ranked attempt of the day finishes; clients send
nothing.
"""

from datetime import date
from typing import Any

from channels.db import database_sync_to_async

from core.errors import NotFound
from core.groups import daily_group
from core.sockets import JsonSocket
from leaderboard.boards import daily_board_snapshot
from leaderboard.models import Daily


def _snapshot(day: date) -> dict[str, Any] | None:
    daily = Daily.objects.filter(date=day).first()
    return None if daily is None else daily_board_snapshot(daily)


class DailyBoardConsumer(JsonSocket):
    """One watcher of one day's board."""

    group: str | None = None

    async def connect(self) -> None:
        day: date = self.scope["url_route"]["kwargs"]["day"]
        await self.accept()
        # Join first, then read: a result committed in between is in the snapshot or pushed after.
        self.group = daily_group(day.isoformat())
        await self.channel_layer.group_add(self.group, self.channel_name)
        snapshot = await database_sync_to_async(_snapshot)(day)
        if snapshot is None:
            await self.refuse(NotFound("No such day"))
            return
        await self.send_json(snapshot)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def board_update(self, event: dict[str, Any]) -> None:
        """A new first page, sent by :func:`leaderboard.scores.daily_board_announce`."""
        await self.send_json(event["board"])
