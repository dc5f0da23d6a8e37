"""Fixtures shared by the whole suite."""

from collections.abc import Iterator

import pytest

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
