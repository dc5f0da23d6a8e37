"""Broadcasts to channel-layer groups: best effort, and never in the way of what caused them.

Every broadcast of the site is a snapshot that a client can ask for again (``sync``), so one that
is lost costs a moment's staleness, never a move. A broadcast therefore never fails its caller:
when the channel layer (Redis) is down or slow, the message is dropped, counted, and the outage
logged once (:data:`~tripeaks_site.outages.CHANNEL_LAYER`).
"""

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, Final

from channels.layers import get_channel_layer

from tripeaks_site.outages import CHANNEL_LAYER

logger = logging.getLogger(__name__)

SEND_TIMEOUT: Final = 2.0
"""Seconds a broadcast may take before it is given up (Redis not answering)."""

_in_flight: set[asyncio.Task[None]] = set()


async def group_send(group: str, message: dict[str, Any]) -> bool:
    """Send ``message`` to every member of ``group``; say whether the channel layer took it."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)
    except Exception as error:  # Redis down, refusing, or too slow: the broadcast is dropped
        CHANNEL_LAYER.failed(error)
        return False
    CHANNEL_LAYER.succeeded()
    return True


def in_background(work: Awaitable[None], name: str) -> None:
    """Run ``work`` on this loop without waiting for it (it logs its own failure)."""
    task = asyncio.ensure_future(_logged(work, name))
    _in_flight.add(task)
    task.add_done_callback(_in_flight.discard)


async def _logged(work: Awaitable[None], name: str) -> None:
    try:
        await work
    except Exception:
        logger.exception("%s failed", name)
