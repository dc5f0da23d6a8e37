"""The room websocket's client messages: strict parsing, as for the game's (game/protocol.py).

Each message is a JSON object with exactly one field, ``type``: ``sync``, ``join``, ``leave``,
``start`` or ``rematch`` (docs/races.md). Anything else is refused with ``bad_message``.
"""

from enum import StrEnum
from typing import Final

from game.protocol import typed_message

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


_FIELDS: Final = {command.value: frozenset({"type"}) for command in Command}


def parse_room_message(text: str | None) -> Command:
    """Read one client message, or raise ProtocolError saying what is wrong with it."""
    kind, _ = typed_message(text, _FIELDS, max_chars=MAX_MESSAGE_CHARS)
    return Command(kind)
