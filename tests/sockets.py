"""Websockets opened the way a browser opens them: from an allowed origin, with a session cookie."""

from collections.abc import Sequence
from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings

from tripeaks_site.asgi import application as site

ORIGIN = b"http://localhost"


def socket_to(
    path: str,
    session_key: str | None = None,
    *,
    origin: bytes = ORIGIN,
    application: Any = site,
    extra_headers: Sequence[tuple[bytes, bytes]] = (),
) -> WebsocketCommunicator:
    """A socket to ``path`` on the site (or on ``application``), as the holder of ``session_key``
    (none: a visitor with no session) from ``origin``, with any ``extra_headers``."""
    headers = [(b"origin", origin), (b"host", b"localhost")]
    headers += [(name, value) for name, value in extra_headers if name != b"cookie"]
    # One Cookie header, as a browser sends: Channels reads the first only.
    cookies = [value for name, value in extra_headers if name == b"cookie"]
    if session_key is not None:
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session_key}".encode())
    if cookies:
        headers.append((b"cookie", b"; ".join(cookies)))
    return WebsocketCommunicator(application, path, headers=headers)
