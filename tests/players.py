"""A player that plays a whole game over the websocket protocol, as the game page does.

It sends the move the VIEW offers (the first card that fits, else a draw), waits for the answer,
and never gives up on a move: after a retryable error or a rate limit it sends the same move with
the same ``seq`` again, and after a lost connection it reconnects and goes on from the state the
server sends on connect. It remembers every move the server acknowledged and every close it saw,
so that a test can compare them with the stored log.

The connection is anything with the small :class:`Connection` interface: a real websocket through
a server (:mod:`tests.deploy.clients`) or Channels' communicator against the application in this
process (:class:`CommunicatorConnection`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.testing import WebsocketCommunicator


class Closed(Exception):
    """The server closed the connection (or it was lost: 1006)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


class Connection(Protocol):
    async def send(self, text: str) -> None: ...
    async def receive(self, timeout: float) -> str: ...
    async def close(self) -> None: ...


class CommunicatorConnection:
    """A connection to the application in this process, through Channels' communicator."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator

    async def send(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def receive(self, timeout: float) -> str:
        output = await self.communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            raise Closed(output.get("code", 1000))
        return str(output["text"])

    async def close(self) -> None:
        await self.communicator.disconnect()


def next_move(view: dict[str, Any]) -> str:
    """The move a simple player makes: the first card that fits, or else a draw."""
    playable = view["playable"]
    return str(view["tableau"][playable[0]]) if playable else "draw"


Connect = Callable[[], Awaitable[Connection]]
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (OSError, TimeoutError, Closed)


@dataclass
class Player:
    """The player of one game, reaching it through ``connect``."""

    connect: Connect
    acknowledged: dict[int, str] = field(default_factory=dict)
    reconnects: int = 0
    closed_codes: list[int] = field(default_factory=list)
    retryable_errors: int = 0
    view: dict[str, Any] = field(default_factory=dict)
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
        frame = await self._receive(connection)
        if frame["type"] == "error" and frame.get("retryable"):
            raise Closed(1013)  # refused for now: the server closes next; come back
        assert frame["type"] == "state", frame
        self.view = frame["game"]
        while self.view["status"] == "in_progress":
            if target is not None and len(self.acknowledged) >= target:
                return
            seq, move = self.view["seq"], next_move(self.view)
            await self._send_move(connection, seq, move)
            await self._await_answer(connection, seq, move)
            if pause:
                await asyncio.sleep(pause)

    async def _receive(self, connection: Connection) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await connection.receive(self.answer_timeout))
        return frame

    @staticmethod
    async def _send_move(connection: Connection, seq: int, move: str) -> None:
        await connection.send(json.dumps({"type": "move", "seq": seq, "move": move}))

    async def _await_answer(self, connection: Connection, seq: int, move: str) -> None:
        """Read frames until the move is answered: acknowledged, refused, or to be sent again."""
        while True:
            frame = await self._receive(connection)
            if frame["type"] == "state" and frame["game"]["seq"] > seq:
                self.view = frame["game"]
                self.acknowledged[seq] = move
                return
            if frame["type"] != "error":
                continue  # a broadcast of no news
            if frame["code"] == "rate_limited" or frame.get("retryable"):
                self.retryable_errors += frame.get("retryable", False)
                await asyncio.sleep(frame.get("retry_after_ms", 250) / 1000)
                await self._send_move(connection, seq, move)
                continue
            if "game" in frame:  # out of sync: go on from where the game stands
                self.view = frame["game"]
                return
            raise AssertionError(f"move {seq} {move} refused: {frame}")
