"""The game socket's client messages (``docs/protocol.md``), as typed values.

The socket reads each message's type and fields strictly (:mod:`core.messages`, against
:data:`GAME_MESSAGES`); :func:`client_message` checks the values and makes the typed message.
"""

import uuid
from dataclasses import dataclass
from typing import Any, Final

from core.errors import BadMessage
from game.engine import Variant

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


@dataclass(frozen=True, slots=True)
class OpenMessage:
    """Make ``game`` the socket's game (v2): its state comes back, its changes follow."""

    game: uuid.UUID


@dataclass(frozen=True, slots=True)
class NewMessage:
    """Start a casual game on a fresh deal, and make it the socket's game (v2)."""

    variant: Variant
    winnable_only: bool


@dataclass(frozen=True, slots=True)
class AgainMessage:
    """Start a casual game on the deal of the socket's finished game, and open it (v2)."""


ClientMessage = (
    SyncMessage
    | MoveMessage
    | AbandonMessage
    | HintMessage
    | OpenMessage
    | NewMessage
    | AgainMessage
)

GAME_MESSAGES: Final = {
    "sync": {"type"},
    "abandon": {"type"},
    "hint": {"type"},
    "move": {"type", "seq", "move"},
}
"""Version 1: one socket per game (``/ws/games/<id>/``)."""
PLAY_MESSAGES: Final = {
    **GAME_MESSAGES,
    "open": {"type", "game"},
    "new": {"type", "variant", "winnable_only"},
    "again": {"type"},
}
"""Version 2: one socket per player tab (``/ws/play/``), carrying game after game."""


def client_message(kind: str, data: dict[str, Any]) -> ClientMessage:
    """The game message of a type and fields :func:`core.messages.typed_message` read (against
    :data:`PLAY_MESSAGES` or :data:`GAME_MESSAGES`), or :class:`BadMessage` saying what is wrong
    with its values."""
    if kind == "sync":
        return SyncMessage()
    if kind == "abandon":
        return AbandonMessage()
    if kind == "hint":
        return HintMessage()
    if kind == "again":
        return AgainMessage()
    if kind == "open":
        return OpenMessage(game=_game_id(data["game"]))
    if kind == "new":
        return NewMessage(
            variant=_variant(data["variant"]), winnable_only=_flag(data["winnable_only"])
        )
    seq, move = data["seq"], data["move"]
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
        raise BadMessage("seq must be a whole number, the count of moves made so far")
    if not isinstance(move, str):
        raise BadMessage("move must be a string: draw, or a card code such as 7h")
    return MoveMessage(seq=seq, move=move)


def _game_id(value: object) -> uuid.UUID:
    if not isinstance(value, str):
        raise BadMessage("game must be a game's id")
    try:
        return uuid.UUID(value)
    except ValueError:
        raise BadMessage("game must be a game's id") from None


def _variant(value: object) -> Variant:
    if isinstance(value, str) and value in {v.value for v in Variant}:
        return Variant(value)
    raise BadMessage(f"variant must be one of {', '.join(v.value for v in Variant)}")


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise BadMessage("winnable_only must be true or false")
    return value
