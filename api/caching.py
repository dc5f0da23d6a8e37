"""The API's short-lived cache: an answer computed once is served again for
``API_CACHE_SECONDS`` from Django's cache (Redis in production, so shared by every web process).

Only answers that are the same for every asker are kept, and none is kept past a few seconds: a
cached answer can only be older than the truth, never ahead of it (a day's seed shows a few
seconds late, never early). When the cache fails (Redis down), answers are computed every time,
and the outage is told once (``core.outages``).
"""

import hashlib
import json
from collections.abc import Callable
from typing import Any, Final

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

from core.outages import Outage

CACHE: Final = Outage("The cache (Redis)", "cache")
CACHE_ERRORS: Final = (RedisError, OSError)
"""What a cache that cannot be reached raises (Django's Redis cache passes redis-py's errors on)."""


def cache_key(name: str, **arguments: object) -> str:
    """The key of an answer: its name and its arguments, hashed (any username fits).

    >>> cache_key("board", kind="best", page=2) == cache_key("board", page=2, kind="best")
    True
    """
    text = json.dumps(arguments, sort_keys=True, default=str)
    return f"api:{name}:{hashlib.sha256(text.encode()).hexdigest()}"


def cached(key: str, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The answer kept under ``key``, else ``compute()``'s, kept for next time."""
    seconds = settings.API_CACHE_SECONDS
    if seconds <= 0:
        return compute()
    try:
        kept = cache.get(key)
    except CACHE_ERRORS as error:  # the cache is down: answer without it
        CACHE.failed(error)
        return compute()
    CACHE.succeeded()
    if kept is not None:
        return dict(kept)
    answer = compute()
    try:
        cache.set(key, answer, seconds)
    except CACHE_ERRORS as error:
        CACHE.failed(error)
    return answer
