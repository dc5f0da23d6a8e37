"""The channel layer between processes: Redis pub/sub, made to ride out Redis going away.

It speaks the same protocol as channels_redis' ``RedisPubSubChannelLayer`` (which it replaces) -
a group message is one ``PUBLISH`` whatever the group's size, and each process receives on one
subscribing connection - but keeps what it wants subscribed as its own state, apart from the
connection, for two reasons found in channels_redis 4.3 and redis-py 8:

- **Redis going away stopped play.** channels_redis subscribes a consumer's channel when the
  consumer starts (``new_channel``) and its groups in ``group_add``, both raising while Redis is
  down: no socket could open during an outage. Here subscribing never fails its caller: what is
  wanted is recorded, and one task per event loop keeps Redis' subscriptions equal to it,
  reconnecting with a backoff and subscribing everything again when Redis is back. Meanwhile
  messages are lost, which every broadcast of the site allows (a client that missed one asks
  again with ``sync``); :mod:`core.broadcast` counts them.
- **Subscriptions outlived their sockets.** channels_redis unsubscribes a consumer's channel only
  when its ``receive`` is cancelled, which does not happen when the consumer ends between two
  receives (django/channels_redis#276); and redis-py forgets an unsubscribed channel only once
  Redis confirms it, so one unsubscribed during an outage was subscribed again on reconnection
  (redis/redis-py#602). Here the site's sockets say when they end (``channel_discard``, called by
  :class:`core.sockets.JsonSocket`), and after any error the subscribing connection is
  closed and a new one subscribes exactly what is wanted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import types
import uuid
from collections.abc import Sequence
from typing import Any, Final

from channels.layers import BaseChannelLayer
from channels_redis.serializers import registry
from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from core.layers import SKIP_CHANNEL
from core.outages import CHANNEL_LAYER

logger = logging.getLogger(__name__)

CONNECT_TIMEOUT: Final = 1.0
"""Seconds to reach Redis before giving up (and, for a subscription, trying again later)."""
COMMAND_TIMEOUT: Final = 2.0
"""Seconds Redis may take to answer a command."""
SUBSCRIBE_WAIT: Final = 1.0
"""Seconds a new channel or group member waits for its subscription before going on without it."""
BACKOFF: Final = (0.2, 0.5, 1.0, 2.0)
"""Pauses between attempts to reconnect the subscribing connection (the last one repeats)."""
READ_TIMEOUT: Final = 1.0


class ResilientRedisChannelLayer(BaseChannelLayer):
    """A channel layer over Redis pub/sub that outlasts Redis' outages (see the module)."""

    extensions: Final = ["groups", "flush"]

    def __init__(
        self, hosts: list[str], prefix: str = "asgi", capacity: int = 100, **kwargs: Any
    ) -> None:
        super().__init__(capacity=capacity, **kwargs)
        if len(hosts) != 1:
            raise ValueError("ResilientRedisChannelLayer takes one Redis URL")
        self.url = hosts[0]
        self.prefix = prefix
        self.serializer = registry.get_serializer("msgpack")
        self._loops: dict[asyncio.AbstractEventLoop, _LoopLayer] = {}

    def _layer(self) -> _LoopLayer:
        """This event loop's state: connections can serve one loop only."""
        loop = asyncio.get_running_loop()
        layer = self._loops.get(loop)
        if layer is None:
            layer = self._loops[loop] = _LoopLayer(self)
            _flush_on_close(self, loop)
        return layer

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert self.require_valid_channel_name(channel)
        await self._layer().publish([(channel, self.serializer.serialize(message))])

    async def receive(self, channel: str) -> dict[str, Any]:
        layer = self._layer()
        try:
            data = await (await layer.queue(channel)).get()
        except asyncio.CancelledError:
            await layer.channel_discard(channel)
            raise
        return dict(data)  # each receiver its own: the one delivered may go to several

    async def new_channel(self, prefix: str = "specific.") -> str:
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        await self._layer().channel_add(channel)
        return channel

    async def channel_discard(self, channel: str) -> None:
        """The consumer of ``channel`` has ended: leave its groups and unsubscribe it."""
        await self._layer().channel_discard(channel)

    async def group_add(self, group: str, channel: str) -> None:
        assert self.require_valid_group_name(group)
        await self._layer().group_add(self.group_channel(group), channel)

    async def group_discard(self, group: str, channel: str) -> None:
        assert self.require_valid_group_name(group)
        await self._layer().group_discard(self.group_channel(group), channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_many([(group, message)])

    async def group_send_many(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Publish each ``(group, message)``, in order and in one pipeline."""
        for group, _ in messages:
            assert self.require_valid_group_name(group)
        await self._layer().publish(
            [(self.group_channel(group), self.serializer.serialize(m)) for group, m in messages]
        )

    async def flush(self) -> None:
        layer = self._loops.pop(asyncio.get_running_loop(), None)
        if layer is not None:
            await layer.close()

    async def ping(self) -> None:
        """Ask Redis whether it answers (raises if it does not)."""
        await self._layer().ping()

    def group_channel(self, group: str) -> str:
        """The Redis channel a group's messages are published on."""
        return f"{self.prefix}__group__{group}"

    def subscriptions(self) -> set[str]:
        """What this process wants subscribed, on the running loop (for tests and metrics)."""
        return self._layer().wanted()


class _LoopLayer:
    """One event loop's channels, groups and Redis connections."""

    def __init__(self, parent: ResilientRedisChannelLayer) -> None:
        self.parent = parent
        self.channels: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self.groups: dict[str, set[str]] = {}
        # One immediate retry, on a new connection: after Redis restarts, the first command
        # meets a connection it had cut. More would only delay the failure of a broadcast.
        self._redis = aioredis.Redis.from_url(
            parent.url,
            socket_connect_timeout=CONNECT_TIMEOUT,
            socket_timeout=COMMAND_TIMEOUT,
            retry=Retry(NoBackoff(), 1),
        )
        self._pubsub: Any = None
        self._subscribed: set[str] = set()
        self._lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._outbox: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None

    def wanted(self) -> set[str]:
        return set(self.channels) | {group for group, members in self.groups.items() if members}

    async def queue(self, channel: str) -> asyncio.Queue[dict[str, Any]]:
        if channel not in self.channels:  # a name made elsewhere: subscribe to it as channels_redis
            await self.channel_add(channel)
        return self.channels[channel]

    async def ping(self) -> None:
        await self._redis.ping()

    async def publish(self, messages: list[tuple[str, bytes]]) -> None:
        """Publish each ``(channel, data)``, in one round trip with the messages published
        meanwhile (:meth:`_send_outbox`); raise as the ``PUBLISH`` would."""
        if not messages:  # nothing would ever answer the future
            return
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.extend((channel, data, sent) for channel, data in messages)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.ensure_future(self._send_outbox())
        await sent
        CHANNEL_LAYER.succeeded()

    async def _send_outbox(self) -> None:
        """Send what is waiting to be published, one pipeline at a time, in order.

        Moves are answered in bursts (the move writer commits a batch, and each move of it is
        broadcast at once): a ``PUBLISH`` of its own for each cost a fifth of a web process's
        event loop in the production topology, most of it redis-py's work per command. Should
        Redis fail, every message of the pipeline fails with it, as each would have alone.
        """
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                async with self._redis.pipeline(transaction=False) as pipeline:
                    for channel, data, _ in batch:
                        pipeline.publish(channel, data)
                    await pipeline.execute()
            except asyncio.CancelledError:  # the loop's layer is closing: nothing will be sent
                for _, _, sent in batch + self._outbox:
                    sent.cancel()
                self._outbox = []
                raise
            except Exception as error:
                for _, _, sent in batch:
                    if not sent.done():  # its sender may have stopped waiting (a timeout)
                        sent.set_exception(error)
            else:
                for _, _, sent in batch:
                    if not sent.done():
                        sent.set_result(None)

    async def channel_add(self, channel: str) -> None:
        self.channels[channel] = asyncio.Queue(maxsize=self.parent.capacity)
        await self._wanted_changed()

    async def channel_discard(self, channel: str) -> None:
        if self.channels.pop(channel, None) is None:
            return
        for members in self.groups.values():
            members.discard(channel)
        self.groups = {group: members for group, members in self.groups.items() if members}
        await self._wanted_changed()

    async def group_add(self, group: str, channel: str) -> None:
        self.groups.setdefault(group, set()).add(channel)
        await self._wanted_changed()

    async def group_discard(self, group: str, channel: str) -> None:
        members = self.groups.get(group)
        if members is None or channel not in members:
            return
        members.discard(channel)
        if not members:
            del self.groups[group]
        await self._wanted_changed()

    async def _wanted_changed(self) -> None:
        """Bring Redis' subscriptions up to date now if Redis answers soon; else the receiving
        task does it once Redis is back. Never raises, and waits for nothing while Redis is
        known to be down (a socket opening then would wait for each of its subscriptions)."""
        self._ensure_task()
        self._changed.set()
        if self._pubsub is None and CHANNEL_LAYER.down:
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._sync()), SUBSCRIBE_WAIT)
        except Exception as error:  # Redis down: the task takes over
            CHANNEL_LAYER.failed(error)

    async def _sync(self) -> None:
        """Subscribe to what is wanted and not subscribed, and the reverse."""
        async with self._lock:
            if self._pubsub is None:
                self._pubsub = self._redis.pubsub()
                self._subscribed = set()
            wanted = self.wanted()
            added, removed = wanted - self._subscribed, self._subscribed - wanted
            if added:
                await self._pubsub.subscribe(*added)
                self._subscribed |= added
            if removed:
                await self._pubsub.unsubscribe(*removed)
                self._subscribed -= removed
        if added or removed:  # Redis answered: an outage this process saw is over
            CHANNEL_LAYER.succeeded()

    def _ensure_task(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._receive_forever())

    async def _receive_forever(self) -> None:
        """Read what Redis delivers, and hand it to the channels it is for; after any error,
        start again on a new connection with everything wanted subscribed."""
        failures = 0
        while True:
            try:
                if not self._subscribed:
                    await self._sync()
                if not self._subscribed:  # nothing wanted yet
                    self._changed.clear()
                    await _wait(self._changed, READ_TIMEOUT)
                    continue
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=READ_TIMEOUT
                )
                if message is not None:
                    self._deliver(message)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis gone: forget the connection, come back later
                CHANNEL_LAYER.failed(error)
                await self._reset()
                await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1

    async def _reset(self) -> None:
        async with self._lock:
            pubsub, self._pubsub, self._subscribed = self._pubsub, None, set()
        if pubsub is not None:
            try:
                await pubsub.aclose()
            except Exception:  # the connection is already broken; nothing more to close
                logger.debug("closing a broken subscription connection failed", exc_info=True)

    def _deliver(self, message: dict[str, Any]) -> None:
        """Hand a message Redis delivered to this process's channels it is for: read once,
        whatever their number, and never to the member a group message skips (the sender's own
        socket, which answered directly), as :class:`core.layers.InProcessChannelLayer` does:
        each move's broadcast would otherwise wake the mover's socket for nothing."""
        name = message["channel"]
        name = name.decode() if isinstance(name, bytes) else name
        targets = self.groups.get(name, {name} if name in self.channels else set())
        if not targets:
            return
        event: dict[str, Any] = self.parent.serializer.deserialize(message["data"])
        skipped = event.get(SKIP_CHANNEL)
        for channel in targets:
            queue = self.channels.get(channel)
            if queue is None or channel == skipped:
                continue
            try:
                queue.put_nowait(event)
            except asyncio.QueueFull:  # as Channels' own layers: a full channel misses it
                logger.debug("channel %s is full: a message was dropped", channel)

    async def close(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
            self._sender = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._reset()
        await self._redis.aclose(close_connection_pool=True)
        self.channels.clear()
        self.groups.clear()


async def _wait(event: asyncio.Event, timeout: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


def _flush_on_close(layer: ResilientRedisChannelLayer, loop: asyncio.AbstractEventLoop) -> None:
    """Close a loop's connections when the loop closes (tests run a loop per test)."""
    original = loop.close

    def close(self: asyncio.AbstractEventLoop) -> None:
        state = layer._loops.pop(loop, None)
        if state is not None and not loop.is_running():
            loop.run_until_complete(state.close())
        self.close = original  # type: ignore[method-assign]
        original()

    loop.close = types.MethodType(close, loop)  # type: ignore[method-assign]
