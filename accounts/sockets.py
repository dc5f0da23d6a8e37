"""Every websocket a signed-in player has open, so that banning them can close all of them.

A consumer that acts for a player derives from :class:`PlayerSocket` and calls
:meth:`PlayerSocket.player_join` once it has accepted the connection. :func:`player_sockets_close`
then reaches every such socket of that player, on every process sharing the channel layer.
"""

from typing import Any

from core.broadcast import group_send
from core.sockets import CLOSE_BANNED, JsonSocket


def player_group_name(user_id: int) -> str:
    """The channel-layer group of every socket a signed-in player has open."""
    return f"player-{user_id}"


class PlayerSocket(JsonSocket):
    """A websocket that belongs to the player who opened it."""

    player_group: str | None = None

    async def player_join(self) -> None:
        """Join the player's group (guests have none: they cannot be banned)."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.player_group = player_group_name(user.pk)
            await self.channel_layer.group_add(self.player_group, self.channel_name)

    async def player_leave(self) -> None:
        """Leave the player's group; call from ``disconnect``."""
        if self.player_group is not None:
            await self.channel_layer.group_discard(self.player_group, self.channel_name)
            self.player_group = None

    async def player_banned(self, event: dict[str, Any]) -> None:
        """The player was banned: say so and hang up."""
        await self.send_json(
            {"type": "error", "code": "banned", "message": "This account is suspended"}
        )
        await self.close(code=CLOSE_BANNED)


async def player_sockets_close(user_id: int) -> None:
    """Close every websocket ``user_id`` has open, on every process."""
    await group_send(player_group_name(user_id), {"type": "player.banned"})
