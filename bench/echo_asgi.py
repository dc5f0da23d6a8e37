"""The site's ASGI application plus a bare echo websocket at /ws/echo/, for bench/moves.py.

The echo consumer measures what Daphne and Channels cost by themselves, so that the move path can
be compared with it on the same server.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks_site.settings")
get_asgi_application()

from typing import Any  # noqa: E402

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402

from tripeaks_site.asgi import application as site  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    """Sends every message straight back."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


echo = EchoConsumer.as_asgi()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope["path"] == "/ws/echo/":
        await echo(scope, receive, send)
    else:
        await site(scope, receive, send)
