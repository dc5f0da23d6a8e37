"""A web process starts its background work as it starts serving, before any request."""

import time
from pathlib import Path

import pytest

from game.models import GameAnalysis
from tests.game.test_analysis_queue import ANALYSED_WITHIN, finished_game
from tests.servers import daphne_process


@pytest.mark.django_db(transaction=True)
def test_a_restarted_server_drains_the_backlog_with_no_request(tmp_path: Path) -> None:
    """Games that ended while no server ran (a crash) are analysed by a fresh Daphne process
    that nobody has asked anything of: no game has to end on it first."""
    backlog = [finished_game(seed=seed, finished_ago=60) for seed in ("4", "5")]
    with daphne_process(tmp_path):
        deadline = time.monotonic() + ANALYSED_WITHIN
        while GameAnalysis.objects.filter(game__in=backlog).count() < len(backlog):
            assert time.monotonic() < deadline, "the backlog was never analysed"
            time.sleep(0.2)
