"""The game's own refusals (``docs/protocol.md``), beside the site's (:mod:`core.errors`): each
carries the game's state, for the client to go on from."""

from typing import Any

from core.errors import ClientError


class IllegalMove(ClientError):
    """The rules forbid the move."""

    code = "illegal_move"


class OutOfSync(ClientError):
    """The move's ``seq`` is not the number of moves made (and it is not a resend)."""

    code = "out_of_sync"


class NotStarted(ClientError):
    """A move before the game's start (a race's countdown)."""

    code = "not_started"


class GameInProgress(ClientError):
    """A finished game's deal was asked for while the game is still being played."""

    code = "game_in_progress"


class DealHidden(ClientError):
    """A daily challenge's deal, asked for before its day is over (``reveal_after``: when it will
    be shown, in ISO 8601, when the asker is to be told)."""

    code = "deal_hidden"

    def __init__(self, message: str, *, reveal_after: str | None = None) -> None:
        super().__init__(message)
        self.reveal_after = reveal_after

    def body(self) -> dict[str, Any]:
        body = super().body()
        if self.reveal_after is not None:
            body["reveal_after"] = self.reveal_after
        return body


class NoGameOpen(ClientError):
    """A message about the socket's game, before any game was opened on it (protocol v2)."""

    code = "no_game"
