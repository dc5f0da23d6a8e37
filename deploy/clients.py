"""Clients of the site, as browsers are: pages over HTTPS, and players over the game's websocket.

:class:`Visitor` speaks HTTP/1.1 over TLS to the topology's nginx (checking its own certificate),
keeps its cookies and never follows a redirect by itself.

:class:`Player` plays a whole game over the player's socket (``/ws/play/``, protocol v2), as the
game page does: it opens its game, sends the move the VIEW offers (the first card that fits, else
a draw), waits for the answer (the move's change, applied to its VIEW as the page applies it) and
never gives up on a move: after a retryable error or a rate limit it sends the same move with the
same ``seq`` again, and after a lost connection it reconnects, opens its game again and goes on
from the state that answers. It remembers every move the server acknowledged, every close it saw
and how long each answer took, so that a test or a bench can compare them with the stored log.
Its connection is anything with the small :class:`Connection` interface: a real websocket
(:func:`game_player`, through nginx) or Channels' communicator in a test's own process.

The tests under ``tests/deploy/`` and the benches under ``bench/`` drive the topology with these.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any, Protocol
from urllib.parse import urlencode, urlsplit

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from deploy.processes import HOST
from deploy.topology import Topology
from game.engine import change_applied
from game.engine.view import PublicView

PLAY_PATH = "/ws/play/"


class Closed(Exception):
    """The server closed the connection (or it was lost: 1006)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


class Connection(Protocol):
    async def send(self, text: str) -> None: ...
    async def receive(self, timeout: float) -> str: ...
    async def close(self) -> None: ...


def next_move(view: dict[str, Any]) -> str:
    """The move a simple player makes: the first card that fits, or else a draw."""
    playable = view["playable"]
    return str(view["tableau"][playable[0]]) if playable else "draw"


def view_after(view: dict[str, Any], moved: dict[str, Any]) -> dict[str, Any] | None:
    """``view`` brought forward by a ``moved`` frame, as the page's ``static/js/view.js`` does;
    None when the frame does not follow on from it (a frame was missed: ask for the state)."""
    if moved["game"] != view["id"] or moved["seq"] != view["seq"] + 1:
        return None
    public: Any = {name: view[name] for name in PublicView.__annotations__}
    change: Any = moved
    return {**view, **change_applied(public, change), "finished_at": moved["finished_at"]}


def frame_seq(frame: dict[str, Any]) -> int:
    """The moves made in the game as a frame leaves it: a ``moved`` frame's ``seq``, or its VIEW's
    (a state, a refusal, a hint)."""
    seq: int = frame["seq"] if frame["type"] == "moved" else frame["game"]["seq"]
    return seq


Connect = Callable[[], Awaitable[Connection]]
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (OSError, TimeoutError, Closed)


