"""Work started at the same moment in several threads, each on its own database connection, as
separate processes (or web requests) would: for the tests of what must hold under concurrency."""

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from django.db import connections

T = TypeVar("T")
R = TypeVar("R")

START_TIMEOUT = 10.0
"""Seconds a thread waits for the others to be ready."""


def at_once(work: Callable[[T], R], arguments: Sequence[T], *, timeout: float = 120) -> list[R]:
    """``work(argument)`` for every argument, all released together by a barrier, each in a
    thread of its own whose connections are closed when it ends; the results in order. The first
    failure is raised in the caller's thread."""
    barrier = threading.Barrier(len(arguments))

    def run(argument: T) -> R:
        try:
            barrier.wait(timeout=START_TIMEOUT)
            return work(argument)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(arguments)) as pool:
        return list(pool.map(run, arguments, timeout=timeout))
