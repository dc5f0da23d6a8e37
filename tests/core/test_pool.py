"""The process's pool of PostgreSQL connections (core.pool) after an outage.

The pool here is built as Django builds the site's (the options the settings give it, the same
check of a connection as it leaves the pool), on a PostgreSQL cluster of its own that the test
stops and starts. (The suite's own settings run without a pool: tests/settings.py.)
"""

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from psycopg_pool import ConnectionPool, PoolTimeout

from core.pool import pool_options
from deploy.servers import PrivatePostgres

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")

OUTAGE = 8.0
"""Seconds the database is down: long enough for psycopg's own backoff to have reached a wait
of eight seconds between attempts."""
WAIT = 6.0
"""Seconds a request waits for a connection; the waiting request begins three seconds before
the database returns, so that the attempt its arrival starts has ended before then."""


@pytest.fixture
def database() -> Iterator[PrivatePostgres]:
    cluster = PrivatePostgres()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture
def pool(database: PrivatePostgres) -> Iterator[ConnectionPool[Any]]:
    built = ConnectionPool(
        database.url(),
        kwargs={"connect_timeout": 3, "autocommit": True},
        check=ConnectionPool.check_connection,
        open=True,
        **pool_options(size=4, timeout=1.0),
    )
    try:
        built.wait()
        yield built
    finally:
        built.close()


def served(pool: ConnectionPool[Any], timeout: float) -> bool:
    try:
        with pool.connection(timeout=timeout) as session:
            session.execute("SELECT 1")
    except PoolTimeout:
        return False
    return True


def test_a_request_waiting_when_the_database_returns_is_served(
    database: PrivatePostgres, pool: ConnectionPool[Any]
) -> None:
    """A request that began while the database was down, late in a long outage, is served once
    the database is back, within its wait. Left to psycopg's backoff, the pool's next attempt
    to connect would have come seven or eight seconds after the return; with attempts that
    give up but none started after them, not before the request's wait ran out."""
    database.stop()
    began = time.monotonic()
    while time.monotonic() - began < 1.0:  # requests fail, and the pool starts reconnecting
        assert not served(pool, timeout=0.2)
    time.sleep(OUTAGE - 3.0 - (time.monotonic() - began))

    answers: list[bool] = []
    waiting = threading.Thread(target=lambda: answers.append(served(pool, timeout=WAIT)))
    waiting.start()
    time.sleep(3.0)
    database.start()
    waiting.join()

    assert answers == [True]
    assert served(pool, timeout=1.0)
