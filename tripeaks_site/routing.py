"""The websocket router: the apps' socket routes, and a clean refusal for any other path."""

from typing import Any

from channels.routing import URLRouter
from django.urls import URLPattern, re_path

from core.errors import NotFound
from core.sockets import JsonSocket
from tripeaks_site.middleware import NUL


class NoSuchSocket(JsonSocket):
    """A socket path that names nothing, refused as the apps refuse an unknown game or day:
    an error frame with code ``not_found``, then close code 4404."""

    async def connect(self) -> None:
        await self.accept()
        await self.refuse(NotFound("No such socket"))


def websocket_router(routes: list[URLPattern]) -> Any:
    """Route each socket to the first of ``routes`` its path matches, and every other path to
    :class:`NoSuchSocket` (Channels' own router raises an error for a path without a route).

    A path with a NUL byte never reaches an app's route: no game id, day or room code holds one,
    and PostgreSQL refuses NUL in text.
    """
    refuse = NoSuchSocket.as_asgi()
    router = URLRouter([*routes, re_path(r"", refuse)])

    async def route(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if NUL in scope["path"]:
            return await refuse(scope, receive, send)
        return await router(scope, receive, send)

    return route
