"""Fixtures shared by the whole suite."""

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from channels.testing import WebsocketCommunicator

from game import live, postgame


@pytest.fixture(autouse=True)
def _close_live_games() -> Iterator[None]:
    """Each test's event loop gets its own live-game cache; close their database threads after.

    The analysis worker process is shared by the whole run and stopped at its end.
    """
    yield
    live.close_all()


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
