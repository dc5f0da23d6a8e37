"""What the site tells a client it refused, one family for every socket and service.

A :class:`ClientError` carries the protocol's ``code`` and a ``message`` in words, and, for the
refusals of a game, the ``view`` the client should go on from. A socket sends it as an error frame
(:meth:`ClientError.frame`); a socket refused on connect then closes with the error's
``close_code``. A ``retryable`` error refused nothing for good: the same message, sent again after
``retry_after_ms``, may well succeed.

The ``message`` is the protocol's, English whatever the asker's language. A page that shows a
refusal shows :meth:`ClientError.in_words`, the same message in the request's language: a service
marks its message for the catalog (``gettext_noop``), with any figures in it as named ``values``
(docs/translations.md).
"""

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from django.utils.translation import gettext

CLOSE_BANNED: Final = 4401
"""The player was suspended by a moderator (the protocol's "unauthorised"): do not come back."""
CLOSE_FORBIDDEN: Final = 4403
"""Not this visitor's to open (someone else's game, a board not yet watchable)."""
CLOSE_NOT_FOUND: Final = 4404
"""Nothing is there (no such game, room or day)."""
CLOSE_TRY_AGAIN_LATER: Final = 4503
"""Try again later (as HTTP 503): a part the site needs is down; the page reconnects by itself.
(RFC 6455 has 1013 for this, but Daphne lets an application close only with 1000 or 3000-4999.)"""


class ClientError(Exception):
    """A request refused, in the protocol's words (``docs/protocol.md``)."""

    code: ClassVar[str] = "error"
    close_code: ClassVar[int] = CLOSE_FORBIDDEN
    retryable: ClassVar[bool] = False
    retry_after_ms: ClassVar[int] = 0

    def __init__(
        self,
        message: str,
        view: Mapping[str, Any] | None = None,
        *,
        values: Mapping[str, Any] | None = None,
    ) -> None:
        text = message % values if values else message
        super().__init__(text)
        self.message = text
        self.view = view
        self.template = message
        self.values = values

    def in_words(self) -> str:
        """The message for a page, in the active language (English when the catalog does not
        have it).

        >>> RateLimited("Slow down: %(wait)s seconds", values={"wait": 3}).in_words()
        'Slow down: 3 seconds'
        """
        text = gettext(self.template)
        return text % self.values if self.values else text

    def body(self) -> dict[str, Any]:
        """The error as an HTTP answer's JSON body: its code and its message."""
        return {"error": self.code, "message": self.message}

    def frame(self) -> dict[str, Any]:
        """The error frame a socket sends for it."""
        frame: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.retryable:
            frame.update(retryable=True, retry_after_ms=self.retry_after_ms)
        if self.view is not None:
            frame["game"] = self.view
        return frame


class BadMessage(ClientError):
    """Not a message the socket takes (not JSON, an unknown type, wrong fields or types)."""

    code = "bad_message"


class RateLimited(ClientError):
    code = "rate_limited"


class NotFound(ClientError):
    code = "not_found"
    close_code = CLOSE_NOT_FOUND


class Forbidden(ClientError):
    code = "forbidden"


class GameOver(ClientError):
    """The game has ended (a move after its end; a spectator arriving after it)."""

    code = "game_over"


class Banned(ClientError):
    """The player was suspended by a moderator."""

    code = "banned"
    close_code = CLOSE_BANNED


class SignInRequired(ClientError):
    code = "sign_in_required"


class Unavailable(ClientError):
    """The database did not answer: nothing was stored, and the client should send it again."""

    code = "unavailable"
    close_code = CLOSE_TRY_AGAIN_LATER
    retryable = True
    retry_after_ms = 1000
