"""The room websocket's client messages (docs/races.md).

Each message is a JSON object with exactly one field, ``type``: ``sync``, ``join``, ``leave``,
``start`` or ``rematch``. The socket reads them strictly (:mod:`core.messages`); anything else is
refused with ``bad_message``.
"""

from enum import StrEnum
from typing import Final

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


ROOM_MESSAGES: Final = {command.value: frozenset({"type"}) for command in Command}
