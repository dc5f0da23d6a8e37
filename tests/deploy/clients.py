"""Clients of the production topology, as a browser is one: HTTPS with cookies, and game sockets.

:class:`Visitor` speaks HTTP/1.1 over TLS to nginx (checking the topology's own certificate),
keeps its cookies and never follows a redirect by itself. :class:`Player` plays one game over a
websocket the way the game page does: it sends the move the VIEW offers, waits for the answer, and
after a lost connection or a retryable error reconnects and goes on from the state the server
sends. It remembers every move the server acknowledged, so that a test can compare them with the
stored log.
"""

from __future__ import annotations

import asyncio
import contextlib
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


def next_move(view: dict[str, Any]) -> str:
    """The move a simple player makes: the first card that fits, or else a draw."""
    playable = view["playable"]
    return str(view["tableau"][playable[0]]) if playable else "draw"


@dataclass
class Player:
    """A player of one game, through the topology, who never gives up on a move."""

    topology: Topology
    game_id: object
    session_key: str
    acknowledged: dict[int, str] = field(default_factory=dict)
    reconnects: int = 0
    closed_codes: list[int] = field(default_factory=list)
    retryable_errors: int = 0
    view: dict[str, Any] = field(default_factory=dict)

    async def play(self, *, moves: int | None = None, pause: float = 0.0) -> dict[str, Any]:
        """Play until the game is over (or ``moves`` more moves are acknowledged); return the
        last VIEW. A lost connection is reopened, as the page does."""
        target = None if moves is None else len(self.acknowledged) + moves
        while True:
            try:
                socket = await open_game_socket(self.topology, self.game_id, self.session_key)
            except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
                self.reconnects += 1
                await asyncio.sleep(0.2)
                continue
            try:
                done = await self._play_on(socket, target, pause)
            except websockets.exceptions.ConnectionClosed as closed:
                self.closed_codes.append(closed.rcvd.code if closed.rcvd else 1006)
                self.reconnects += 1
                await asyncio.sleep(0.1)
                continue
            finally:
                with contextlib.suppress(Exception):
                    await socket.close()
            if done:
                return self.view

    async def _play_on(self, socket: ClientConnection, target: int | None, pause: float) -> bool:
        frame = await receive_json(socket)
        assert frame["type"] == "state", frame
        self.view = frame["game"]
        while self.view["status"] == "in_progress":
            if target is not None and len(self.acknowledged) >= target:
                return True
            seq, move = self.view["seq"], next_move(self.view)
            await socket.send(json.dumps({"type": "move", "seq": seq, "move": move}))
            await self._await_answer(socket, seq, move)
            if pause:
                await asyncio.sleep(pause)
        return True

    async def _await_answer(self, socket: ClientConnection, seq: int, move: str) -> None:
        """Read frames until the move is answered: acknowledged, refused, or to be sent again."""
        while True:
            frame = await receive_json(socket, timeout=30)
            if frame["type"] == "state" and frame["game"]["seq"] > seq:
                self.view = frame["game"]
                self.acknowledged[seq] = move
                return
            if frame["type"] == "error":
                if frame["code"] == "rate_limited":  # faster than a person: slow down, send again
                    await asyncio.sleep(0.25)
                    await socket.send(json.dumps({"type": "move", "seq": seq, "move": move}))
                    continue
                if frame.get("retryable"):
                    self.retryable_errors += 1
                    await asyncio.sleep(frame.get("retry_after_ms", 500) / 1000)
                    await socket.send(json.dumps({"type": "move", "seq": seq, "move": move}))
                    continue
                if "game" in frame:
                    self.view = frame["game"]
                    return
                raise AssertionError(f"move {seq} {move} refused: {frame}")
