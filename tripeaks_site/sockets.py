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

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer


class JsonSocket(AsyncWebsocketConsumer):
    """A websocket that speaks JSON text frames and dispatches without a thread hop."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content))
