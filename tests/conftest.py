"""Fixtures shared by the whole suite."""

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from asgiref.sync import SyncToAsync
from channels.testing import WebsocketCommunicator
from django.db import connections

from game import live, postgame


@pytest.fixture(autouse=True)
def _close_live_games() -> Iterator[None]:
    """Each test's event loop gets its own live-game cache and analysis loop; close their
    database threads after.

    The analysis worker process is shared by the whole run and stopped at its end. So is the one
    thread where asgiref runs every ``database_sync_to_async`` call of an async test: its
    connection is closed too, so that the next test never starts on one a test has cut.
    """
    yield
    postgame.close_all()
    live.close_all()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True, scope="session")
def _stop_the_analysis_worker() -> Iterator[None]:
    yield
    postgame.shutdown()


@pytest_asyncio.fixture
async def sockets() -> AsyncIterator[list[WebsocketCommunicator]]:
    """Sockets a test opened, disconnected at the end whatever happens."""
    opened: list[WebsocketCommunicator] = []
    yield opened
    for socket in opened:
        await socket.disconnect()
