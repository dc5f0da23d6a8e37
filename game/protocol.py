"""The game socket's protocol (``docs/protocol.md``): its client messages, as typed values, and
the frames that keep a client's copy of a game's VIEW up to date.

The socket reads each message's type and fields strictly (:mod:`core.messages`, against
:data:`PLAY_MESSAGES`); :func:`client_message` checks the values and makes the typed message.
:class:`GameFrames` chooses, for one socket and one game, between a move's change (``moved``)
and the whole VIEW (``state``).
"""

import uuid
from collections.abc import Mapping
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
    """Make ``game`` the socket's game: its state comes back, its changes follow."""

    game: uuid.UUID


@dataclass(frozen=True, slots=True)
class NewMessage:
    """Start a casual game on a fresh deal, and make it the socket's game."""

    variant: Variant
    winnable_only: bool


@dataclass(frozen=True, slots=True)
class AgainMessage:
    """Start a casual game on the deal of the socket's finished game, and open it."""


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
"""The messages about a socket's game: what the player's socket takes on the game it shows, and what
a spectator's socket reads (to refuse all but ``sync``)."""
PLAY_MESSAGES: Final = {
    **GAME_MESSAGES,
    "open": {"type", "game"},
    "new": {"type", "variant", "winnable_only"},
    "again": {"type"},
}
"""One socket per player tab (``/ws/play/``), carrying game after game."""


def client_message(kind: str, data: dict[str, Any]) -> ClientMessage:
    """The game message of a type and fields :func:`core.messages.typed_message` read (against
    :data:`PLAY_MESSAGES`), or :class:`BadMessage` saying what is wrong
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


StateKey = tuple[int, bool, bool]


def state_key(view: Mapping[str, Any]) -> StateKey:
    """A state's place in its game's history, as a key that only grows: moves made, then whether
    the game is over (giving up ends it without a move), then the assisted mark (a hint sets it
    without a move). None of these is ever taken back."""
    return view["seq"], view["status"] != "in_progress", view["assisted"]


def update_event(
    game_id: uuid.UUID,
    key: StateKey,
    *,
    view: Mapping[str, Any] | None = None,
    moved: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The channel-layer event (``game.update``) that brings a game's sockets its new committed
    state ``key``: a move's change alone (``moved``), else the whole VIEW."""
    return {
        "type": "game.update",
        "id": str(game_id),
        "key": list(key),
        "game": view,
        "moved": moved,
    }


def event_key(event: Mapping[str, Any]) -> StateKey:
    """The state a ``game.update`` event brings (a list once through the channel layer)."""
    seq, over, assisted = event["key"]
    return seq, over, assisted


class GameFrames:
    """The frames one socket sends of one game, each bringing its client's VIEW forward.

    It remembers where the game stands in what the socket sent last (its :data:`StateKey`), so
    that a move's change is sent alone (``moved``) when it follows on from that, the whole VIEW
    (``state``) otherwise, and a broadcast the client already has (its own move's, answered
    directly) is not sent again. A change that does not follow on returns None from
    :meth:`change`: the caller then sends the whole VIEW with :meth:`state` (which it may have
    to read first: a move's broadcast carries its change alone).

    >>> frames = GameFrames()
    >>> view = {"seq": 3, "status": "in_progress", "assisted": False}
    >>> frames.state(view)["type"]
    'state'
    >>> after = (4, False, False)
    >>> frames.news(after), frames.change({"type": "moved", "seq": 4}, after)
    (True, {'type': 'moved', 'seq': 4})
    >>> frames.news(after)  # sent already
    False
    >>> frames.change({"type": "moved", "seq": 6}, (6, False, False)) is None  # a gap
    True
    """

    def __init__(self) -> None:
        self.last_sent: StateKey | None = None

    def forget(self) -> None:
        """The socket moves to another game: nothing of it was sent yet."""
        self.last_sent = None

    def noted(self, view: Mapping[str, Any]) -> None:
        """``view`` went to the client within another frame (a hint, an error)."""
        self.last_sent = state_key(view)

    def news(self, key: StateKey) -> bool:
        """Whether the state ``key`` is newer than what the client has."""
        return self.last_sent is None or key > self.last_sent

    def state(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The whole VIEW."""
        self.noted(view)
        return {"type": "state", "game": view}

    def follows(self, moved: Mapping[str, Any], key: StateKey) -> bool:
        """Whether the move's change ``moved``, to the state ``key``, follows on from what the
        client has: the next move, of a game still in play, with no hint between."""
        last = self.last_sent
        return (
            last is not None and moved["seq"] == last[0] + 1 and not last[1] and key[2] == last[2]
        )

    def change(self, moved: Mapping[str, Any], key: StateKey) -> dict[str, Any] | None:
        """A move's change, bringing the client's VIEW to the state ``key``, if it
        :meth:`follows` on; else None (send the whole VIEW)."""
        if not self.follows(moved, key):
            return None
        self.last_sent = key
        return dict(moved)
