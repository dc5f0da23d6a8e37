"""The channel layer of a single process (the default without Redis).

Channels' ``InMemoryChannelLayer`` sweeps every channel and every group for expired entries on
each ``receive`` and each ``group_send``: with a few hundred sockets open that sweep cost more than
the whole of a move. Expiry is housekeeping (a message nobody read for a minute, a group membership
older than a day), so here the sweep runs at most once per ``CLEAN_INTERVAL`` seconds instead; what
is delivered, and to whom, is unchanged. A group message is also put on each member's queue in
turn, where Channels starts a task per member and waits for them all (putting a message on a queue
never waits).
"""

import contextlib
import time
from collections.abc import Sequence
from typing import Any, Final

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

CLEAN_INTERVAL: Final = 1.0
SKIP_CHANNEL: Final = "skip_channel"
"""A group message may name one member it need not reach (the sender, answered directly). The
site's layers (this one and :mod:`core.redis_layer`) leave that member out; its consumer ignores
the message too, should another layer deliver it."""


class InProcessChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, sweeping for expired messages and groups once a second."""

    _last_clean: float = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_clean >= CLEAN_INTERVAL:
            self._last_clean = now
            super()._clean_expired()

    async def channel_discard(self, channel: str) -> None:
        """The consumer of ``channel`` has ended: forget its queue and its groups now, rather
        than when they would expire (:class:`core.sockets.JsonSocket` calls this)."""
        self.channels.pop(channel, None)
        self._remove_from_groups(channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_many([(group, message)])

    async def group_send_many(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Send each ``(group, message)`` in turn (:func:`core.broadcast.group_send_many`)."""
        self._clean_expired()
        for group, message in messages:
            assert isinstance(message, dict), "Message is not a dict"
            self.require_valid_group_name(group)
            skipped = message.get(SKIP_CHANNEL)
            for channel in list(self.groups.get(group, ())):
                if channel == skipped:
                    continue
                with contextlib.suppress(ChannelFull):  # as in Channels: a full queue misses it
                    await self.send(channel, message)
