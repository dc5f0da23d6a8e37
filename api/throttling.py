"""The API's rate limit: at most ``API_RATE_PER_MINUTE`` requests a minute from one address.

Counted per client address (``REMOTE_ADDR``: behind nginx, Daphne runs with ``--proxy-headers`` so
that it is the player's, and a client's own ``X-Forwarded-For`` is never believed) in fixed
windows of one minute, in Django's cache: one atomic increment per request, shared by every web
process through Redis. When the cache fails, requests are let through (the outage is told once).
"""

import time
from typing import Final

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from api.caching import CACHE, CACHE_ERRORS

WINDOW_SECONDS: Final = 60

clock = time.time
"""Where the throttle reads the time (a test sets its own)."""


def window_left(now: float) -> float:
    """Seconds until the minute ``now`` falls in ends: when a refused client may ask again.

    >>> window_left(120.0), window_left(179.5)
    (60.0, 0.5)
    """
    return WINDOW_SECONDS - now % WINDOW_SECONDS


class PerAddress(BaseThrottle):
    """Requests from one address, counted per minute."""

    def allow_request(self, request: HttpRequest) -> bool:
        limit = settings.API_RATE_PER_MINUTE
        if limit <= 0:
            return True
        return self.count(request, clock()) <= limit

    def count(self, request: HttpRequest, now: float) -> int:
        """This request's number in its address's current minute (0 when the cache fails)."""
        window = int(now // WINDOW_SECONDS)
        key = f"api:rate:{request.META.get('REMOTE_ADDR', '')}:{window}"
        try:
            cache.add(key, 0, WINDOW_SECONDS + 5)
            try:
                count = cache.incr(key)
            except ValueError:  # the count expired between the two calls: a new window
                cache.set(key, 1, WINDOW_SECONDS + 5)
                count = 1
        except CACHE_ERRORS as error:
            CACHE.failed(error)
            return 0
        CACHE.succeeded()
        return count

    def wait(self) -> float:
        return window_left(clock())
