"""The event loop's ways to the database (core.database).

The database thread: a call is handed to its thread as it is made, answers on the loop, runs
``async_to_sync`` calls on that loop, and fails fast when it does not answer in time. The loop
connection: keeps its session, fails fast on a server that does not answer, and replaces a
session the server ended."""

import asyncio
import threading
import time
from typing import Any

import psycopg
import pytest
import pytest_asyncio
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection

from core.database import DatabaseThread, LoopConnection
from core.outages import DatabaseUnavailable


@pytest.fixture
def database():
    thread = DatabaseThread("test-db", timeout=0.5)
    yield thread
    thread.close()


@pytest.mark.asyncio
async def test_a_call_is_handed_to_its_thread_in_its_first_step(database) -> None:
    """Under load a turn of the loop is long: a call must reach its thread in the step that
    makes it, not in a task of its own that starts a turn later."""
    reached = threading.Event()
    call = asyncio.ensure_future(database.run(reached.set))
    await asyncio.sleep(0)  # one turn of the loop: the call's first step, then this test's
    assert reached.wait(2)  # the loop stays blocked here meanwhile
    await call


@pytest.mark.asyncio
async def test_a_call_returns_its_answer_and_raises_its_error(database) -> None:
    assert await database.run(sum, [1, 2, 3]) == 6
    with pytest.raises(ZeroDivisionError):
        await database.run(divmod, 1, 0)


@pytest.mark.asyncio
async def test_async_to_sync_in_the_thread_runs_on_the_callers_loop(database) -> None:
    """An event sent from the thread (once a transaction has committed) reaches the loop the
    thread works for, where the channel layer lives."""
    loop = asyncio.get_running_loop()

    async def where() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    assert await database.run(async_to_sync(where)) is loop


@pytest.mark.asyncio
async def test_an_unanswered_call_fails_fast_and_so_does_the_next_until_it_returns(
    database,
) -> None:
    release = threading.Event()
    with pytest.raises(DatabaseUnavailable, match=r"no answer within 0\.5 s"):
        await database.run(release.wait, 10)
    assert not database.answering
    with pytest.raises(DatabaseUnavailable, match="has not answered"):
        await database.run(sum, [1])
    release.set()
    for _ in range(100):
        if database.answering:
            break
        await asyncio.sleep(0.01)
    assert await database.run(sum, [1]) == 1


# The loop connection (core.database.LoopConnection), on PostgreSQL.

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a loop connection is a PostgreSQL session"
)


class FreezingProxy:
    """A TCP relay to the database that can stop passing bytes either way, as a server stopped
    with SIGSTOP does: connections stay open and nothing answers, not even a cancel request."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server: asyncio.Server | None = None
        self._relays: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accepted, "127.0.0.1", 0)
        return self._server.sockets[0].getsockname()[1]

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    async def close(self) -> None:
        assert self._server is not None
        self._server.close()
        for relay in self._relays:
            relay.cancel()
        await asyncio.gather(*self._relays, return_exceptions=True)

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(*self._target)
        for source, sink in ((reader, upstream_writer), (upstream_reader, writer)):
            relay = asyncio.ensure_future(self._relay(source, sink))
            self._relays.add(relay)

    async def _relay(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while chunk := await source.read(65536):
                await self._flowing.wait()
                sink.write(chunk)
                await sink.drain()
        finally:
            sink.close()


def database_params() -> dict[str, Any]:
    params = connection.get_connection_params()
    params.setdefault("host", "127.0.0.1")
    params.setdefault("port", 5432)
    return params


@pytest_asyncio.fixture
async def frozen_database():
    """A :class:`FreezingProxy` in front of the test database, and a loop connection through it
    that gives a statement 0.5 s."""
    params = database_params()
    proxy = FreezingProxy(str(params["host"]), int(params["port"]))
    port = await proxy.start()
    through_proxy = {**params, "host": "127.0.0.1", "port": port}
    session = LoopConnection("test-loop", timeout=0.5, params=through_proxy)
    yield proxy, session
    session.close()
    await proxy.close()


BACKEND = "SELECT pg_backend_pid()"


@pytest_asyncio.fixture
async def loop_session():
    """A loop connection to the test database that gives a statement 2 s."""
    session = LoopConnection("test-loop", timeout=2)
    yield session
    session.close()


def terminate(backend: int) -> None:
    """End a session of the server's, as an administrator (or a restart) would."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend])


@postgresql_only
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_loop_connection_keeps_its_session(loop_session: LoopConnection) -> None:
    [(first,)] = await loop_session.fetchall(BACKEND, ())
    assert await loop_session.fetchall("SELECT %s::int + 1", (41,)) == [(42,)]
    assert await loop_session.fetchall(BACKEND, ()) == [(first,)]


@postgresql_only
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_statement_a_frozen_server_does_not_answer_fails_within_the_timeout(
    frozen_database,
) -> None:
    """Given up by cancelling it, psycopg would first ask the frozen server to cancel the
    statement and wait for it, up to ten seconds: the session is cut instead. Once the server
    answers again, the next statement runs on a new session."""
    proxy, session = frozen_database
    [(first,)] = await session.fetchall(BACKEND, ())
    proxy.freeze()
    started = time.monotonic()
    with pytest.raises(DatabaseUnavailable, match=r"no answer within 0\.5 s"):
        await session.fetchall(BACKEND, ())
    assert time.monotonic() - started < 2.5
    proxy.thaw()
    [(second,)] = await session.fetchall(BACKEND, ())
    assert second != first


@postgresql_only
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_session_that_cannot_be_opened_in_time_fails_within_the_timeout(
    frozen_database,
) -> None:
    proxy, session = frozen_database
    proxy.freeze()
    with pytest.raises(DatabaseUnavailable, match=r"no session within 0\.5 s"):
        await session.fetchall(BACKEND, ())
    proxy.thaw()
    assert len(await session.fetchall(BACKEND, ())) == 1


@postgresql_only
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_session_ended_while_idle_is_replaced_without_failing(
    loop_session: LoopConnection,
) -> None:
    """The server ended the kept session meanwhile (a restart, an administrator): the statement
    is sent again on a new session, and the caller never learns of it."""
    [(first,)] = await loop_session.fetchall(BACKEND, ())
    await database_sync_to_async(terminate)(first)
    [(second,)] = await loop_session.fetchall(BACKEND, ())
    assert second != first


@postgresql_only
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_refused_row_raises_integrity_error_and_leaves_the_session_usable(
    loop_session: LoopConnection,
) -> None:
    [(first,)] = await loop_session.fetchall(BACKEND, ())
    with pytest.raises(psycopg.IntegrityError):  # no such game
        await loop_session.fetchall(
            "INSERT INTO game_move (game_id, seq, move, played_at)"
            " VALUES (gen_random_uuid(), 0, 'draw', now()) RETURNING id",
            (),
        )
    assert await loop_session.fetchall(BACKEND, ()) == [(first,)]
