"""The room websocket's client messages: strict parsing, as for the game's (game/protocol.py).

Each message is a JSON object with exactly one field, ``type``: ``sync``, ``join``, ``leave``,
``start`` or ``rematch`` (docs/races.md). Anything else is refused with ``bad_message``.
"""

import json
from enum import StrEnum
from typing import Final

from game.protocol import ProtocolError

MAX_MESSAGE_CHARS: Final = 64
"""Far above the largest real message (``{"type": "rematch"}`` is 19 characters)."""
SOCKET_RATE: Final = 5.0
"""Room commands a connection may send per second on average (they are rare)."""
SOCKET_BURST: Final = 10


class Command(StrEnum):
    """What a room socket may ask for."""

    SYNC = "sync"  # the room's snapshot now (and an end check of a round that is due)
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    REMATCH = "rematch"  # start the next round, once one is over


_COMMANDS: Final = frozenset(command.value for command in Command)


def parse_room_message(text: str | None) -> Command:
    """Read one client message, or raise ProtocolError saying what is wrong with it."""
    if text is None:
        raise ProtocolError("Messages are JSON text, not binary")
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError(f"Messages are at most {MAX_MESSAGE_CHARS} characters")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("The message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("A message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _COMMANDS:
        raise ProtocolError(f"type must be one of {', '.join(sorted(_COMMANDS))}")
    if set(data) != {"type"}:
        raise ProtocolError("A room message has exactly one field: type")
    return Command(kind)
