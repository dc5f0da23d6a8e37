"""The event loop's ways to the database, both failing fast: a database thread (one thread and its
own connection, for any of Django's queries) and a loop connection (a PostgreSQL session used from
the loop itself, for a statement that needs nothing of Django's).

The game's loads and the moves that end a game run on database threads (``game.live``), and so
does the readiness check, so that a database that does not answer never holds up a thread anything
else needs; on PostgreSQL the batches of moves in play go through a loop connection
(``game.writer``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import socket
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Final, TypeVar

import psycopg
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
        began = time.monotonic()
        call = self._executor.submit(context.run, self._call, loop, function, args)
        try:
            async with asyncio.timeout(self._timeout):
                result: T = await asyncio.wrap_future(call)
        except TimeoutError:
            self._unanswered = call
            call.add_done_callback(_ignore_outcome)
            error = DatabaseUnavailable(f"no answer within {self._timeout:g} s")
            DATABASE.failed(error, began)
            raise error from None
        except Exception as error:
            if not database_unavailable(error):
                raise
            DATABASE.failed(error, began)
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


Row = tuple[Any, ...]

SESSION_FAILURES: Final = (psycopg.OperationalError, psycopg.InterfaceError, OSError)
"""What psycopg raises when a session cannot be opened or used: the database is down, not the
statement wrong."""


class LoopConnection:
    """A PostgreSQL session kept by one event loop and used from it, one statement at a time.

    A database thread needs the interpreter's lock back after every reply from the database, and
    while the loop is busy each wait for it can take a whole switch interval: under the move
    bench's load a batch of moves sent from the loop was answered sooner, and the process spent
    less CPU per move (docs/operations.md, Capacity). The session is psycopg's own, in autocommit,
    with Django's connection parameters; it is not one of the pool's (a process holds one session
    more than its pool), and its statements are prepared on the server once.

    **It fails fast**, as a database thread does. A statement not answered within ``timeout``
    seconds has its session cut under it (the socket shut down, which psycopg sees at once as the
    server gone) rather than cancelled: psycopg answers a cancelled task by asking the server to
    cancel the statement and waiting for it, up to ten seconds on a server that is frozen. A
    session that fails is closed and the next statement opens a new one (also within
    ``timeout``); a failure of the database raises :class:`DatabaseUnavailable`. A kept session
    found ended when a statement is sent on it (the server restarted, or ended it meanwhile) is
    replaced and the statement sent once more, so **a statement sent here must be safe to send
    twice**: its first sending may have committed before the session broke.
    """

    def __init__(
        self, name: str, timeout: float | None = None, *, params: dict[str, Any] | None = None
    ) -> None:
        """``name``: the session's ``application_name``, which ``pg_stat_activity`` shows;
        ``params``: its connection parameters (by default, Django's connection's)."""
        self._name = name
        self._timeout = settings.GAME_DATABASE_TIMEOUT if timeout is None else timeout
        self._params = params
        self._session: psycopg.AsyncConnection[Row] | None = None
        self._busy = False

    async def fetchall(self, statement: str, params: Sequence[Any]) -> list[Row]:
        """Run ``statement`` in a transaction of its own and return its rows.

        An ``IntegrityError`` (a refused row) is raised as psycopg's and leaves the session
        usable; any other error of psycopg's that is not the database's failure is a bug, raised
        as it is.
        """
        if self._busy:
            raise RuntimeError("a loop connection runs one statement at a time")
        self._busy = True
        began = time.monotonic()
        try:
            rows = await self._fetchall(statement, params)
        except DatabaseUnavailable as error:
            DATABASE.failed(error, began)
            raise
        finally:
            self._busy = False
        DATABASE.succeeded()
        return rows

    async def _fetchall(self, statement: str, params: Sequence[Any]) -> list[Row]:
        try:
            return await self._attempt(statement, params, kept=self._session is not None)
        except _SessionEnded:  # the kept session had ended meanwhile: once more, on a new one
            return await self._attempt(statement, params, kept=False)

    async def _attempt(self, statement: str, params: Sequence[Any], *, kept: bool) -> list[Row]:
        """Send ``statement`` on the kept session (``kept``) or a new one: raises
        :class:`_SessionEnded` if the kept one fails before it is due to expire."""
        session = self._session or await self._connect()
        expiry = _Expiry(session, self._timeout)
        try:
            async with session.cursor() as cursor:
                await cursor.execute(statement, params, prepare=True)
                return await cursor.fetchall()
        except psycopg.IntegrityError:
            raise
        except SESSION_FAILURES as error:
            self._discard()
            if expiry.expired:
                raise DatabaseUnavailable(f"no answer within {self._timeout:g} s") from None
            if kept:
                raise _SessionEnded from error
            raise DatabaseUnavailable(str(error)) from error
        except BaseException:
            self._discard()
            raise
        finally:
            expiry.cancel()

    async def _connect(self) -> psycopg.AsyncConnection[Row]:
        params = dict(self._params or connection.get_connection_params())
        for django_only in ("cursor_factory", "prepare_threshold"):
            params.pop(django_only, None)
        params["application_name"] = self._name
        try:
            async with asyncio.timeout(self._timeout):
                self._session = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        except TimeoutError:
            raise DatabaseUnavailable(f"no session within {self._timeout:g} s") from None
        except SESSION_FAILURES as error:
            raise DatabaseUnavailable(str(error)) from error
        return self._session

    def _discard(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            session.pgconn.finish()  # nothing waits on its socket any more

    def close(self) -> None:
        """Close the session (not while a statement runs)."""
        self._discard()


class _SessionEnded(Exception):
    """The kept session failed under a statement before it was due to expire."""


class _Expiry:
    """Cuts ``session`` under its statement once ``timeout`` seconds have passed."""

    def __init__(self, session: psycopg.AsyncConnection[Row], timeout: float) -> None:
        self.expired = False
        self._session = session
        self._timer = asyncio.get_running_loop().call_later(timeout, self._cut)

    def _cut(self) -> None:
        """Shut the session's socket down both ways: the read psycopg waits on ends at once.

        The descriptor itself stays open (psycopg still watches it; a closed one's number could be
        taken by the next socket opened before psycopg let go of it), and is closed with the
        session once psycopg has raised.
        """
        self.expired = True
        with (
            contextlib.suppress(OSError, psycopg.Error),  # the session has ended already
            socket.socket(fileno=os.dup(self._session.fileno())) as shared,
        ):
            shared.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()
