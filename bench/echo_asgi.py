"""The site's ASGI application plus the baselines bench/moves.py measures the move path against.

- ``/ws/echo/``: a bare echo on Channels' own ``AsyncWebsocketConsumer``, as Channels' documentation
  writes one. Since Channels 4.2 it hops to a worker thread before every message.
- ``/ws/echo/bare/``: the same echo on the site's socket base (:class:`JsonSocket`), which skips
  that hop as the game's consumer does: the fair ceiling for one message in, one message out.
- ``/ws/floor/``: a socket that speaks the game's protocol but plays no game. It stands behind the
  same middleware as the game's socket (origin, session, user), parses every message as the game
  does, and answers each move with a whole VIEW of a real deal, its ``seq`` moved on; its clients
  open a new socket for each "game", as players do. What it costs is what the protocol's shape
  costs before any game is played: the floor under the move path.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks_site.settings")
get_asgi_application()

import uuid  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from typing import Any  # noqa: E402

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from core.sockets import JsonSocket, websocket_stack  # noqa: E402
from game.engine import Deal, GameState, Variant  # noqa: E402
from game.live import LiveGame  # noqa: E402
from game.protocol import GAME_MESSAGES, MAX_MESSAGE_CHARS, client_message  # noqa: E402
from game.selectors import game_view  # noqa: E402
from tripeaks_site.asgi import application as site  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    """Sends every message straight back, through Channels' default consumer."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


class BareEchoConsumer(JsonSocket):
    """Sends every message straight back, through the base of the site's own consumers."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


FLOOR_VIEW = game_view(
    LiveGame(
        game_id=uuid.UUID(int=0),
        owner_id=None,
        guest_key="",
        mode="casual",
        started_at=datetime(2026, 11, 30, 12, tzinfo=UTC),
        finished_at=None,
        assisted=False,
        reveal_after=None,
        state=GameState(Deal.from_seed("floor"), Variant.TRIPEAKS),
    )
)
"""The VIEW the floor answers with: a real opening, as the game's socket would send it."""


class FloorConsumer(JsonSocket):
    """Answers every message as the game's socket answers a move, without playing it."""

    async def connect(self) -> None:
        await self.accept()
        await self.send_json({"type": "state", "game": FLOOR_VIEW})

    messages = GAME_MESSAGES
    max_message_chars = MAX_MESSAGE_CHARS

    async def handle(self, kind: str, fields: dict[str, Any]) -> None:
        seq = getattr(client_message(kind, fields), "seq", 0) + 1
        await self.send_json({"type": "state", "game": {**FLOOR_VIEW, "seq": seq}})


routes = {
    "/ws/echo/": EchoConsumer.as_asgi(),
    "/ws/echo/bare/": BareEchoConsumer.as_asgi(),
    "/ws/floor/": websocket_stack(URLRouter([path("ws/floor/", FloorConsumer.as_asgi())])),
}


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    route = routes.get(scope["path"]) if scope["type"] == "websocket" else None
    await (route or site)(scope, receive, send)
