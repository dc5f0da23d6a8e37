"""The site's ASGI application plus the baselines bench/moves.py measures the move path against.

- ``/ws/echo/``: a bare echo on Channels' own ``AsyncWebsocketConsumer``, as Channels' documentation
  writes one. Since Channels 4.2 it hops to a worker thread before every message.
- ``/ws/echo/bare/``: the same echo on the site's socket base (:class:`JsonSocket`), which skips
  that hop as the game's consumer does: the fair ceiling for one message in, one message out.
- ``/ws/floor/``: a socket that speaks the game's protocol (v2, as ``/ws/play/``) but plays no
  game. It stands behind the same middleware as the player's socket (origin, session, user),
  parses every message as the game does, answers ``open`` with a whole VIEW of a real deal, and
  each move with a real move's change (``moved``), its ``seq`` moved on; its clients open a new
  "game" on the same socket after as many moves as a game takes, as players do. What it costs is
  what the protocol's shape costs before any game is played: the floor under the move path.
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
from game.engine import Deal, GameState, Variant, move_change  # noqa: E402
from game.live import LiveGame  # noqa: E402
from game.protocol import MAX_MESSAGE_CHARS, PLAY_MESSAGES, client_message  # noqa: E402
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
"""The VIEW the floor answers ``open`` with: a real opening, as the player's socket sends it."""


def floor_change() -> dict[str, Any]:
    """The ``moved`` frame the floor answers a move with: the opening's first move's change."""
    before = GameState(Deal.from_seed("floor"), Variant.TRIPEAKS)
    after = before.copy()
    after.apply(after.legal_moves()[0])
    return {"type": "moved", "game": FLOOR_VIEW["id"], **move_change(before, after)}


FLOOR_CHANGE = {**floor_change(), "finished_at": None}


class FloorConsumer(JsonSocket):
    """Answers ``open`` as the player's socket does, and every other message as it answers a
    move, without playing it."""

    async def connect(self) -> None:
        await self.accept()

    messages = PLAY_MESSAGES
    max_message_chars = MAX_MESSAGE_CHARS

    async def handle(self, kind: str, fields: dict[str, Any]) -> None:
        if kind == "open":
            await self.send_json({"type": "state", "game": FLOOR_VIEW})
            return
        seq = getattr(client_message(kind, fields), "seq", 0) + 1
        await self.send_json({**FLOOR_CHANGE, "seq": seq})


routes = {
    "/ws/echo/": EchoConsumer.as_asgi(),
    "/ws/echo/bare/": BareEchoConsumer.as_asgi(),
    "/ws/floor/": websocket_stack(URLRouter([path("ws/floor/", FloorConsumer.as_asgi())])),
}


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    route = routes.get(scope["path"]) if scope["type"] == "websocket" else None
    await (route or site)(scope, receive, send)
