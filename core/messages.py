"""Reading what clients send on a websocket: strict JSON messages, and a rate limit per socket.

Every socket of the site reads its clients' messages here (:class:`core.sockets.JsonSocket`):
anything that is not exactly one of the messages a socket takes is refused with ``bad_message``
before it reaches a service.
"""

import json
import time
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from core.errors import BadMessage

Fields = Mapping[str, AbstractSet[str]]
"""The messages a socket takes: each ``type`` and the exact fields its messages have."""


def typed_message(
    text: str | None, fields: Fields, *, max_chars: int
) -> tuple[str, dict[str, Any]]:
    """The type and fields of one client message: a JSON object of at most ``max_chars``
    characters whose ``type`` is a key of ``fields`` and whose fields are exactly those listed
    for it; else :class:`BadMessage` saying what is wrong.

    >>> typed_message('{"type": "sync"}', {"sync": {"type"}}, max_chars=64)
    ('sync', {'type': 'sync'})
    >>> typed_message('{"type": "sync", "x": 1}', {"sync": {"type"}}, max_chars=64)
    Traceback (most recent call last):
    ...
    core.errors.BadMessage: A sync message has exactly the fields type
    """
    if text is None:
        raise BadMessage("Messages are JSON text, not binary")
    if len(text) > max_chars:
        raise BadMessage(f"Messages are at most {max_chars} characters")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("The message is not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("A message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in fields:
        raise BadMessage(f"type must be one of {', '.join(sorted(fields))}")
    if set(data) != fields[kind]:
        raise BadMessage(
            f"A {kind} message has exactly the fields {', '.join(sorted(fields[kind]))}"
        )
    return kind, data


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
