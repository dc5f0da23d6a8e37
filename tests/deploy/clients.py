"""Clients of the production topology, as a browser is one: HTTPS with cookies, and game sockets.

:class:`Visitor` speaks HTTP/1.1 over TLS to nginx (checking the topology's own certificate),
keeps its cookies and never follows a redirect by itself. :func:`game_player` is a
:class:`tests.players.Player` whose websocket goes through nginx.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import ssl
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode, urlsplit

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from deploy.topology import Topology
from tests.players import CONNECTION_ERRORS, Closed, Player


def tls_context(topology: Topology) -> ssl.SSLContext:
    """A client TLS context that trusts the topology's self-signed certificate, and only it."""
    assert topology.certificate is not None
    return ssl.create_default_context(cafile=str(topology.certificate))


@dataclass(frozen=True)
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Visitor:
    """One browser: its cookies, and requests to the site over TLS through nginx."""

    topology: Topology
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self,
        method: str,
        path: str,
        *,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        plain: bool = False,
    ) -> Response:
        base = urlsplit(self.topology.plain_url if plain else self.topology.url)
        connection: http.client.HTTPConnection
        if plain:
            connection = http.client.HTTPConnection(base.hostname or "", base.port, timeout=30)
        else:
            connection = http.client.HTTPSConnection(
                base.hostname or "", base.port, timeout=30, context=tls_context(self.topology)
            )
        sent = {"Host": base.netloc, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            response = Response(answer.status, answer.headers, answer.read())
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return response

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post_form(
        self, path: str, fields: dict[str, str], headers: dict[str, str] | None = None
    ) -> Response:
        """POST a form as the page would: with the CSRF token from the cookie and the Origin and
        Referer a browser sends."""
        if "csrftoken" not in self.cookies:
            self.get("/accounts/login/")
        data = urlencode({"csrfmiddlewaretoken": self.cookies["csrftoken"], **fields}).encode()
        return self.request(
            "POST",
            path,
            body=data,
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": self.topology.url,
                "Referer": f"{self.topology.url}{path}",
                **(headers or {}),
            },
        )


async def open_game_socket(
    topology: Topology, game_id: object, session_key: str
) -> ClientConnection:
    """A websocket to a game through nginx, from the site's own origin, with a session cookie."""
    return await websockets.connect(
        f"{topology.ws_url}/ws/games/{game_id}/",
        ssl=tls_context(topology),
        origin=Origin(topology.url),
        additional_headers={"Cookie": f"sessionid={session_key}"},
        open_timeout=10,
    )


async def receive_json(socket: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), timeout))
    return frame


class WebsocketConnection:
    """A connection through a real server, with the interface :class:`tests.players.Player` uses."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket

    async def send(self, text: str) -> None:
        try:
            await self.socket.send(text)
        except websockets.exceptions.ConnectionClosed as closed:
            raise Closed(closed.rcvd.code if closed.rcvd else 1006) from None

    async def receive(self, timeout: float) -> str:
        try:
            return str(await asyncio.wait_for(self.socket.recv(), timeout))
        except websockets.exceptions.ConnectionClosed as closed:
            raise Closed(closed.rcvd.code if closed.rcvd else 1006) from None

    async def close(self) -> None:
        await self.socket.close()


def game_player(topology: Topology, game_id: object, session_key: str) -> Player:
    """A player of one game through the topology's nginx."""

    async def connect() -> WebsocketConnection:
        return WebsocketConnection(await open_game_socket(topology, game_id, session_key))

    return Player(
        connect,
        transient_errors=(*CONNECTION_ERRORS, websockets.exceptions.WebSocketException),
    )
