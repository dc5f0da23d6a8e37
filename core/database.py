"""A database thread: one thread and its own connection, for an event loop's queries, failing fast.

The game's move writer and game loads each run on one (``game.live``), so that a batch of moves
never waits behind anything else; the readiness check runs on one, so that a database that does
not answer never holds up a thread anything else needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Final, TypeVar

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import DatabaseError, connection

from core.outages import DATABASE, DatabaseUnavailable, database_unavailable

T = TypeVar("T")

IDLE_BEFORE_CHECK: Final = 5.0
"""Seconds a database connection may sit idle before it is checked again before use."""


def _close_connection() -> None:
    # Resolved inside the calling thread: Django's connections are per thread.
    connection.close()


def _drop_connection() -> None:
    """Let go of this thread's connection after the database failed a call on it: the next call
    takes one the pool has checked.

    Django's own mark of a failed connection (``errors_occurred``, which makes the next call
    check it) is not enough. With every session of the server ended five times a second
    (``tests/game/test_database_faults.py`` at 20 ms between moves), a game's last move went to
    the endings' thread about once a second and failed each time, with "terminating connection
    due to administrator command", every call starting with the mark cleared: the player's
    move, tried again and again, never went through, and the test hung.
    """
    with contextlib.suppress(DatabaseError):  # already broken: the pool discards it
        _close_connection()


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
        self._unanswered: Future[Any] | None = None

    async def run(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` on the thread, handed to it at once.

        The call reaches the thread in the step that makes it, and its answer wakes the caller
        on the loop's second turn after it (one to take the answer in, one to resume the caller).
        Under load a turn of the loop can take tens of milliseconds (it resumes every socket a
        batch of moves has answered), so each hop counts. Through asgiref's ``sync_to_async``, in
        a task of its own, a shield and ``wait_for``, a batch of moves under the move bench's load
        took a median of 43 ms from its call to its answer, 15 ms of it before the thread was
        even asked and 8 ms after the thread had answered; handed over at once, 27 ms (1 and 4).
        """
        if not self.answering:
            raise DatabaseUnavailable("the database has not answered the previous query yet")
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        call = self._executor.submit(context.run, self._call, loop, function, args)
        try:
            async with asyncio.timeout(self._timeout):
                result: T = await asyncio.wrap_future(call)
        except TimeoutError:
            self._unanswered = call
            call.add_done_callback(_ignore_outcome)
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

    def _call(
        self, loop: asyncio.AbstractEventLoop, function: Callable[..., T], args: tuple[object, ...]
    ) -> T:
        # As asgiref's sync_to_async would: an ``async_to_sync`` call made in this thread (an
        # event sent once a transaction has committed) runs on ``loop``, where the channel layer
        # lives, and ``core.broadcast`` finds the loop this thread works for.
        SyncToAsync.threadlocal.main_event_loop = loop
        SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
        now = time.monotonic()
        if connection.errors_occurred or now - self._last_used >= IDLE_BEFORE_CHECK:
            connection.close_if_unusable_or_obsolete()
        self._last_used = now
        try:
            return function(*args)
        except Exception as error:
            if database_unavailable(error):
                _drop_connection()
            raise

    @property
    def answering(self) -> bool:
        """False while a call the database has not answered in time is still running."""
        return self._unanswered is None or self._unanswered.done()

    def close(self) -> None:
        """Close the thread's connection and stop the thread (waits for queued work)."""
        self._executor.submit(_close_connection).result()
        self._executor.shutdown(wait=True)


def _ignore_outcome(call: Future[Any]) -> None:
    """A call given up on may still fail: nobody waits for it, so its error goes no further."""
    if not call.cancelled():
        call.exception()
