"""A database thread: one thread and its own connection, for an event loop's queries, failing fast.

The game's move writer and game loads each run on one (``game.live``), so that a batch of moves
never waits behind anything else; the readiness check runs on one, so that a database that does
not answer never holds up a thread anything else needs.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from core.outages import DATABASE, DatabaseUnavailable, database_unavailable

T = TypeVar("T")

IDLE_BEFORE_CHECK: Final = 5.0
"""Seconds a database connection may sit idle before it is checked again before use."""


def _close_connection() -> None:
    # Resolved inside the calling thread: Django's connections are per thread.
    connection.close()


class DatabaseThread:
    """A thread with its own persistent connection, that runs queries for one event loop.

    Django checks a persistent connection with a query of its own (``CONN_HEALTH_CHECKS``) each
    time it is taken up; on the move path that would be one more round trip per batch. This
    thread checks only a connection that has been idle for :data:`IDLE_BEFORE_CHECK` seconds or
    has seen an error: a connection that breaks in use fails that batch (whose moves are then not
    acknowledged, and are sent again by their clients) and is replaced before the next one.

    **It fails fast.** A call that the database does not answer within ``timeout`` seconds (a
    server frozen, or unreachable with no refusal) raises :class:`DatabaseUnavailable`, and so does
    every call after it until that one has returned: nothing queues up behind a database that does
    not answer, and play resumes by itself once it does. A call refused because the database is
    down (its connection cut, the server stopped) raises :class:`DatabaseUnavailable` too.
    """

    def __init__(self, name: str, timeout: float | None = None) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._last_used = 0.0
        self._timeout = settings.GAME_DATABASE_TIMEOUT if timeout is None else timeout
        self._unanswered: asyncio.Future[Any] | None = None

    async def run(self, function: Callable[..., T], *args: object) -> T:
        if not self.answering:
            raise DatabaseUnavailable("the database has not answered the previous query yet")
        # Through asgiref, so that an ``async_to_sync`` call made in the thread (an event sent
        # once a transaction has committed) runs on this loop, where the channel layer lives.
        call = sync_to_async(self._call, thread_sensitive=False, executor=self._executor)
        pending = asyncio.ensure_future(call(function, args))
        try:
            result = await asyncio.wait_for(asyncio.shield(pending), self._timeout)
        except TimeoutError:
            self._unanswered = pending
            pending.add_done_callback(_ignore_outcome)
            error = DatabaseUnavailable(f"no answer within {self._timeout:g} s")
            DATABASE.failed(error)
            raise error from None
        except Exception as error:
            if not database_unavailable(error):
                raise
            DATABASE.failed(error)
            raise DatabaseUnavailable(str(error)) from error
        DATABASE.succeeded()
        return result

    def _call(self, function: Callable[..., T], args: tuple[object, ...]) -> T:
        now = time.monotonic()
        if connection.errors_occurred or now - self._last_used >= IDLE_BEFORE_CHECK:
            connection.close_if_unusable_or_obsolete()
        self._last_used = now
        return function(*args)

    @property
    def answering(self) -> bool:
        """False while a call the database has not answered in time is still running."""
        return self._unanswered is None or self._unanswered.done()

    def close(self) -> None:
        """Close the thread's connection and stop the thread (waits for queued work)."""
        self._executor.submit(_close_connection).result()
        self._executor.shutdown(wait=True)


def _ignore_outcome(call: asyncio.Future[Any]) -> None:
    """A call given up on may still fail: nobody waits for it, so its error goes no further."""
    if not call.cancelled():
        call.exception()
