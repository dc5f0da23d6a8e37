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
import math
import threading
import time
from collections.abc import Callable
from typing import Final

from django.conf import settings
from django.db import InterfaceError, OperationalError
from psycopg_pool import PoolTimeout

from core.metrics import PART_DOWN, PART_FAILURES

logger = logging.getLogger(__name__)


class DatabaseUnavailable(Exception):
    """The database did not answer in time (frozen, overloaded, or unreachable)."""


class Outage:
    """Whether one part is down now, told to the log on each change (thread-safe)."""

    def __init__(
        self, part: str, label: str, waited: Callable[[BaseException], float] = lambda _: 0.0
    ) -> None:
        """``waited(error)``: how many seconds a call that failed with ``error`` had waited for
        the part before it failed, as far as the error tells (by default, none)."""
        self.part: Final = part
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._back_since = -math.inf
        self._failures = 0
        self._waited = waited
        self._down = PART_DOWN.labels(label)
        self._failed = PART_FAILURES.labels(label)

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def failed(self, error: BaseException, began: float | None = None) -> None:
        """Something needing the part failed because of it.

        ``began``: when the failed call began (``time.monotonic()``), by default now less what
        the error says it waited. A call that began before the part was last seen back belongs to
        the outage that ended then: it is counted, but does not open a new one. (With PostgreSQL
        stopped and started, one process logged it back, then at once down again, from a call
        that had waited five seconds for a pooled connection since the outage, then back 0.1 s
        later.)
        """
        self._failed.inc()
        now = time.monotonic()
        began = now - self._waited(error) if began is None else began
        with self._lock:
            if self._down_since is None and began < self._back_since:
                return
            self._failures += 1
            if self._down_since is not None:
                return
            self._down_since = now
        self._down.set(1)
        logger.error("%s unavailable: %s: %s", self.part, type(error).__name__, error)

    def succeeded(self) -> None:
        """Something needing the part worked: if it was down, it is back."""
        if self._down_since is None:  # the usual case, without taking the lock
            return
        with self._lock:
            if self._down_since is None:
                return
            now = time.monotonic()
            lasted, failures = now - self._down_since, self._failures
            self._down_since, self._failures, self._back_since = None, 0, now
        self._down.set(0)
        logger.warning(
            "%s back after %.1f s (%d operations failed meanwhile)", self.part, lasted, failures
        )


def pool_wait(error: BaseException) -> float:
    """How long a call failed with ``error`` had waited for a connection of the pool: the pool's
    timeout if that is what it ran out of (psycopg's ``PoolTimeout``, raised as Django's
    ``OperationalError``), else nothing."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, PoolTimeout):
            return float(settings.DATABASE_POOL_TIMEOUT)
        cause = cause.__cause__
    return 0.0


DATABASE: Final = Outage("PostgreSQL", "database", waited=pool_wait)
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
