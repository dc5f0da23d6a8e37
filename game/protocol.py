"""The websocket protocol's client messages: strict parsing, and a per-connection rate limit.

See ``docs/protocol.md``. Anything that is not exactly one of these messages is refused with
``bad_message`` before it reaches a service.
"""

import json
import time
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Final

MAX_MESSAGE_CHARS: Final = 256
"""Far above the largest real message (a move is about 40 characters)."""
MAX_SEQ: Final = 10_000
"""No game has this many moves: 23 draws and 28 plays at most."""


class ProtocolError(Exception):
    """A message that is not one the protocol defines."""


@dataclass(frozen=True, slots=True)
class SyncMessage:
    """Ask for the current state."""


@dataclass(frozen=True, slots=True)
class MoveMessage:
    """Make ``move`` as move number ``seq``."""

    seq: int
    move: str


@dataclass(frozen=True, slots=True)
class AbandonMessage:
    """Give the game up."""


@dataclass(frozen=True, slots=True)
class HintMessage:
    """Ask for a suggested move (casual games; the game is marked assisted)."""


ClientMessage = SyncMessage | MoveMessage | AbandonMessage | HintMessage

_FIELDS: Final = {
    "sync": {"type"},
    "abandon": {"type"},
    "hint": {"type"},
    "move": {"type", "seq", "move"},
}


def typed_message(
    text: str | None, fields: Mapping[str, AbstractSet[str]], *, max_chars: int
) -> tuple[str, dict[str, Any]]:
    """The type and fields of one client message: a JSON object of at most ``max_chars``
    characters whose ``type`` is a key of ``fields`` and whose fields are exactly those listed
    for it; else ProtocolError saying what is wrong. Every websocket of the site reads its
    clients' messages with this."""
    if text is None:
        raise ProtocolError("Messages are JSON text, not binary")
    if len(text) > max_chars:
        raise ProtocolError(f"Messages are at most {max_chars} characters")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("The message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("A message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in fields:
        raise ProtocolError(f"type must be one of {', '.join(sorted(fields))}")
    if set(data) != fields[kind]:
        raise ProtocolError(
            f"A {kind} message has exactly the fields {', '.join(sorted(fields[kind]))}"
        )
    return kind, data


def parse_client_message(text: str | None) -> ClientMessage:
    """Read one client message, or raise ProtocolError saying what is wrong with it."""
    kind, data = typed_message(text, _FIELDS, max_chars=MAX_MESSAGE_CHARS)
    if kind == "sync":
        return SyncMessage()
    if kind == "abandon":
        return AbandonMessage()
    if kind == "hint":
        return HintMessage()
    seq, move = data["seq"], data["move"]
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
        raise ProtocolError("seq must be a whole number, the count of moves made so far")
    if not isinstance(move, str):
        raise ProtocolError("move must be a string: draw, or a card code such as 7h")
    return MoveMessage(seq=seq, move=move)


class TokenBucket:
    """Allow ``rate`` messages a second on average, and bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._last = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True
