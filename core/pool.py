"""How each process's pool of PostgreSQL connections (Django's psycopg pool) is set up, and how
it comes back after an outage.

Left to itself, psycopg's pool tries again to connect after a failure with a delay that doubles
each time (1, 2, 4, 8 s...) for five minutes, and a request that finds no connection waits for
the next attempt rather than making one. So the longer PostgreSQL was down, the longer the site
went on failing once it was back: a pool alone (a throwaway script, a request every 0.2 s) served
its first connection 3.5, 8.5 and 19.1 s after outages of 10, 20 and 40 s ended, and a quiet site
(``bench/outage.py --players 2 --outage 20``) served pages again 8.2 s after the database
returned. In CI, a web process of the fault tests (``tests/deploy/test_faults.py``) logged the
database down again a second after it was back: a request had found no connection for 5 s.

Here an attempt gives up after :data:`RECONNECT_WINDOW` instead, and :func:`keep_reconnecting`
starts the next at once: while the database is down the pool tries about once a second, and
serves a request within about a second of its return, however long the outage (the same
bench: 0.6 s).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

MIN_SIZE: Final = 2
RECONNECT_WINDOW: Final = 2.0
"""Seconds one attempt to reconnect goes on (trying at once, then a second later) before it
gives up and :func:`keep_reconnecting` starts another."""


def pool_options(size: int, timeout: float) -> dict[str, Any]:
    """The pool's options (Django's ``OPTIONS["pool"]``): at most ``size`` connections, a
    request waiting up to ``timeout`` seconds for one."""
    return {
        "min_size": MIN_SIZE,
        "max_size": size,
        "timeout": timeout,
        "name": "tripeaks",
        "reconnect_timeout": RECONNECT_WINDOW,
        "reconnect_failed": keep_reconnecting,
    }


def keep_reconnecting(pool: ConnectionPool[Any]) -> None:
    """An attempt to reconnect gave up: if the pool has no connection to hand out, start the
    next attempt now, so that a request waiting meanwhile is served as soon as the database is
    back. (Otherwise only a new request starts one, and a request that waited through the last
    attempt times out though the database has returned.)

    ``check()`` is the pool's public way to grow. It also tests the connections it holds idle,
    so it is called only when there are none: a test on a database that is frozen, rather than
    stopped, would hold a worker of the pool until the database woke.
    """
    if pool.closed or pool.get_stats().get("pool_available", 0) > 0:
        return
    pool.check()