@dataclass
class Player:
    """The player of game ``game_id``, reaching the site through ``connect`` (a player's socket,
    which opens with no game)."""

    connect: Connect
    game_id: str
    acknowledged: dict[int, str] = field(default_factory=dict)
    reconnects: int = 0
    closed_codes: list[int] = field(default_factory=list)
    retryable_errors: int = 0
    view: dict[str, Any] = field(default_factory=dict)
    answer_seconds: list[float] = field(default_factory=list)
    acknowledged_at: list[float] = field(default_factory=list)
    """When each acknowledgement came (``time.monotonic()``)."""
    answer_timeout: float = 30.0
    transient_errors: tuple[type[BaseException], ...] = CONNECTION_ERRORS

    async def play(self, *, moves: int | None = None, pause: float = 0.0) -> dict[str, Any]:
        """Play until the game is over (or ``moves`` more moves are acknowledged); return the
        last VIEW. A lost connection is reopened, as the page does."""
        target = None if moves is None else len(self.acknowledged) + moves
        while True:
            try:
                connection = await self.connect()
            except self.transient_errors:
                self.reconnects += 1
                await asyncio.sleep(0.2)
                continue
            try:
                await self._play_on(connection, target, pause)
            except Closed as closed:
                self.closed_codes.append(closed.code)
                self.reconnects += 1
                await asyncio.sleep(0.1)
                continue
            except self.transient_errors:
                self.closed_codes.append(1006)
                self.reconnects += 1
                await asyncio.sleep(0.1)
                continue
            finally:
                with contextlib.suppress(Exception):  # already gone
                    await connection.close()
            return self.view

    async def _play_on(self, connection: Connection, target: int | None, pause: float) -> None:
        await self._open(connection)
        while self.view["status"] == "in_progress":
            if target is not None and len(self.acknowledged) >= target:
                return
            seq, move = self.view["seq"], next_move(self.view)
            await self._send_move(connection, seq, move)
            await self._await_answer(connection, seq, move)
            if pause:
                await asyncio.sleep(pause)

    async def _open(self, connection: Connection) -> None:
        """Open the game on a new connection, and take the state that answers."""
        opening = json.dumps({"type": "open", "game": self.game_id})
        await connection.send(opening)
        while True:
            frame = await self._receive(connection)
            if frame["type"] == "state" and frame["game"]["id"] == self.game_id:
                self.view = frame["game"]
                return
            if frame["type"] == "error" and frame.get("retryable"):
                self.retryable_errors += 1
                await asyncio.sleep(frame.get("retry_after_ms", 250) / 1000)
                await connection.send(opening)
                continue
            if frame["type"] == "error":
                raise AssertionError(f"game {self.game_id} not opened: {frame}")

    async def _receive(self, connection: Connection) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await connection.receive(self.answer_timeout))
        return frame

    @staticmethod
    async def _send_move(connection: Connection, seq: int, move: str) -> None:
        await connection.send(json.dumps({"type": "move", "seq": seq, "move": move}))

    async def _await_answer(self, connection: Connection, seq: int, move: str) -> None:
        """Read frames until the move is answered: acknowledged, refused, or to be sent again."""
        sent = time.monotonic()
        while True:
            frame = await self._receive(connection)
            after = self._view_from(frame)
            if after is not None and after["seq"] > seq:
                self.answer_seconds.append(time.monotonic() - sent)
                self.acknowledged_at.append(time.monotonic())
                self.view = after
                self.acknowledged[seq] = move
                return
            if frame["type"] == "moved" and after is None and frame["seq"] > self.view["seq"]:
                await connection.send(json.dumps({"type": "sync"}))  # a frame was missed
                continue
            if frame["type"] != "error":
                continue  # a broadcast of no news
            self.answer_seconds.append(time.monotonic() - sent)
            if frame["code"] == "rate_limited" or frame.get("retryable"):
                self.retryable_errors += frame.get("retryable", False)
                await asyncio.sleep(frame.get("retry_after_ms", 250) / 1000)
                await self._send_move(connection, seq, move)
                sent = time.monotonic()
                continue
            if "game" in frame:  # out of sync: go on from where the game stands
                self.view = frame["game"]
                return
            raise AssertionError(f"move {seq} {move} refused: {frame}")

    def _view_from(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """The VIEW of this player's game a state or ``moved`` frame brings (None: no VIEW)."""
        if frame["type"] == "state" and frame["game"]["id"] == self.game_id:
            view: dict[str, Any] = frame["game"]
            return view
        if frame["type"] == "moved":
            return view_after(self.view, frame)
        return None


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
        web_port: int | None = None,
    ) -> Response:
        """One request, through nginx over TLS; ``plain``, to nginx's plain HTTP port; with
        ``web_port``, straight to that web process, saying what nginx would (HTTPS, the address)."""
        if web_port is not None:
            plain, headers = (
                True,
                {"X-Forwarded-Proto": "https", "X-Forwarded-For": HOST, **(headers or {})},
            )
        base = urlsplit(self.topology.plain_url if plain else self.topology.url)
        if web_port is not None:
            base = urlsplit(f"http://{HOST}:{web_port}")
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

    def game_start(self, variant: str = "tripeaks") -> str:
        """Start a game with the home page's form, as this visitor (a guest, unless signed in);
        return its id."""
        started = self.post_form("/games/new", {"variant": variant})
        if started.status != 303:
            raise AssertionError(f"no game started: {started.status} {started.text[:500]}")
        return started.headers["Location"].rstrip("/").rsplit("/", 1)[1]

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


async def open_play_socket(
    topology: Topology, session_key: str, *, web_port: int | None = None
) -> ClientConnection:
    """A player's websocket (``/ws/play/``, no game open yet) through nginx, from the site's own
    origin, with a session cookie; with ``web_port``, straight to that web process instead (to
    choose which one serves it)."""
    if web_port is None:
        url, origin, context = topology.ws_url, topology.url, tls_context(topology)
    else:
        url, origin, context = f"ws://{HOST}:{web_port}", f"http://{HOST}:{web_port}", None
    return await websockets.connect(
        f"{url}{PLAY_PATH}",
        ssl=context,
        origin=Origin(origin),
        additional_headers={"Cookie": f"sessionid={session_key}"},
        open_timeout=10,
    )


async def open_game_socket(
    topology: Topology, game_id: object, session_key: str, *, web_port: int | None = None
) -> ClientConnection:
    """A player's websocket with game ``game_id`` asked to open: its first frame answers that
    (the state, or the refusal)."""
    socket = await open_play_socket(topology, session_key, web_port=web_port)
    # A socket refused as it opens (the database is down) may be closing: its frame says why.
    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
        await socket.send(json.dumps({"type": "open", "game": str(game_id)}))
    return socket


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
        return WebsocketConnection(await open_play_socket(topology, session_key))

    return Player(
        connect,
        str(game_id),
        transient_errors=(*CONNECTION_ERRORS, websockets.exceptions.WebSocketException),
    )
