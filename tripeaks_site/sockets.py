"""The base of the site's websocket consumers.

Channels (since 4.2) runs ``close_old_connections`` in a worker thread before every message a
consumer handles, in case the handler used the ORM from the event loop's thread. That hop costs
more than a move. Our consumers never touch the ORM that way: game services use their own database
thread (:mod:`game.live`), and everything else goes through ``database_sync_to_async``, which
tidies its own connection. So these consumers skip the hop; a consumer that needs the ORM must use
``database_sync_to_async``, never a bare ``sync_to_async``.
"""

import json
from typing import Any

from channels.auth import AuthMiddleware
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class JsonSocket(AsyncWebsocketConsumer):
    """A websocket that speaks JSON text frames and dispatches without a thread hop."""

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


def websocket_stack(inner: Any) -> Any:
    """What stands before every websocket of the site: the Origin header must name an allowed
    host, and the session cookie says who is connecting (Channels' ``AuthMiddlewareStack``, its
    session middleware replaced by :class:`SocketSessionMiddleware`)."""
    return AllowedHostsOriginValidator(
        CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
    )
