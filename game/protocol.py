"""The game socket's client messages (``docs/protocol.md``), as typed values.

The socket reads each message's type and fields strictly (:mod:`core.messages`, against
:data:`GAME_MESSAGES`); :func:`client_message` checks the values and makes the typed message.
"""

from dataclasses import dataclass
from typing import Any, Final

from core.errors import BadMessage

MAX_MESSAGE_CHARS: Final = 256
"""Far above the largest real message (a move is about 40 characters)."""
MAX_SEQ: Final = 10_000
"""No game has this many moves: 23 draws and 28 plays at most."""


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

GAME_MESSAGES: Final = {
    "sync": {"type"},
    "abandon": {"type"},
    "hint": {"type"},
    "move": {"type", "seq", "move"},
}


def client_message(kind: str, data: dict[str, Any]) -> ClientMessage:
    """The game message of a type and fields :func:`core.messages.typed_message` read (against
    :data:`GAME_MESSAGES`), or :class:`BadMessage` saying what is wrong with its values."""
    if kind == "sync":
        return SyncMessage()
    if kind == "abandon":
        return AbandonMessage()
    if kind == "hint":
        return HintMessage()
    seq, move = data["seq"], data["move"]
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
        raise BadMessage("seq must be a whole number, the count of moves made so far")
    if not isinstance(move, str):
        raise BadMessage("move must be a string: draw, or a card code such as 7h")
    return MoveMessage(seq=seq, move=move)
