"""Liveness, readiness and metrics: what the proxy, the orchestrator and the operators ask."""

import pytest
from django.test import AsyncClient, Client
from django.utils import timezone

from game.models import Status
from tests.accounts.helpers import make_player, record_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_liveness_needs_nothing_but_the_process(client: Client) -> None:
    response = client.get("/healthz")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.asyncio
async def test_readiness_names_every_part_it_checked() -> None:
    response = await AsyncClient().get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok", "move_writer": "ok"},
    }


def test_metrics_show_the_analysis_backlog(client: Client) -> None:
    """Finished games without their analysis are the backlog, read when the metrics are."""
    player = make_player()
    for _ in range(3):
        record_game(
            player, status=Status.LOST, score=100, finished_at=timezone.now(), duration_ms=1
        )
    body = client.get("/metrics").content.decode()
    assert "tripeaks_analysis_backlog 3.0" in body
    for name in (
        "tripeaks_moves_acknowledged_total",
        "tripeaks_move_ack_seconds_bucket",
        "tripeaks_writer_batch_moves_bucket",
        "# TYPE tripeaks_writer_batch_seconds histogram",
        "tripeaks_broadcasts_dropped_total",
        "tripeaks_open_sockets",
    ):
        assert name in body
