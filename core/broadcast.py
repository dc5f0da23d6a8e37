"""Broadcasts to channel-layer groups: best effort, and never in the way of what caused them.

Every broadcast of the site is a snapshot that a client can ask for again (``sync``), so one that
is lost costs a moment's staleness, never a move. A broadcast therefore never fails its caller:
when the channel layer (Redis) is down or slow, the message is dropped, counted, and the outage
logged once (:data:`~core.outages.CHANNEL_LAYER`).
"""

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Final, TypeAlias

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from core.metrics import BROADCASTS_DROPPED
from core.outages import CHANNEL_LAYER

logger = logging.getLogger(__name__)

SEND_TIMEOUT: Final = 2.0
"""Seconds a broadcast may take before it is given up (Redis not answering)."""

GroupMessage: TypeAlias = tuple[str, dict[str, Any]]
"""A message and the group it is for."""


async def group_send(group: str, message: dict[str, Any], *, layer: Any = None) -> bool:
    """Send ``message`` to every member of ``group`` through ``layer`` (the site's channel layer
    by default); say whether the layer took it."""
    return await group_send_many([(group, message)], layer=layer)


async def group_send_many(messages: Sequence[GroupMessage], *, layer: Any = None) -> bool:
    """Send each ``(group, message)`` to every member of its group, in order, through ``layer``
    (the site's channel layer by default) in one call where it can (one Redis round trip); say
    whether the layer took them. Should it fail, they are all dropped."""
    layer = layer or get_channel_layer()
    if layer is None or not messages:
        return False
    try:
        # asyncio.timeout, not wait_for: no task of its own per message.
        async with asyncio.timeout(SEND_TIMEOUT):
            await _send_all(layer, messages)
    except Exception as error:  # Redis down, refusing, or too slow: the broadcasts are dropped
        BROADCASTS_DROPPED.inc(len(messages))
        CHANNEL_LAYER.failed(error)
        return False
    CHANNEL_LAYER.succeeded()
    return True


async def _send_all(layer: Any, messages: Sequence[GroupMessage]) -> None:
    send_many = getattr(layer, "group_send_many", None)  # the site's layers (core.layers)
    if send_many is not None:
        await send_many(messages)
        return
    for group, message in messages:
        await layer.group_send(group, message)


def broadcast_soon(
    group: str, message: dict[str, Any], then: Callable[[], Awaitable[object]] | None = None
) -> None:
    """Send ``message`` to ``group`` from the running event loop without waiting for it, then
    await ``then()`` (what else is told of the change), should there be one.

    Broadcasts keep the order they were made in, and those made within one turn of the loop
    (the moves of one committed batch, say) go out together: one task, one timeout and one call
    of the layer for them all, rather than each its own. A failure is counted and logged, and
    never reaches the caller (the module's docstring). A ``then`` holds back the broadcasts made
    after it until it is done, so it must be quick.
    """
    _outbox(asyncio.get_running_loop()).add((group, message), then)


class _Outbox:
    """One event loop's broadcasts waiting to go out, and the task sending them."""

    def __init__(self) -> None:
        self.waiting: list[tuple[GroupMessage, Callable[[], Awaitable[object]] | None]] = []
        self.sender: asyncio.Task[None] | None = None

    def add(self, message: GroupMessage, then: Callable[[], Awaitable[object]] | None) -> None:
        self.waiting.append((message, then))
        if self.sender is None or self.sender.done():
            # It runs from the loop's next turn: what this turn adds goes with the first batch.
            self.sender = asyncio.ensure_future(self._send())

    async def _send(self) -> None:
        try:
            while self.waiting:
                batch, self.waiting = self.waiting, []
                await group_send_many([message for message, _ in batch])
                for _, then in batch:
                    if then is None:
                        continue
                    try:
                        await then()
                    except Exception:
                        logger.exception("Telling of a broadcast change failed")
        finally:
            self.sender = None  # nothing of the loop is kept once all is sent (a weak key)


_outboxes: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Outbox]" = (
    weakref.WeakKeyDictionary()
)


def _outbox(loop: asyncio.AbstractEventLoop) -> _Outbox:
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = _Outbox()
    return outbox


async def broadcasts_sent() -> None:
    """Wait until every broadcast this event loop has made is sent, and its ``then`` awaited."""
    outbox = _outboxes.get(asyncio.get_running_loop())
    while outbox is not None and outbox.sender is not None and not outbox.sender.done():
        await asyncio.wait([outbox.sender])


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
        loop.call_soon_threadsafe(broadcast_soon, group, message)


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop whose ``sync_to_async`` call this thread is running, if any."""
    loop: asyncio.AbstractEventLoop | None = getattr(
        SyncToAsync.threadlocal, "main_event_loop", None
    )
    return loop if loop is not None and loop.is_running() else None
