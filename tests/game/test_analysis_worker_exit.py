"""A web process killed outright (``kill -9``) leaves no analysis worker behind.

A real Daphne process, a game ended over its websocket so that its analysis worker starts, then
SIGKILL: the worker and its helper (multiprocessing's resource tracker) must be gone within a few
seconds, not orphaned.
"""

import asyncio
import json
import signal
import time
from typing import Any

import pytest
import websockets
from django.conf import settings as django_settings
from websockets.typing import Origin

from bench.procfs import alive, descendants
from tests.game.conftest import Seat
from tests.servers import daphne_process

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ORPHANS_GONE_WITHIN = 5.0


async def receive(socket: websockets.ClientConnection, timeout: float) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), timeout))
    return message


async def test_the_analysis_worker_dies_with_its_server(make_seat, tmp_path) -> None:
    seat: Seat = await make_seat(seed="4")
    with daphne_process(tmp_path) as (server, base):
        async with websockets.connect(
            f"{base.replace('http:', 'ws:')}/ws/play/",
            origin=Origin(base),
            additional_headers={
                "Cookie": f"{django_settings.SESSION_COOKIE_NAME}={seat.session_key}"
            },
        ) as socket:
            await socket.send(json.dumps({"type": "open", "game": str(seat.game.id)}))
            assert (await receive(socket, 10))["type"] == "state"
            await socket.send(json.dumps({"type": "abandon"}))
            assert (await receive(socket, 10))["game"]["status"] == "abandoned"
            assert (await receive(socket, 120))["type"] == "analysis"  # the worker has run
        family = descendants(server.pid)
        assert family, "the server has no analysis worker"

        server.send_signal(signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + ORPHANS_GONE_WITHIN
        while time.monotonic() < deadline and any(alive(pid) for pid in family):
            await asyncio.sleep(0.1)
        assert [pid for pid in family if alive(pid)] == []
