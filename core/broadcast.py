"""Broadcasts to channel-layer groups: best effort, and never in the way of what caused them.

Every broadcast of the site is a snapshot that a client can ask for again (``sync``), so one that
is lost costs a moment's staleness, never a move. A broadcast therefore never fails its caller:
when the channel layer (Redis) is down or slow, the message is dropped, counted, and the outage
logged once (:data:`~core.outages.CHANNEL_LAYER`).
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from core.metrics import BROADCASTS_DROPPED
from core.outages import CHANNEL_LAYER

logger = logging.getLogger(__name__)

SEND_TIMEOUT: Final = 2.0
"""Seconds a broadcast may take before it is given up (Redis not answering)."""

_in_flight: set[asyncio.Task[None]] = set()


async def group_send(group: str, message: dict[str, Any], *, layer: Any = None) -> bool:
    """Send ``message`` to every member of ``group`` through ``layer`` (the site's channel layer
    by default); say whether the layer took it."""
    layer = layer or get_channel_layer()
    if layer is None:
        return False
    try:
        # asyncio.timeout, not wait_for: no task of its own per message (a move's broadcast).
        async with asyncio.timeout(SEND_TIMEOUT):
            await layer.group_send(group, message)
    except Exception as error:  # Redis down, refusing, or too slow: the broadcast is dropped
        BROADCASTS_DROPPED.inc()
        CHANNEL_LAYER.failed(error)
        return False
    CHANNEL_LAYER.succeeded()
    return True


def after_commit(announce: Callable[..., object], *args: Any) -> None:
    """Run ``announce(*args)`` once the current transaction commits (at once outside one); an
    announcement that fails is logged and never undoes or fails the write it follows. The one way
    a service publishes what it changed: nothing is told of a write that rolled back."""
    transaction.on_commit(partial(announce, *args), robust=True)


def group_send_soon(group: str, message: dict[str, Any]) -> None:
    """:func:`group_send` from synchronous code (an on-commit hook, a view, the move writer's
    database thread): sent in the background on the event loop this thread works for, so that
    nothing waits for Redis; from a thread that works for no loop (a management command), now."""
    loop = _serving_loop()
    if loop is None:
        async_to_sync(group_send)(group, message)
    else:
        loop.call_soon_threadsafe(_send_in_background, group, message)


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop whose ``sync_to_async`` call this thread is running, if any."""
    loop: asyncio.AbstractEventLoop | None = getattr(
        SyncToAsync.threadlocal, "main_event_loop", None
    )
    return loop if loop is not None and loop.is_running() else None


def _send_in_background(group: str, message: dict[str, Any]) -> None:
    in_background(group_send(group, message), f"A broadcast to {group}")


def in_background(
    work: Awaitable[object], name: str, *, after: asyncio.Task[None] | None = None
) -> asyncio.Task[None]:
    """Run ``work`` on this loop without waiting for it (its failure is logged), once ``after``
    (the previous broadcast of the same thing) is done, so that broadcasts keep their order."""
    task = asyncio.ensure_future(_logged(work, name, after))
    _in_flight.add(task)
    task.add_done_callback(_in_flight.discard)
    return task


async def _logged(work: Awaitable[object], name: str, after: asyncio.Task[None] | None) -> None:
    if after is not None and not after.done():  # mostly done: a move waits for nothing here
        await asyncio.wait([after])  # whatever its outcome: it logged its own failure
    try:
        await work
    except Exception:
        logger.exception("%s failed", name)
