"""The base of the site's websocket consumers.

Channels (since 4.2) runs ``close_old_connections`` in a worker thread before every message a
consumer handles, in case the handler used the ORM from the event loop's thread. That hop costs
more than a move. Our consumers never touch the ORM that way: game services use their own database
thread (:mod:`game.live`), and everything else goes through ``database_sync_to_async``, which
tidies its own connection. So these consumers skip the hop; a consumer that needs the ORM must use
``database_sync_to_async``, never a bare ``sync_to_async``.

A consumer that acts for a signed-in player derives from :class:`PlayerSocket` and calls
:meth:`PlayerSocket.player_join` once it has accepted the connection: :func:`player_sockets_close`
then reaches every such socket of that player, on every process, so that a ban closes them all.
"""

import json
from typing import Any, Final

from channels.auth import AuthMiddleware
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware

from core.broadcast import group_send
from core.metrics import OPEN_SOCKETS
from core.outages import DATABASE, database_unavailable

CLOSE_BANNED: Final = 4401
"""The player was suspended by a moderator (the protocol's "unauthorised"): do not come back."""
CLOSE_FORBIDDEN: Final = 4403
"""Not this visitor's to open (someone else's game, a board not yet watchable)."""
CLOSE_NOT_FOUND: Final = 4404
"""Nothing is there (no such game, room or day)."""
CLOSE_TRY_AGAIN_LATER: Final = 4503
"""Try again later (as HTTP 503): a part the site needs is down; the page reconnects by itself.
(RFC 6455 has 1013 for this, but Daphne lets an application close only with 1000 or 3000-4999.)"""


class JsonSocket(AsyncWebsocketConsumer):
    """A websocket that speaks JSON text frames and dispatches without a thread hop.

    When it ends, it tells the channel layer that its channel is gone (``channel_discard``, on the
    site's layers), which Channels itself never does: else its subscriptions and group memberships
    would outlive it.
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        open_sockets = OPEN_SOCKETS.labels(type(self).__name__)
        open_sockets.inc()
        try:
            await super().__call__(scope, receive, send)
        finally:
            open_sockets.dec()
            channel = getattr(self, "channel_name", None)
            discard = getattr(self.channel_layer, "channel_discard", None)
            if channel is not None and discard is not None:
                await discard(channel)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content))


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' session middleware, without its wrapper around every frame a websocket sends.

    The wrapper saves a modified session as an HTTP response starts, which is the only message
    that can carry its cookie; a websocket frame never does, so for a websocket the wrapper only
    costs time on every frame. A websocket consumer that changes the session saves it itself, as
    with Channels' own middleware.
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await super().__call__(scope, receive, send)
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


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


class OutageGuard:
    """Closes a websocket with "try again later" (4503) when the database cannot be reached,
    instead of letting the error end the socket with a server error (1011, or a 500 for a
    handshake): the session and the user are read from the database before any consumer runs, and
    a consumer may need it too. Any other error goes on as before."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        accepted = closed = False

        async def watched_send(message: dict[str, Any]) -> None:
            nonlocal accepted, closed
            accepted = accepted or message["type"] == "websocket.accept"
            closed = closed or message["type"] == "websocket.close"
            await send(message)

        try:
            return await self.inner(scope, receive, watched_send)
        except Exception as error:
            if not database_unavailable(error):
                raise
            DATABASE.failed(error)
            if closed:
                return None
            if not accepted:  # a refused handshake would be a bare 403: say why, then close
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(UNAVAILABLE_FRAME)})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
            return None


UNAVAILABLE_FRAME: Final = {
    "type": "error",
    "code": "unavailable",
    "message": "The site cannot reach its records right now: reconnecting shortly",
    "retryable": True,
    "retry_after_ms": 1000,
}


def websocket_stack(inner: Any) -> Any:
    """What stands before every websocket of the site: the Origin header must name an allowed
    host, and the session cookie says who is connecting (Channels' ``AuthMiddlewareStack``, its
    session middleware replaced by :class:`SocketSessionMiddleware`); a database outage closes
    the socket with "try again later" (:class:`OutageGuard`)."""
    return OutageGuard(
        AllowedHostsOriginValidator(
            CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
        )
    )
