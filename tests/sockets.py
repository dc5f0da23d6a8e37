"""Websockets opened the way a browser opens them: from an allowed origin, with a session cookie."""

from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings

from tripeaks_site.asgi import application as site

ORIGIN = b"http://localhost"


def socket_to(
    path: str, session_key: str | None = None, *, origin: bytes = ORIGIN, application: Any = site
) -> WebsocketCommunicator:
    """A socket to ``path`` on the site (or on ``application``), as the holder of ``session_key``
    (none: a visitor with no session) from ``origin``."""
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if session_key is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)
