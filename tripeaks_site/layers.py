"""The channel layer of a single process (the default without Redis).

Channels' ``InMemoryChannelLayer`` sweeps every channel and every group for expired entries on
each ``receive`` and each ``group_send``: with a few hundred sockets open that sweep cost more than
the whole of a move. Expiry is housekeeping (a message nobody read for a minute, a group membership
older than a day), so here the sweep runs at most once per ``CLEAN_INTERVAL`` seconds instead; what
is delivered, and to whom, is unchanged.
"""

import time
from typing import Final

from channels.layers import InMemoryChannelLayer

CLEAN_INTERVAL: Final = 1.0


class InProcessChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, sweeping for expired messages and groups once a second."""

    _last_clean: float = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_clean >= CLEAN_INTERVAL:
            self._last_clean = now
            super()._clean_expired()
