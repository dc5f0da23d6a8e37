"""Outages of the parts the site depends on (PostgreSQL, Redis): told once, not once per request.

While the database or the channel layer is down, every request and every move that touches it
fails the same way. Logging each would bury the one line an operator needs, so each part has an
:class:`Outage` that logs the moment it went down and the moment it came back, and counts what
failed in between (the metrics, ``docs/operations.md``).

:func:`database_unavailable` says whether an exception is the database being unreachable (as
opposed to a bug or a refused row), for the places that turn that into a 503 or a retryable error.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Final

from django.db import InterfaceError, OperationalError

from core.metrics import PART_DOWN, PART_FAILURES

logger = logging.getLogger(__name__)


class DatabaseUnavailable(Exception):
    """The database did not answer in time (frozen, overloaded, or unreachable)."""


class Outage:
    """Whether one part is down now, told to the log on each change (thread-safe)."""

    def __init__(self, part: str, label: str) -> None:
        self.part: Final = part
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._failures = 0
        self._down = PART_DOWN.labels(label)
        self._failed = PART_FAILURES.labels(label)

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def failed(self, error: BaseException) -> None:
        """Something needing the part failed because of it."""
        self._failed.inc()
        with self._lock:
            self._failures += 1
            if self._down_since is not None:
                return
            self._down_since = time.monotonic()
        self._down.set(1)
        logger.error("%s unavailable: %s: %s", self.part, type(error).__name__, error)

    def succeeded(self) -> None:
        """Something needing the part worked: if it was down, it is back."""
        if self._down_since is None:  # the usual case, without taking the lock
            return
        with self._lock:
            if self._down_since is None:
                return
            lasted, failures = time.monotonic() - self._down_since, self._failures
            self._down_since, self._failures = None, 0
        self._down.set(0)
        logger.warning(
            "%s back after %.1f s (%d operations failed meanwhile)", self.part, lasted, failures
        )


DATABASE: Final = Outage("PostgreSQL", "database")
CHANNEL_LAYER: Final = Outage("The channel layer (Redis)", "channel_layer")


def database_unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached now (not that a query was wrong)."""
    return isinstance(error, OperationalError | InterfaceError | DatabaseUnavailable)


class OutageLogFilter(logging.Filter):
    """Keeps Django's "Internal Server Error" tracebacks for real errors only: a request that
    failed because the database is down is counted in :data:`DATABASE` instead, which logs the
    outage once."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and database_unavailable(error):
            DATABASE.failed(error)
            return False
        return True
