"""Fixtures shared by the whole suite."""

from collections.abc import Iterator

import pytest

from game import live


@pytest.fixture(autouse=True)
def _close_live_games() -> Iterator[None]:
    """Each test's event loop gets its own live-game cache; close their database threads after."""
    yield
    live.close_all()
