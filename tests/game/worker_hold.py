"""Work for the analysis worker process that holds it until a test lets it go.

Imported by the spawned worker itself, so it imports nothing of Django or the project.
"""

import time
from pathlib import Path

HOLD_LIMIT = 120.0
"""Seconds the worker is held at most, should a test fail before it lets it go."""


def hold_until(released: str) -> None:
    """Keep the worker busy until the file ``released`` exists."""
    deadline = time.monotonic() + HOLD_LIMIT
    while not Path(released).exists() and time.monotonic() < deadline:
        time.sleep(0.02)
